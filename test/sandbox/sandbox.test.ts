// startSandbox on free ports, driven by floe as a user would: a profile made with the printed `floe setup`
// line passes every step of `floe test`, for each auth type the catalog takes; `floe login` + `floe jobs
// --json` see the seeded jobs. Then busy ports and stop(). floe runs in process (management/support.ts),
// but the printed lines run as printed: sh with the built CLI (npm run build) on PATH.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { noKeychain, sandboxSecretEnv, setupArgs, usageLines } from '../../src/sandbox/demo.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { floe, tempConfigDir } from '../management/support.js';
import { BIN } from '../support/cli.js';

/** The sandbox's own secrets must still be redacted from floe's output. */
const CLIENT_SECRET = SANDBOX.oauth.clientSecret;

let sandbox: Sandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 50 });
  configDir = tempConfigDir();
});

afterAll(async () => {
  await sandbox.stop();
});

function listen(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** `args` without the given flags and their values. */
function without(args: string[], ...flags: string[]): string[] {
  return args.filter((arg, i) => !flags.includes(arg) && !flags.includes(args[i - 1] ?? ''));
}

async function testProfile(profile: string, env: Record<string, string>) {
  const run = await floe(['test', '--json', '--profile', profile], { configDir, env });
  const report = checkReportSchema.parse(JSON.parse(run.stdout));
  return { run, report };
}

/** Runs `printed` (lines as floe prints them) in sh, with `floe` on PATH running the built CLI and no D-Bus. */
function runPrinted(printed: string, dir: string): { status: number | null; output: string } {
  const bin = mkdtempSync(join(tmpdir(), 'floe-bin-'));
  writeFileSync(join(bin, 'floe'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'floe'), 0o755);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const run = spawnSync('sh', ['-c', printed], {
    env: { ...env, PATH: `${bin}:${env.PATH}`, FLOE_CONFIG_DIR: dir, CI: 'true' },
    encoding: 'utf8',
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

// Issue 19, item 9: the lines floe prints to paste run as printed, also on a host without a keychain.
describe('the printed lines run as printed without a keychain', () => {
  it("the sandbox's setup line", () => {
    expect(noKeychain({}, 'linux')).toBe(true);
    expect(noKeychain({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' }, 'linux')).toBe(false);
    const lines = usageLines(sandbox, 'floe', false).split('\n');
    const end = lines.findIndex((line, i) => i > 1 && !line.endsWith('\\'));
    const printed = lines.slice(1, end + 1).join('\n');
    expect(printed).toContain('--insecure-storage');
    const dir = tempConfigDir();
    const run = runPrinted(printed, dir);
    expect(run.status, run.output).toBe(0);
    expect(usageLines(sandbox, 'floe', false)).toMatch(/floe login --url \S+ --insecure-storage/);
  });
});

describe('floe against the sandbox', () => {
  it('a profile made with the printed setup line passes every catalog and storage step', async () => {
    const env = sandboxSecretEnv(sandbox);
    const setup = await floe(['setup', ...setupArgs(sandbox), '--insecure-storage'], { configDir, env });
    expect(setup.code, setup.stderr).toBe(0);

    const { run, report } = await testProfile('sandbox', {});
    expect(run.code, run.stderr).toBe(0);
    expect(report.ok).toBe(true);
    const chains = new Set(report.steps.map((s) => s.chain));
    expect(chains).toEqual(new Set(['catalog', 'storage']));
    for (const step of report.steps) expect(step.state, `${step.id}: ${step.detail ?? ''}`).toBe('ok');
    expect(report.steps.some((s) => s.id === 'catalog.token')).toBe(true);
    expect(report.steps.some((s) => s.id === 'storage.put')).toBe(true);
    expect(run.stdout + run.stderr).not.toContain(CLIENT_SECRET);
  });

  it('the bearer token, SigV4 (with the storage keys) and the Google key file are accepted too', async () => {
    const common = without(setupArgs(sandbox), '--profile', '--auth-type', '--oauth2-uri', '--scope');
    const storageEnv = { FLOE_ACCESS_KEY: sandbox.s3.accessKey, FLOE_SECRET_KEY: sandbox.s3.secretKey };
    const keyFile = sandbox.catalog.serviceAccountFile;
    expect(keyFile).toBeTypeOf('string');
    const cases = [
      { name: 'bearer', args: ['--auth-type', 'token'], env: { ...storageEnv, FLOE_TOKEN: SANDBOX.token } },
      {
        name: 'sigv4',
        args: ['--auth-type', 'sigv4', '--signing-name', SANDBOX.sigv4.signingName],
        env: storageEnv,
      },
      {
        name: 'google',
        args: ['--auth-type', 'google', '--gcp-service-account-file', String(keyFile)],
        env: storageEnv,
      },
    ];
    for (const { name, args, env } of cases) {
      const extra = name === 'sigv4' ? ['--signing-region', SANDBOX.sigv4.region] : [];
      const setup = await floe(
        ['setup', ...common, '--profile', name, ...args, ...extra, '--insecure-storage'],
        {
          configDir,
          env,
        },
      );
      expect(setup.code, setup.stderr).toBe(0);
      const { run, report } = await testProfile(name, {});
      expect(run.code, `${name}: ${run.stdout}`).toBe(0);
      expect(report.ok).toBe(true);
      const states = new Map(report.steps.map((step) => [step.id, step.state]));
      expect([...states.values()].every((state) => state === 'ok' || state === 'skipped')).toBe(true);
      expect(states.get('catalog.namespaces'), name).toBe('ok');
      expect(states.get('catalog.token'), name).toBe(name === 'google' ? 'ok' : 'skipped');
    }
    expect(sandbox.catalog.sigv4.requests.length).toBeGreaterThan(0);
    expect(sandbox.catalog.bearer.requests.some((r) => r.url === '/token')).toBe(true);
  });

  it('a wrong OAuth2 secret is refused, so the passing test is not vacuous', async () => {
    const { run, report } = await testProfile('sandbox', {
      FLOE_CREDENTIAL: `${SANDBOX.oauth.clientId}:wrong`,
    });
    expect(run.code).toBe(1);
    expect(report.steps.find((s) => s.id === 'catalog.token')?.state).toBe('failed');
  });

  it('floe login and floe jobs --json list the seeded jobs', async () => {
    const login = await floe(
      ['login', '--url', sandbox.olake.url, '--password-stdin', '--insecure-storage'],
      { configDir, input: SANDBOX.olake.password },
    );
    expect(login.code, login.stderr).toBe(0);
    const jobs = await floe(['jobs', '--json'], { configDir });
    expect(jobs.code, jobs.stderr).toBe(0);
    const list = JSON.parse(jobs.stdout) as { id: number; name: string }[];
    expect(list).toHaveLength(50);
    expect(new Set(list.map((j) => j.id)).size).toBe(50);
  });
});

describe('ports and stop()', () => {
  it('moves a service off a busy port, says so, and serves there', async () => {
    const blocker = await listen(0);
    const busy = (blocker.address() as { port: number }).port;
    const moved = await startSandbox({ ports: { catalog: busy, olake: 0, s3: 0 }, jobs: 3 });
    try {
      expect(moved.catalog.port).not.toBe(busy);
      expect(moved.notices).toContain(`${busy} is busy; the catalog is on ${moved.catalog.port}`);
      const res = await fetch(`${moved.catalog.url}/v1/config`, {
        headers: { authorization: `Bearer ${SANDBOX.token}` },
        signal: AbortSignal.timeout(5000),
      });
      expect(res.status).toBe(200);
    } finally {
      await moved.stop();
      await close(blocker);
    }
  });

  it('a busy object-store port is announced too', async () => {
    const blocker = await listen(0);
    const busy = (blocker.address() as { port: number }).port;
    const moved = await startSandbox({ ports: { catalog: 0, olake: 0, s3: busy }, jobs: 1 });
    try {
      expect(moved.s3.port).not.toBe(busy);
      expect(moved.notices).toEqual([`${busy} is busy; the object store is on ${moved.s3.port}`]);
    } finally {
      await moved.stop();
      await close(blocker);
    }
  });

  it('stop() removes the data directory and frees every port; a second stop() is harmless', async () => {
    const started = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 1 });
    const dir = started.directory;
    expect(existsSync(dir)).toBe(true);
    const ports = [
      started.catalog.port,
      started.catalog.bearer.port,
      started.catalog.sigv4.port,
      started.s3.port,
      started.olake.port,
    ];
    for (const port of ports) await expect(listen(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await started.stop();
    await started.stop();
    expect(existsSync(dir)).toBe(false);
    for (const port of ports) await close(await listen(port));
  });
});
