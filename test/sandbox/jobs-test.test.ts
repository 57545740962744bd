// floe jobs test against the sandbox: a seeded job's destination (the sandbox catalog and s3rver)
// passes; a wrong secret in the server's copy gives the same diagnosis as `floe test` with that
// secret; a hidden secret comes from the local profile of the same catalog, never printed. floe runs in
// process (management/support.ts), with no Secret Service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSecretEnv, setupArgs } from '../../src/sandbox/demo.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { floe, tempConfigDir } from '../management/support.js';

const WRONG = `${SANDBOX.oauth.clientId}:not-the-secret`;
let sandbox: Sandbox;
let configDir: string;
const run = (args: string[], env: Record<string, string> = {}, input?: string) =>
  floe(args, { configDir, env, input, keychain: 'unavailable' });

function setWriter(jobId: number, change: Record<string, unknown>) {
  const job = sandbox.olake.emulator.jobs.find((j) => j.id === jobId);
  if (!job) throw new Error(`no job ${jobId}`);
  const config = JSON.parse(job.destination.config ?? '{}');
  job.destination.config = JSON.stringify({ ...config, writer: { ...config.writer, ...change } });
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 12 });
  configDir = tempConfigDir();
  const setup = await run(['setup', ...setupArgs(sandbox), '--insecure-storage'], sandboxSecretEnv(sandbox));
  expect(setup.code, setup.stderr).toBe(0);
  const login = await run(
    ['login', '--url', sandbox.olake.url, '--password-stdin', '--insecure-storage'],
    {},
    SANDBOX.olake.password,
  );
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => sandbox.stop());

const codes = (report: { diagnoses: { code: string }[] }) => report.diagnoses.map((d) => d.code).sort();

describe('floe jobs test', () => {
  it('passes on a seeded job, whose destination is the sandbox', async () => {
    const out = await run(['jobs', 'test', '1', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.report.ok).toBe(true);
    expect(result.profile).toBe('sandbox');
    expect(result.differences).toEqual([]);
    expect(out.stdout).not.toContain(SANDBOX.oauth.clientSecret);
    // Job 6's detail carries a streams_config of tens of thousands of streams (over 10 MB).
    const huge = await run(['jobs', 'test', '6', '--json']);
    expect(huge.code, huge.stderr).toBe(0);
    expect(JSON.parse(huge.stdout).report.ok).toBe(true);
  });

  it('gives the same diagnosis as floe test when the server holds a wrong secret', async () => {
    setWriter(2, { credential: WRONG });
    const job = await run(['jobs', 'test', '2', '--json']);
    expect(job.code).toBe(1);
    const result = JSON.parse(job.stdout);
    expect(result.differences).toEqual(['credential']);
    const local = await run(['test', '--profile', 'sandbox', '--json'], { FLOE_CREDENTIAL: WRONG });
    expect(local.code).toBe(1);
    expect(codes(result.report)).toEqual(codes(JSON.parse(local.stdout)));
    expect(codes(result.report).length).toBeGreaterThan(0);
    expect(job.stdout).not.toContain('not-the-secret');
  });

  it('takes a hidden secret from the profile of the same catalog, and says so without printing it', async () => {
    setWriter(3, { credential: '********', aws_secret_key: '' });
    const out = await run(['jobs', 'test', '3']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('credential: taken from profile "sandbox"');
    expect(out.stdout).toContain('aws_secret_key: taken from profile "sandbox"');
    expect(out.stdout).toContain('no other key differs');
    expect(out.stdout).not.toContain(SANDBOX.oauth.clientSecret);
    expect(out.stdout).not.toContain(sandbox.s3.secretKey);
  });

  it('never sends a local secret where the server’s copy points it elsewhere: it says so and asks instead', async () => {
    // The server's copy keeps the catalog URL but sends the OAuth2 secret and the S3 keys to other hosts.
    setWriter(5, {
      credential: '',
      aws_secret_key: '',
      oauth2_uri: 'http://127.0.0.1:9/steal-token',
      s3_endpoint: 'http://127.0.0.1:9',
    });
    const before = sandbox.catalog.bearer.requests.length;
    const out = await run(['jobs', 'test', '5', '--profile', 'sandbox']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('has no usable credential');
    expect(out.stderr).toMatch(
      /credential: not taken from profile "sandbox", which sends it to http:\/\/127\.0\.0\.1:\d+\S* \(oauth2_uri\), while the OLake UI's copy sends it to http:\/\/127\.0\.0\.1:9\/steal-token/,
    );
    expect(out.stdout).toBe('');
    // No test ran: the catalog saw no request from this run.
    expect(sandbox.catalog.bearer.requests.length).toBe(before);
  });

  it('refuses without a terminal when a hidden secret has no local source', async () => {
    setWriter(4, { credential: '', rest_catalog_url: 'http://127.0.0.1:1/elsewhere' });
    const out = await run(['jobs', 'test', '4']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('has no usable credential');
  });
});

describe('floe destinations and floe pull', () => {
  it('lists the destination with its jobs, and pulls it into a profile that passes floe test', async () => {
    // The seeded jobs write to destination 1, which the OLake UI lists as a record of its own.
    const job = sandbox.olake.emulator.jobs.find((j) => j.id === 5);
    const list = await run(['destinations']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      /^1 {2}iceberg-rest {2}\(iceberg v0\.9\.\d\) {2}catalog http:\/\/127\.0\.0\.1:\d+\/api\/catalog$/m,
    );
    expect(list.stdout).toContain(`    job 5 ${job?.name}`);
    expect(list.stdout).not.toContain(SANDBOX.oauth.clientSecret);
    const json = JSON.parse((await run(['destinations', '--json'])).stdout);
    expect(json[0].config.writer.credential).toBe('(set, hidden)');

    const pulled = await run(['pull', '1', '--profile', 'pulled', '--insecure-storage']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('Pulled destination 1 "iceberg-rest"');
    const again = await run(['pull', '1', '--profile', 'pulled']);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('already exists')]);
    const test = await run(['test', '--profile', 'pulled', '--json']);
    expect(test.code, test.stdout).toBe(0);
    expect((await run(['pull', 'x', '--profile', 'p'])).code).toBe(2);
  });
});
