// t in the jobs browser when the server's copy of the destination lacks secrets and no local profile of
// the same catalog has them: the browser asks for each in a masked field, runs the connection test with
// what was typed (against the sandbox), gives the same diagnosis as floe test for a wrong one, Esc
// cancels, and no frame ever holds a secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.js';
import { localProfiles } from '../../src/app/profiles.js';
import { runCheck } from '../../src/check/run.js';
import { fileJournal } from '../../src/config/journal.js';
import { parseWriter, valuesFor } from '../../src/management/jobtest.js';
import { prepareJobTest } from '../../src/management/jobtest-prepare.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { FakeApi, KEY, type Mounted, makeJob, mount, unmountAll } from '../ui/jobs/support.js';

let sandbox: Sandbox;
let configDir: string;
const previousConfigDir = process.env.FLOE_CONFIG_DIR;
const CREDENTIAL = `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`;
const WRONG = `${SANDBOX.oauth.clientId}:not-the-secret`;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 2 });
  // An empty floe config: no local profile can supply the secrets.
  configDir = mkdtempSync(join(tmpdir(), 'floe-browser-test-'));
  process.env.FLOE_CONFIG_DIR = configDir;
});
afterAll(async () => {
  if (previousConfigDir === undefined) delete process.env.FLOE_CONFIG_DIR;
  else process.env.FLOE_CONFIG_DIR = previousConfigDir;
  rmSync(configDir, { recursive: true, force: true });
  await sandbox.stop();
});
afterEach(() => unmountAll());

/** The sandbox's seeded destination config with its secrets masked or emptied, as the OLake UI may send it. */
function hiddenConfig(): string {
  const config = JSON.parse(sandbox.olake.emulator.jobs[0]?.destination.config ?? '{}');
  return JSON.stringify({
    ...config,
    writer: { ...config.writer, credential: '********', aws_secret_key: '' },
  });
}

async function openJob(): Promise<Mounted> {
  const api = new FakeApi([
    makeJob(1, {
      name: 'orders_to_lake',
      destination: {
        id: 1,
        name: 'iceberg-rest',
        type: 'iceberg',
        version: 'v0.9.4',
        config: hiddenConfig(),
      },
    }),
  ]);
  const m = await mount(
    {
      api,
      prepareTest: async (job, typed) => {
        const ctx = await openContext();
        const sources = { profiles: localProfiles(ctx), journal: fileJournal(ctx.config.dir) };
        return prepareJobTest(job, { ...sources, typed, collect: true });
      },
    },
    { columns: 80, rows: 24 },
  );
  await m.press(KEY.enter);
  return m;
}

async function until(m: Mounted, text: string) {
  for (let i = 0; i < 600 && !m.frame().includes(text); i++)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 25));
    });
  expect(m.frame()).toContain(text);
}

function noSecretIn(m: Mounted) {
  for (const frame of m.frames()) {
    expect(frame).not.toContain(SANDBOX.oauth.clientSecret);
    expect(frame).not.toContain('not-the-secret');
    expect(frame).not.toContain(sandbox.s3.secretKey);
  }
}

describe('t in the jobs browser, with secrets to type', () => {
  it('asks for each missing secret, masked, then runs the test, which passes', async () => {
    const m = await openJob();
    await m.press('t');
    await until(m, 'REST Credential:');
    expect(m.frame()).toContain('Secret 1 of 2');
    expect(m.frame()).toContain('Enter next secret');
    expect(m.frame()).toContain('Esc cancel');
    for (const line of m.frame().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(m.frame().split('\n').length).toBeLessThanOrEqual(24);
    await m.press(...CREDENTIAL.slice(0, 4));
    expect(m.frame()).toContain('REST Credential: ****');
    await m.press(`${CREDENTIAL.slice(4)}\r`);
    expect(m.frame()).toContain('Secret 2 of 2');
    expect(m.frame()).toContain('Secret Key:');
    expect(m.frame()).toContain('Enter run the test');
    await m.press(`${sandbox.s3.secretKey}\r`);
    await until(m, 'Esc/q back');
    expect(m.frame()).toContain('job 1 · iceberg-rest');
    expect(m.frame()).toContain('All checks passed');
    await m.press(KEY.escape);
    expect(m.frame()).toContain('orders_to_lake #1');
    expect(m.frame()).toContain('credential: taken from what you typed.');
    noSecretIn(m);
  });

  it('takes both secrets and both Enters from one burst', async () => {
    const m = await openJob();
    await m.press('t');
    await until(m, 'REST Credential:');
    await m.typeAhead(`${CREDENTIAL}\r${sandbox.s3.secretKey}\r`);
    await until(m, 'Esc/q back');
    expect(m.frame()).toContain('All checks passed');
    noSecretIn(m);
  });

  it('gives the same diagnosis as floe test for a wrong typed secret', async () => {
    const values = valuesFor(parseWriter(hiddenConfig()), {
      credential: WRONG,
      aws_secret_key: sandbox.s3.secretKey,
    });
    // What floe test runs on these values.
    const report = await runCheck(values, { timeoutMs: 10_000 });
    const codes = report.diagnoses.map((d) => d.code);
    expect(codes.length).toBeGreaterThan(0);
    const m = await openJob();
    await m.press('t');
    await until(m, 'REST Credential:');
    await m.press(`${WRONG}\r${sandbox.s3.secretKey}\r`);
    await until(m, 'Esc/q back');
    for (const code of codes) expect(m.frame()).toContain(`✗ ${code}`);
    noSecretIn(m);
  });

  it('Esc cancels back to the job detail, and t asks afresh', async () => {
    const m = await openJob();
    await m.press('t');
    await until(m, 'REST Credential:');
    await m.press('abc', KEY.escape);
    expect(m.frame()).toContain('orders_to_lake #1');
    expect(m.frame()).toContain('Test cancelled');
    expect(m.frame()).not.toContain('REST Credential:');
    await m.press('t');
    await until(m, 'REST Credential:');
    expect(m.frame()).toMatch(/REST Credential:$/m);
    expect(m.frame()).toContain('Secret 1 of 2');
  });
});
