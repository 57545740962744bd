// Log diagnosis: each error OLake prints maps to its code; following a log loses no partial line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient } from '../../src/management/client.js';
import { diagnoseLog } from '../../src/management/diagnose.js';
import { followStep, followTail } from '../../src/management/follow.js';
import type { LogLine, Task } from '../../src/management/types.js';
import { SEED_FAILURES } from '../../src/sandbox/olake-ui/failures.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { CATALOG_CASES } from '../fixtures/failures/catalog.js';
import { SOURCE_CASES, UNKNOWN_CASES } from '../fixtures/failures/source.js';
import { STORAGE_CASES } from '../fixtures/failures/storage.js';
import { WRITER_CASES } from '../fixtures/failures/writer.js';

const CORPUS = [...STORAGE_CASES, ...CATALOG_CASES, ...WRITER_CASES, ...SOURCE_CASES, ...UNKNOWN_CASES];

describe('the emulator’s failed runs', () => {
  it('end with failures copied verbatim from the corpus, one class each', () => {
    for (const seed of SEED_FAILURES)
      expect(seed.failure, seed.id).toEqual(CORPUS.find((c) => c.id === seed.id)?.failure);
    const classes = new Set(SEED_FAILURES.map((s) => CORPUS.find((c) => c.id === s.id)?.code));
    expect(classes.size).toBe(SEED_FAILURES.length);
  });

  it('are diagnosed in the jobs browser as the corpus expects', () => {
    const jobs = seedJobs(SEED_FAILURES.length * 12, 1);
    const seen = new Set<string>();
    for (const job of jobs)
      for (const task of job.tasks.filter((t) => t.status === 'Failed')) {
        const expected = CORPUS.find((c) => c.id === SEED_FAILURES[job.id % SEED_FAILURES.length]?.id);
        expect(diagnoseLog(task.logs)[0]?.code, `job ${job.id}`).toBe(expected?.code);
        seen.add(expected?.code ?? '');
      }
    expect(seen.size).toBe(SEED_FAILURES.length);
  });
});

describe('following a running log', () => {
  let ui: OlakeUiEmulator;
  let client: ManagementClient;
  beforeAll(async () => {
    ui = await startOlakeUiEmulator({ jobs: seedJobs(12, 1) });
    client = new ManagementClient({ url: ui.url });
    await client.login('admin', 'password');
  });
  afterAll(async () => {
    await client.close();
    await ui.close();
  });

  it('loses no line that was partial when read, and repeats none', async () => {
    const job = ui.jobs.find((j) => j.tasks[0]?.status === 'Running');
    const task = job?.tasks[0] as Task & { logs: LogLine[] };
    const id = job?.id ?? 0;
    const seen: string[] = [];
    const tail = await followTail(client, '123', id, task, 1000);
    seen.push(...tail.lines.map((l) => l.message));
    const line = (message: string) =>
      JSON.stringify({ level: 'info', time: '2026-01-01T00:00:09Z', message });

    ui.appendLog(task.file_path, `${line('a')}\n${line('b').slice(0, 20)}`);
    let step = await followStep(client, '123', id, task, tail.next);
    seen.push(...step.lines.map((l) => l.message));
    expect(step.lines.map((l) => l.message)).toEqual(['a']);

    ui.appendLog(
      task.file_path,
      `${line('b').slice(20)}\n${JSON.stringify({ level: 'debug', time: '2026-01-01T00:00:09Z', message: 'x' })}\n${line('c')}`,
    );
    step = await followStep(client, '123', id, task, step.next);
    seen.push(...step.lines.map((l) => l.message));
    ui.appendLog(task.file_path, '\n');
    step = await followStep(client, '123', id, task, step.next);
    seen.push(...step.lines.map((l) => l.message));
    step = await followStep(client, '123', id, task, step.next);
    expect(step.lines).toEqual([]);

    const all = task.logs.filter((l) => l.level !== 'debug').map((l) => l.message);
    expect(seen).toEqual(all);
    expect(seen.slice(-3)).toEqual(['a', 'b', 'c']);
  });

  it('pages through a burst bigger than one page', async () => {
    const job = ui.jobs.filter((j) => j.tasks[0]?.status === 'Running')[1];
    const task = job?.tasks[0] as Task & { logs: LogLine[] };
    const tail = await followTail(client, '123', job?.id ?? 0, task, 5);
    const burst = Array.from({ length: 7 }, (_, i) =>
      JSON.stringify({ level: 'info', time: '2026-01-01T00:00:09Z', message: `burst ${i}` }),
    );
    ui.appendLog(task.file_path, `${burst.join('\n')}\n`);
    const got: string[] = [];
    let cursor = tail.next;
    for (let i = 0; i < 5; i++) {
      const step = await followStep(client, '123', job?.id ?? 0, task, cursor, 3);
      got.push(...step.lines.map((l) => l.message));
      cursor = step.next;
      if (!step.more) break;
    }
    expect(got).toEqual(burst.map((_, i) => `burst ${i}`));
  });
});
