// Issue 28, item 2: the main flows on every artifact (test/artifact/targets.ts: the built CLI, the npm
// package on each Node, the single file), against one `floe sandbox` started as the built CLI (a child
// process): setup from the printed line, login + jobs --json + sync + jobs logs --follow to the run's
// end, push (the OLake UI's own test writes to the sandbox's store) then destinations + pull, every
// export format, import of the export. Never imports src/.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Run } from '../support/cli.js';
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

let sandbox: RunningSandbox;

beforeAll(async () => {
  // --no-tables: these flows read no demo table (the demo test starts the sandbox as users do).
  sandbox = await startSandboxProcess(
    [process.execPath, BUILT_CLI],
    ['--ports', String(await freePortBase()), '--jobs', '5', '--verbose', '--no-tables'],
  );
}, 90_000);

afterAll(async () => {
  if (!sandbox) return;
  expect(await sandbox.stop()).toBe(130);
  // --verbose: every request on stderr, each with its status.
  expect(sandbox.stderr()).toMatch(
    / olake-ui POST \/api\/v1\/project\/123\/destinations\/test → 200 \(\d+ ms\)/,
  );
  expect(sandbox.stderr()).toMatch(/ s3 +PUT \/warehouse\/\S+ → 200 \(\d+ ms\)/);
  expectOnlyFloeOutput(sandbox.stderr(), 'the sandbox');
});

/** A run that succeeded and printed nothing but floe's own lines. */
function expectOk(run: Run, what: string): void {
  expect(run.code, `${what}\n${run.stdout}\n${run.stderr}`).toBe(0);
  expectOnlyFloeOutput(run.stdout + run.stderr, what);
}

/** The formats `floe export --help` lists, one a line under "Formats:". */
function exportFormats(help: string): string[] {
  const block = /^Formats:\n([\s\S]*?)\n\n/m.exec(help)?.[1];
  if (!block) throw new Error(`floe export --help lists no formats:\n${help}`);
  return [...block.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1] as string);
}

describe('the main flows', { timeout: 240_000 }, () => {
  for (const [n, target] of targets().entries())
    itWithService(unavailable(target) ?? 'ready', target.name)(
      `${target.name}: setup, login, jobs, sync and follow, push, pull, export, import`,
      async () => {
        const command = await commandOf(target);
        const config = tempDir('floe-artifact-flows-');
        const env = userEnv({ FLOE_CONFIG_DIR: config });
        const run = (args: string[], input = '', extra: Record<string, string> = {}) =>
          floe(command, args, { ...env, ...extra }, input);

        expectOk(await run(['setup', ...sandbox.printed.setup], '', sandbox.printed.env), 'setup');

        const login = await run(
          ['login', '--url', sandbox.printed.olakeUrl, '--password-stdin', '--insecure-storage'],
          'password\n',
        );
        expectOk(login, 'login');
        expect(login.stdout + login.stderr).toContain(`✓ Logged in to ${sandbox.printed.olakeUrl} as admin`);

        const jobsRun = await run(['jobs', '--json']);
        expectOk(jobsRun, 'jobs --json');
        const jobs = JSON.parse(jobsRun.stdout) as {
          id: number;
          activate: boolean;
          last_run_state?: string;
        }[];
        expect(jobs).toHaveLength(5);
        const job = jobs.find((j) => j.activate && j.last_run_state !== 'Running');
        expect(job, jobsRun.stdout).toBeDefined();
        const sync = await run(['jobs', 'sync', String(job?.id)]);
        expectOk(sync, 'jobs sync');
        expect(sync.stdout + sync.stderr).toContain('✓ Sync started: run ');
        const follow = await run(['jobs', 'logs', String(job?.id), '--follow']);
        expectOk(follow, 'jobs logs --follow');
        // The sandbox's runs last 8 s: on a loaded machine the run may have ended before following began.
        const state = /^Following run \S+ \((Running|Completed)\); Ctrl-C stops\.$/m.exec(follow.stderr)?.[1];
        expect(state, follow.stderr).toBeDefined();
        if (state === 'Running') expect(follow.stderr).toContain('Run ended: Completed.');
        expect(follow.stdout).toContain('Sync completed; state committed');

        const name = `pushed-${n}`;
        expectOk(await run(['push', '--profile', 'sandbox', '--name', name]), 'push');
        const listed = await run(['destinations', '--json']);
        expectOk(listed, 'destinations --json');
        const pushed = (JSON.parse(listed.stdout) as { id: number; name: string }[]).find(
          (d) => d.name === name,
        );
        expect(pushed, listed.stdout).toBeDefined();
        expectOk(
          await run(['pull', String(pushed?.id), '--profile', 'pulled', '--insecure-storage']),
          'pull',
        );

        const help = await run(['export', '--help']);
        const formats = exportFormats(help.stdout);
        expect(formats).toEqual(['olake', 'pyiceberg', 'pyiceberg-env', 'spark', 'trino', 'duckdb']);
        for (const format of formats) {
          const exported = await run(['export', '--profile', 'sandbox', '--format', format]);
          expectOk(exported, `export --format ${format}`);
          expect(exported.stdout, format).toContain(sandbox.printed.catalogUrl);
        }

        const file = join(config, 'destination.json');
        expectOk(await run(['export', '--profile', 'sandbox', '--output', file]), 'export --output');
        expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ type: 'ICEBERG' });
        writeFileSync(join(config, 'copy.json'), readFileSync(file));
        expectOk(
          await run(['import', join(config, 'copy.json'), '--profile', 'imported', '--insecure-storage']),
          'import',
        );
        const test = await run(['test', '--json', '--profile', 'imported']);
        expectOk(test, 'test of the imported profile');
        expect((JSON.parse(test.stdout) as { ok: boolean }).ok).toBe(true);
      },
    );
});
