// `floe setup` without a terminal, then `floe test --json`, run in process against the sandbox's
// emulators started in this process: the same Options and Io path as `floe setup …; floe test …`,
// and setup's own test runs with Options (no argv).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as setup from '../../src/commands/setup.js';
import * as test from '../../src/commands/test.js';
import { UsageError } from '../../src/errors.js';
import { PROFILE, sandboxSecretEnv, setupArgs } from '../../src/sandbox/demo.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { testIo } from '../support/io.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 1 });
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('floe setup and floe test, in process', () => {
  it('setup --yes saves the profile; test --json passes against the emulators', async () => {
    const io = testIo({ env: sandboxSecretEnv(sandbox) });
    expect(await setup.run(setup.parse(setupArgs(sandbox)), io)).toBe(0);
    expect(io.stderr()).toMatch(
      new RegExp(
        `^Saved profile "${PROFILE}" \\(authentication: [^;]+; secrets in the OS keychain\\)\\. Next: .+ test --profile ${PROFILE}\\n$`,
      ),
    );
    expect([...io.keychain.keys()].some((account) => account.includes(`${PROFILE}/`))).toBe(true);

    const code = await test.run(test.parse(['--profile', PROFILE, '--json', '--read-only']), io);
    const report = JSON.parse(io.stdout());
    expect(report.ok, io.stdout()).toBe(true);
    expect(code).toBe(0);
    expect(report.steps.length).toBeGreaterThan(3);
  });

  it('test --json: a profile that does not exist still gives one JSON document', async () => {
    const io = testIo();
    await expect(test.run(test.parse(['--profile', 'nope', '--json']), io)).rejects.toThrow(
      'Profile "nope" does not exist.',
    );
    expect(JSON.parse(io.stdout())).toMatchObject({ ok: false, steps: [], error: { kind: 'not-run' } });
  });

  it('test: argv parse refuses still gives the JSON document with --json (refused)', () => {
    const io = testIo();
    const argv = ['--json', '--keep'];
    let error: unknown;
    try {
      test.parse(argv);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    test.refused(argv, error as UsageError, io);
    expect(JSON.parse(io.stdout()).error).toEqual({
      kind: 'usage',
      message: '--keep goes with --write, e.g. floe test --write --keep',
    });
  });

  it('setup: parse refuses the storage flags together, naming both', () => {
    expect(() => setup.parse(['--insecure-storage', '--env-secrets'])).toThrow(
      '--insecure-storage and --env-secrets exclude each other',
    );
  });

  it('setup without --yes and without a terminal names the missing flags', async () => {
    const io = testIo();
    await expect(setup.run(setup.parse(['--profile', 'p']), io)).rejects.toThrow(
      /no terminal to prompt on: pass the flags above/,
    );
  });
});
