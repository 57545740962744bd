// Issue 28, item 2: `floe sandbox` of each catalog flavour, started as the built CLI (a child process),
// then every artifact (test/artifact/targets.ts: the built CLI, the npm package on each Node, the single
// file) pointed at it with the `floe setup` line the sandbox printed, and `floe test --write` passing,
// the write check included.
// One sandbox per flavour, on stable ports (--ports), shared by the artifacts. Never imports src/.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWithService } from '../support/services.js';
import {
  expectOnlyFloeOutput,
  floe,
  freePortBase,
  type RunningSandbox,
  startSandboxProcess,
  tempDir,
  userEnv,
} from './support.js';
import { BUILT_CLI, commandOf, targets, unavailable } from './targets.js';

/** The flavours `floe sandbox --help` offers (the built CLI's own list). */
function flavours(): string[] {
  const help = spawnSync(process.execPath, [BUILT_CLI, 'sandbox', '--help'], { encoding: 'utf8' }).stdout;
  const list = /--catalog FLAVOUR\n.*\n\s+(.+)\n/.exec(help)?.[1];
  if (!list) throw new Error(`floe sandbox --help lists no flavours:\n${help}`);
  return list.split(', ').map((f) => f.trim());
}

const FLAVOURS = flavours();
const TARGETS = targets();

it('the sandbox offers the flavours this suite runs', () => {
  expect(FLAVOURS).toEqual([
    'rest',
    'polaris',
    'lakekeeper',
    'nessie',
    'unity',
    'glue',
    's3tables',
    'biglake',
  ]);
});

describe.each(FLAVOURS)('floe sandbox --catalog %s', { timeout: 240_000 }, (flavour) => {
  let sandbox: RunningSandbox;
  let base: number;
  beforeAll(async () => {
    base = await freePortBase();
    // --no-tables: the write check needs no demo tables, and writing them costs each sandbox about 10
    // CPU-seconds (the demo test keeps them, as users start it).
    sandbox = await startSandboxProcess(
      [process.execPath, BUILT_CLI],
      ['--catalog', flavour, '--ports', String(base), '--jobs', '2', '--no-tables'],
    );
  }, 90_000);
  afterAll(async () => {
    if (!sandbox) return;
    expect(await sandbox.stop()).toBe(130);
    expectOnlyFloeOutput(sandbox.stderr(), 'the sandbox');
  });

  it('is on the ports --ports asked for, and writes no demo tables (--no-tables)', () => {
    expect(sandbox.stdout()).toContain('Object store');
    expect(sandbox.stdout()).not.toMatch(/^Tables /m);
    expect(sandbox.printed.catalogUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${base}/`));
    expect(sandbox.printed.olakeUrl).toBe(`http://127.0.0.1:${base + 1}`);
    expect(sandbox.printed.s3Url).toBe(`http://127.0.0.1:${base + 2}`);
  });

  for (const target of TARGETS)
    itWithService(unavailable(target) ?? 'ready', target.name)(
      `${target.name}: the printed setup line, then test --write passes`,
      async () => {
        const command = await commandOf(target);
        const config = tempDir('floe-artifact-config-');
        const setup = await floe(
          command,
          ['setup', ...sandbox.printed.setup],
          userEnv({ FLOE_CONFIG_DIR: config, ...sandbox.printed.exported, ...sandbox.printed.env }),
        );
        expect(setup.code, setup.stderr).toBe(0);
        expectOnlyFloeOutput(setup.stdout + setup.stderr, 'setup');
        const test = await floe(
          command,
          ['test', '--write', '--json', '--profile', 'sandbox'],
          userEnv({ FLOE_CONFIG_DIR: config, ...sandbox.printed.exported }),
        );
        expectOnlyFloeOutput(test.stderr, 'test --write');
        const report = JSON.parse(test.stdout) as {
          ok: boolean;
          steps: { id: string; chain: string; state: string; detail?: string }[];
        };
        const failed = report.steps.filter((step) => step.state === 'failed' || step.state === 'cancelled');
        expect(failed, test.stdout).toEqual([]);
        expect(report.ok).toBe(true);
        expect(test.code).toBe(0);
        const write = report.steps.filter((step) => step.chain === 'write');
        expect(write.map((step) => step.state)).toEqual(Array(write.length).fill('ok'));
        expect(write.length).toBeGreaterThanOrEqual(6);
      },
    );
});
