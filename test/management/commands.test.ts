// floe login (file storage), jobs actions, fault messages and push, run in process (support.ts floe):
// nothing here needs a process of its own, and no Secret Service answers.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import type { Values } from '../../src/destination/fields.js';
import { toDestinationJson } from '../../src/destination/olake.js';
import { validate } from '../../src/destination/schema.js';
import { type CatalogEmulator, startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import {
  type ConnectionCheck,
  type OlakeUiEmulator,
  seedJobs,
  startOlakeUiEmulator,
} from '../../src/sandbox/olake-ui/index.js';
import { type S3Server, startS3Server } from '../../src/sandbox/s3.js';
import { loginAccounts } from '../support/stored.js';
import { floe, leaks, type Run, tempConfigDir } from './support.js';

const PASSWORD = 'pw-File-5521';
const TOKEN = 'tok-Catalog-Secret-0042';

let ui: OlakeUiEmulator;
let catalog: CatalogEmulator;
let catalogUrl: string;
let s3: S3Server;
let s3Directory: string;
let configDir: string;
let check: ((config: unknown) => Promise<ConnectionCheck>) | undefined;
const runs: Run[] = [];

async function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = await floe(args, {
    configDir,
    ...options,
    keychain: 'unavailable',
    env: {
      FLOE_TOKEN: TOKEN,
      FLOE_ACCESS_KEY: s3.accessKey,
      FLOE_SECRET_KEY: s3.secretKey,
      ...options.env,
    },
  });
  runs.push(result);
  return result;
}

function profile(url: string): Values {
  return {
    preset: 'rest',
    authType: 'token',
    storage: 's3-compatible',
    targetVersion: 'latest',
    fields: {
      catalogUrl: url,
      warehouse: 's3://warehouse/lake',
      region: 'us-east-1',
      s3Endpoint: s3.url,
      token: TOKEN,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
    },
  };
}

beforeAll(async () => {
  // OLake's check (the emulator's stand-in) creates test_olake.test_olake and writes a record there.
  s3Directory = mkdtempSync(join(tmpdir(), 'floe-push-s3-'));
  s3 = await startS3Server({ port: 0, bucket: 'warehouse', directory: s3Directory });
  catalog = await startCatalogEmulator({
    basePath: '/catalog',
    auth: 'bearer',
    tokens: [TOKEN],
    objectStore: {
      endpoint: s3.url,
      region: 'us-east-1',
      accessKeyId: s3.accessKey,
      secretAccessKey: s3.secretKey,
    },
  });
  catalogUrl = catalog.url;
  ui = await startOlakeUiEmulator({
    jobs: seedJobs(12, 5),
    users: { admin: PASSWORD },
    // A started run must still run when "cancel" comes, however slowly the CLI runs start.
    runDurationMs: 120_000,
    versions: ['v0.9.3', 'v0.10.1', 'v0.9.4'],
    checkDestination: (config) =>
      check
        ? check(config)
        : import('../../src/sandbox/olake-ui/index.js').then((m) => m.checkIcebergConfig(config)),
  });
  configDir = tempConfigDir();
  const store = new ConfigStore(configDir);
  for (const [name, url] of [
    ['lake', catalogUrl],
    ['broken', `${catalogUrl}-missing`],
  ] as const) {
    const values = profile(url);
    expect(validate(values).ok).toBe(true);
    store.saveProfile(name, values, 'env', ['token', 'accessKey', 'secretKey']);
  }
});

afterAll(async () => {
  await ui.close();
  await catalog.close();
  await s3.close();
  rmSync(s3Directory, { recursive: true, force: true });
});

describe('login without a usable keychain', () => {
  it('fails non-interactively naming --insecure-storage, then stores in the file with it', async () => {
    const refused = await run(['login', '--url', ui.url, '--password-stdin'], { input: PASSWORD });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The OS keychain cannot be used: .+/);
    expect(refused.stderr).toContain('--insecure-storage');

    const stored = await run(['login', '--url', ui.url, '--password-stdin', '--insecure-storage'], {
      input: PASSWORD,
    });
    expect(stored.code).toBe(0);
    expect(stored.stderr).toContain('stored in plain text');
    const secrets = JSON.parse(readFileSync(join(configDir, 'secrets.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(secrets)).toEqual([loginAccounts(configDir).session]);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.management.secretStorage).toBe('file');

    const status = await run(['login', '--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Session stored in the file ${join(configDir, 'secrets.json')}`);
  });

  it('rejects a wrong password with exit 1 and asks for one without a terminal', async () => {
    const wrong = await run(['login', '--password-stdin'], { input: 'nope' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Invalid credentials');
    const none = await run(['login']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--password-stdin');
  });
});

describe('floe jobs', () => {
  it('prints a table without a terminal, and JSON without config strings', async () => {
    const table = await run(['jobs']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+SCHEDULE\s+FREQUENCY\s+LAST RUN$/);
    expect(table.stdout).toContain('never ran');
    expect(table.stdout).toContain('‖ paused');
    const json = await run(['jobs', '--json', '--project', '123']);
    const jobs = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(jobs).toHaveLength(12);
    expect(json.stdout).not.toContain('"config"');
    expect(JSON.parse((await run(['jobs', '--json', '--project', '77'])).stdout)).toEqual([]);
  });

  it('pauses, refuses to sync a paused job as the server says, resumes, syncs and cancels', async () => {
    const job = ui.jobs.find((j) => j.activate && j.tasks[0]?.status !== 'Running');
    if (!job) throw new Error('no idle job');
    const id = String(job.id);
    expect((await run(['jobs', 'pause', id])).stdout).toBe(
      `✓ Paused the schedule of job ${id}\n  the OLake UI said: job ${id} paused successfully\n`,
    );
    const sync = await run(['jobs', 'sync', id]);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain('failed to trigger sync: job is paused, please unpause to run sync');
    expect(sync.stderr).toContain(`floe jobs resume ${id}`);
    expect((await run(['jobs', 'resume', id])).code).toBe(0);
    expect((await run(['jobs', 'sync', id])).stdout).toMatch(
      new RegExp(`^✓ Sync started: run sync-123-${id}-`),
    );
    const again = await run(['jobs', 'sync', id]);
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining('Sync skipped: a run is in progress'),
    ]);
    const cancel = await run(['jobs', 'cancel', id]);
    expect(cancel.stdout).toContain('cancel requested successfully');
    expect([...ui.requests].reverse().find((r) => r.path.endsWith('/cancel'))?.method).toBe('GET');
    expect(job.tasks[0]?.status).toBe('Canceled');
  });

  it('prints the log of the latest run, or of the run asked for', async () => {
    const job = ui.jobs.find((j) => j.tasks.length > 1);
    if (!job) throw new Error('no job with two runs');
    const latest = await run(['jobs', 'logs', String(job.id)]);
    expect(latest.code).toBe(0);
    const expected = (job.tasks[0]?.logs ?? []).filter((l) => l.level !== 'debug');
    expect(latest.stdout.trim().split('\n')).toHaveLength(expected.length);
    expect(latest.stdout).toContain(expected.at(-1)?.message);
    expect(latest.stdout).not.toContain('DEBUG');
    const second = await run(['jobs', 'logs', String(job.id), '--task', '2', '--limit', '1']);
    expect(second.stdout).toContain(job.tasks[1]?.logs.filter((l) => l.level !== 'debug').at(-1)?.message);
    expect(second.stderr).toContain('older lines not shown');
    const byPath = await run([
      'jobs',
      'logs',
      String(job.id),
      '--task',
      job.tasks[1]?.file_path ?? '',
      '--json',
    ]);
    expect(JSON.parse(byPath.stdout).task.file_path).toBe(job.tasks[1]?.file_path);
    expect([...ui.requests].reverse().find((r) => r.path.endsWith('/logs'))?.method).toBe('POST');
    const never = ui.jobs.find((j) => j.tasks.length === 0);
    const none = await run(['jobs', 'logs', String(never?.id)]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has never run');
    const tasks = await run(['jobs', 'tasks', String(job.id)]);
    expect(tasks.stdout.split('\n')[1]).toContain(job.tasks[0]?.file_path);
  });

  it('exits 2 on usage errors and 1 on an unknown job', async () => {
    expect((await run(['jobs', 'sync'])).code).toBe(2);
    // Not a number: a name, and no job has it.
    expect((await run(['jobs', 'sync', 'x1'])).code).toBe(1);
    expect((await run(['jobs', 'frobnicate', '1'])).code).toBe(2);
    const missing = await run(['jobs', 'pause', '999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Not found: failed to get job: job not found');
  });

  const faults = [
    [{ kind: 'status500' }, /The OLake UI failed \(HTTP 500\): failed to list jobs: pq: connection refused/],
    [{ kind: 'html502' }, /answered HTTP 502 with an HTML page instead of the OLake UI's JSON/],
    [{ kind: 'malformed-json' }, /answered HTTP 200 with text that is not JSON/],
    [{ kind: 'huge-body' }, /sent more than 8 MiB .* floe stopped reading/],
    [{ kind: 'redirect' }, /answered with a redirect \(HTTP 302/],
  ] as const;
  for (const [fault, message] of faults)
    it(`explains the ${fault.kind} fault`, async () => {
      ui.setFault(fault, { path: /^\/api\// });
      try {
        const result = await run(['jobs', '--json']);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toMatch(/\n\s+at |unexpected error/);
      } finally {
        ui.setFault(undefined);
      }
    });

  it('exits 4 when the session expired and no password is at hand', async () => {
    ui.expireSessions();
    const expired = await run(['jobs', 'tasks', '1']);
    expect(expired.code).toBe(4);
    const renewed = await run(['jobs', 'tasks', '1'], { env: { FLOE_PASSWORD: PASSWORD } });
    expect(renewed.code).toBe(0);
  });
});

describe('floe push', () => {
  it('tests, then creates the destination with config as a JSON string, on the newest version', async () => {
    const result = await run(['push', '--profile', 'lake', '--name', 'lake-rest']);
    expect(result.stderr).toContain('iceberg v0.10.1');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ Connection test SUCCEEDED');
    expect(result.stdout).toContain('✓ destination lake-rest created successfully');
    const paths = ui.requests
      .filter((r) => r.path.includes('/destinations'))
      .map((r) => `${r.method} ${r.path}`);
    expect(paths.slice(-3)).toEqual([
      'GET /api/v1/project/123/destinations/versions',
      'POST /api/v1/project/123/destinations/test',
      'POST /api/v1/project/123/destinations',
    ]);
    const created = ui.destinations.find((d) => d.name === 'lake-rest');
    expect(created?.version).toBe('v0.10.1');
    expect(JSON.parse(created?.config ?? '')).toEqual(toDestinationJson(profile(catalogUrl)));
  });

  it('does not create when the test FAILED, unless --force', async () => {
    const failed = await run(['push', '--profile', 'broken', '--version', 'v0.9.4']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('✗ Connection test FAILED');
    expect(failed.stdout).toContain('org.apache.iceberg.exceptions');
    expect(failed.stderr).toContain('was not created because the connection test failed');
    expect(ui.destinations.some((d) => d.name === 'broken')).toBe(false);
    const forced = await run(['push', '--profile', 'broken', '--force']);
    expect(forced.code).toBe(0);
    expect(ui.destinations.some((d) => d.name === 'broken')).toBe(true);
  });

  it('explains a duplicate name, from check-unique or from create', async () => {
    const taken = await run(['push', '--profile', 'lake', '--name', 'lake-rest']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('A destination named "lake-rest" already exists in project 123');
    expect(taken.stderr).toContain('--name NAME');
    // Someone creates the same name while the test runs: create answers 500 "not unique".
    check = async () => {
      ui.destinations.push({
        ...(ui.destinations[0] as (typeof ui.destinations)[number]),
        id: 99,
        name: 'racy',
      });
      return { status: 'SUCCEEDED', message: '' };
    };
    try {
      const raced = await run(['push', '--profile', 'lake', '--name', 'racy']);
      expect(raced.code).toBe(1);
      expect(raced.stderr).toContain(
        "already exists in project 123 (the OLake UI said: failed to create destination: destination name 'racy' is not unique)",
      );
    } finally {
      check = undefined;
    }
  });

  it('printed no password, token or cookie', () => {
    const cookies = ui.requests.flatMap((r) => (r.cookie ? [r.cookie.replace('olake-session=', '')] : []));
    expect(cookies.length).toBeGreaterThan(0);
    for (const r of runs) expect(leaks(r, [PASSWORD, TOKEN, ...cookies])).toEqual([]);
  });
});
