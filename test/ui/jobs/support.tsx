// In-memory JobsApi and Ink test helpers for the jobs browser tests.
import { stripVTControlCharacters } from 'node:util';
import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { act } from 'react';
import {
  type Job,
  type JobDetail,
  type JobsApi,
  type LogLine,
  type LogPage,
  type LogQuery,
  ManagementError,
  type Task,
} from '../../../src/management/types.js';
import { JobsBrowser, type JobsBrowserProps } from '../../../src/ui/jobs/index.js';

/** In the source config getJob returns: it must never reach the screen. */
export const SOURCE_PASSWORD = 'pg-s3cret-Zq9';

export const NOW = Date.parse('2026-08-20T12:00:00Z');

export function makeJob(id: number, overrides: Partial<Job> = {}): Job {
  return {
    id,
    name: `job-${String(id).padStart(5, '0')}`,
    source: { id: 2, name: 'pg-prod', type: 'postgres', version: 'v0.9.4' },
    destination: { id: 1, name: 'iceberg-rest', type: 'iceberg', version: 'v0.9.4' },
    frequency: '0 */6 * * *',
    last_run_time: '2026-08-20T09:00:00Z',
    last_run_state: 'Completed',
    last_run_type: 'sync',
    created_at: '2026-08-01T10:15:30Z',
    updated_at: '2026-08-02T11:00:00Z',
    activate: true,
    created_by: 'admin',
    updated_by: 'alice',
    ...overrides,
  };
}

/** A job that never ran: no last_run_* fields at all, as the server sends it. */
export function neverRan(id: number, overrides: Partial<Job> = {}): Job {
  const { last_run_time: _t, last_run_state: _s, last_run_type: _r, ...job } = makeJob(id, overrides);
  return job;
}

export function makeTask(index: number, overrides: Partial<Task> = {}): Task {
  const hour = String(index).padStart(2, '0');
  return {
    runtime: `${index + 1}m30s`,
    start_time: `2026-08-19T${hour}:00:01Z`,
    status: 'Completed',
    file_path: `sync-1-3-2026-08-19T${hour}:00:00Z`,
    job_type: 'sync',
    ...overrides,
  };
}

const unauthorized = () => new ManagementError('unauthorized', 'Unauthorized, try login again', 401);

export class FakeApi implements JobsApi {
  calls: string[] = [];
  tasks = new Map<number, Task[]>();
  /** Log lines per task file_path, oldest first. */
  logs = new Map<string, LogLine[]>();
  /** Every call fails with 401 while set. */
  expired = false;
  /** Makes the next listJobs calls fail with this error. */
  listError?: Error;
  /** Holds listJobs until released, to see the loading screen. */
  hold?: Promise<void>;

  constructor(public jobs: Job[]) {}

  private enter(call: string) {
    this.calls.push(call);
    if (this.expired) throw unauthorized();
  }

  private find(id: number): Job {
    const job = this.jobs.find((candidate) => candidate.id === id);
    if (!job) throw new ManagementError('not-found', `failed to get job: job not found: ${id}`, 404);
    return job;
  }

  async listJobs(project: string): Promise<Job[]> {
    this.enter(`listJobs ${project}`);
    if (this.hold) await this.hold;
    if (this.listError) throw this.listError;
    return this.jobs.map((job) => ({ ...job }));
  }

  async getJob(project: string, id: number): Promise<JobDetail> {
    this.enter(`getJob ${project} ${id}`);
    const job = this.find(id);
    return {
      ...job,
      source: { ...job.source, config: `{"host":"db","password":"${SOURCE_PASSWORD}"}` },
      streams: { selected: 3, bytes: 120 },
    };
  }

  async listTasks(project: string, id: number): Promise<Task[]> {
    this.enter(`listTasks ${project} ${id}`);
    return this.tasks.get(id) ?? [];
  }

  async taskLogs(project: string, id: number, task: Task, query: LogQuery = {}): Promise<LogPage> {
    this.enter(
      `taskLogs ${project} ${id} ${task.file_path} ${query.direction ?? 'older'} ${query.cursor ?? -1}`,
    );
    const lines = this.logs.get(task.file_path) ?? [];
    const limit = query.limit ?? 1000;
    const cursor = query.cursor ?? -1;
    let start: number;
    let end: number;
    if (query.direction === 'newer') {
      start = cursor;
      end = Math.min(lines.length, start + limit);
    } else {
      end = cursor < 0 ? lines.length : cursor;
      start = Math.max(0, end - limit);
    }
    return {
      logs: lines.slice(start, end),
      older_cursor: start,
      newer_cursor: end,
      has_more_older: start > 0,
      has_more_newer: end < lines.length,
    };
  }

  async syncNow(project: string, id: number): Promise<string> {
    this.enter(`syncNow ${project} ${id}`);
    if (!this.find(id).activate)
      throw new ManagementError(
        'server',
        'failed to trigger sync: job is paused, please unpause to run sync',
        500,
      );
    // The real server starts a run unless one is running (overlap policy SKIP).
    const runs = this.tasks.get(id) ?? [];
    if (!runs.some((t) => t.status === 'Running'))
      this.tasks.set(id, [
        makeTask(runs.length + 100, { status: 'Running', file_path: `sync-now-${id}-${runs.length}` }),
        ...runs,
      ]);
    return `sync triggered successfully for job_id[${id}]`;
  }

  async setActive(project: string, id: number, active: boolean): Promise<string> {
    this.enter(`setActive ${project} ${id} ${active}`);
    this.find(id).activate = active;
    return `job ${id} ${active ? 'resumed' : 'paused'} successfully`;
  }

  async cancelRun(project: string, id: number): Promise<string> {
    this.enter(`cancelRun ${project} ${id}`);
    this.find(id);
    return `job workflow cancel requested successfully for job_id[${id}]`;
  }
}

type Rendered = ReturnType<typeof render>;

let stdoutPrototype: object | undefined;

/** ink-testing-library's stdout is 100 columns with no rows; tests set both through its prototype. */
function terminal(columns: number, rows: number): void {
  if (!stdoutPrototype) {
    let probe!: Rendered;
    act(() => {
      probe = render(<Text />);
    });
    stdoutPrototype = Object.getPrototypeOf(probe.stdout) as object;
    act(() => probe.unmount());
  }
  Object.defineProperty(stdoutPrototype, 'columns', { get: () => columns, configurable: true });
  Object.defineProperty(stdoutPrototype, 'rows', { get: () => rows, configurable: true });
}

export interface Mounted {
  r: Rendered;
  exits: number[];
  /** The current frame without colours. */
  frame(): string;
  /** Every frame so far without colours. */
  frames(): string[];
  press(...keys: string[]): Promise<void>;
  /** Writes every chunk before React renders again, as keys typed ahead or a fast paste arrive. */
  typeAhead(...chunks: string[]): Promise<void>;
  /** Changes the terminal size and sends the resize event. */
  resize(columns: number, rows: number): Promise<void>;
  settle(): Promise<void>;
}

/** Lets pending promise callbacks (resolved fake API calls) run and re-render. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 3; round++)
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
    });
}

export async function mount(
  props: Partial<JobsBrowserProps> & Pick<JobsBrowserProps, 'api'>,
  size: { columns?: number; rows?: number } = {},
): Promise<Mounted> {
  terminal(size.columns ?? 100, size.rows ?? 24);
  const exits: number[] = [];
  let r!: Rendered;
  await act(async () => {
    r = render(
      <JobsBrowser
        project="1"
        refreshMs={0}
        tickMs={0}
        now={() => NOW}
        relogin={async () => undefined}
        onExit={(code) => exits.push(code)}
        {...props}
      />,
    );
  });
  const mounted: Mounted = {
    r,
    exits,
    frame: () => stripVTControlCharacters(r.lastFrame() ?? ''),
    frames: () => r.frames.map((frame) => stripVTControlCharacters(frame)),
    async press(...keys) {
      for (const key of keys)
        await act(async () => {
          r.stdin.write(key);
        });
      await settle();
    },
    async typeAhead(...chunks) {
      await act(async () => {
        for (const chunk of chunks) r.stdin.write(chunk);
      });
      await settle();
    },
    async resize(columns, rows) {
      terminal(columns, rows);
      await act(async () => {
        r.stdout.emit('resize');
      });
      await settle();
    },
    settle,
  };
  await settle();
  return mounted;
}

export function unmountAll(): void {
  act(() => cleanup());
}

export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  ctrlC: '\u0003',
  backspace: '\u007F',
};

/** Lines of the frame that show a job row (job-00001 …). */
export function jobRows(frame: string): string[] {
  return frame.split('\n').filter((line) => /^[› ] job-\d{5}/.test(line));
}

/** The row with the selection marker. */
export function selectedRow(frame: string): string | undefined {
  return frame.split('\n').find((line) => line.startsWith('›'));
}
