// Log diagnosis: each error OLake prints maps to its code; following a log loses no partial line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient } from '../../src/management/client.js';
import { diagnoseLog, LOG_DIAGNOSES } from '../../src/management/diagnose.js';
import { followStep, followTail } from '../../src/management/follow.js';
import type { LogLine, Task } from '../../src/management/types.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { FAILURES } from '../../src/sandbox/olake-ui/seed.js';

const at = (message: string, level = 'error'): LogLine => ({ level, time: '2026-01-01T00:00:00Z', message });

describe('diagnoseLog', () => {
  const expected = [
    'RUN_TOKEN_EXPIRED',
    'CATALOG_FORBIDDEN',
    'RUN_NO_SUCH_TABLE',
    'RUN_NO_SUCH_NAMESPACE',
    'S3_ACCESS_DENIED_WRITE',
    'S3_SIGNATURE_MISMATCH',
    'S3_NO_SUCH_BUCKET',
    'S3_INVALID_ACCESS_KEY',
    'RUN_S3_EXPIRED_TOKEN',
    'CATALOG_CONNECTION_REFUSED',
    'S3_TIMEOUT',
    'RUN_OUT_OF_MEMORY',
  ];

  it.each(FAILURES.map((line, i) => [expected[i], line]))('maps to %s: %s', (code, line) => {
    const [d] = diagnoseLog([at('Starting sync', 'info'), at(line)]);
    expect(d?.code).toBe(code);
    expect(d?.step).toBe('run.log');
    expect(d?.evidence.extra?.line).toBe('#2 2026-01-01T00:00:00Z ERROR');
    expect(d?.what && d.cause && d.remedy).toBeTruthy();
  });

  it('covers the rest of its table, ignores info lines, and gives each code once', () => {
    expect(
      diagnoseLog([at('org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: bad token')])[0]
        ?.code,
    ).toBe('CATALOG_UNAUTHORIZED');
    expect(
      diagnoseLog([at('java.net.SocketTimeoutException: connect timed out to catalog:8181/v1/config')])[0]
        ?.code,
    ).toBe('CATALOG_TIMEOUT');
    expect(diagnoseLog([at('ConnectException: Connection refused: minio:9000 bucket lake')])[0]?.code).toBe(
      'S3_CONNECTION_REFUSED',
    );
    expect(diagnoseLog([at('retrying after Connection refused', 'info')])).toEqual([]);
    const twice = diagnoseLog([at(FAILURES[2] as string), at(FAILURES[2] as string)]);
    expect(twice).toHaveLength(1);
    expect(twice[0]?.evidence.errorCode).toBe('NoSuchTableException');
    expect(Object.keys(LOG_DIAGNOSES)).toEqual(expect.arrayContaining(expected));
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
