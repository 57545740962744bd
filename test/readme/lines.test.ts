// Every `floe` line of the README's shell examples, run as written against the sandbox (its OLake UI
// emulator, logged in first as "floe login" would). A line that needs a terminal or a server that is
// only an example (polaris.example.com, olake:8000) is listed with the reason; a new line fails this
// test until it is listed here.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { floe } from '../management/support.js';
import { itWithService } from '../support/services.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/floe.js');

/** The commands of the README's ```sh blocks: continuation lines joined, comments dropped. */
function readmeCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const joined = (block[1] ?? '').replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      const command = line.replace(/\s+#\s.*$/, '').trim();
      if (command !== '' && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

type Plan = { code: number } | { skip: string };

/** What each README line does here, in README order (later lines use what earlier ones made). */
const PLAN: Record<string, Plan> = {
  'npm ci && npm run demo': { skip: 'installs, then opens the interactive demo (test/sandbox/open.test.ts)' },
  'npx floe --help': { code: 0 },
  'npm test': { skip: 'the test suite itself' },
  'npm run build:binary': { skip: 'npm test builds it; test/binary runs it as a user would' },
  'npm i -g @olake/floe': {
    skip: 'installs globally; test/package installs the packed tarball into a prefix',
  },
  'floe jobs show 37': { code: 0 },
  // Job 37's latest run failed: --diagnose names it and exits 1.
  'floe jobs logs 37 --diagnose': { code: 1 },
  'floe jobs logs 37 --follow': { code: 0 },
  'floe jobs test 37': { code: 0 },
  'floe destinations': { code: 0 },
  'floe pull 1 --profile from-ui': { code: 0 },
  'printf %s "$CLIENT_SECRET_PAIR" | floe setup --yes --profile prod --preset polaris --catalog-url https://polaris.example.com/api/catalog --warehouse olake_catalog --region eu-west-1 --data-location s3://lake/olake --credential-stdin':
    { code: 0 },
  'floe test --profile prod --json': { skip: 'tests polaris.example.com, an example host' },
  'floe test --profile prod --write --json': { skip: 'tests polaris.example.com, an example host' },
  'floe export --profile prod --output destination.json': { code: 0 },
  'floe export --profile prod --format trino --output prod.properties': { code: 0 },
  'floe import destination.json --profile copy': { code: 0 },
  'printf %s "$OLAKE_PASSWORD" | floe login --url http://olake:8000 --password-stdin': {
    skip: 'olake:8000 is an example host; the test logs in to the sandbox the same way first',
  },
  // The sync starts a new run, which has not failed: --diagnose exits 0.
  'floe jobs --json; floe jobs sync 37; floe jobs logs 37; floe jobs logs 37 --diagnose --json': { code: 0 },
  'floe push --profile prod --name iceberg-prod': {
    skip: "the OLake UI tests prod's catalog, polaris.example.com, an example host",
  },
  'floe stack --profile prod --output ./stack': { code: 0 },
  'floe completion bash > ~/.local/share/bash-completion/completions/floe': { code: 0 },
  'floe completion zsh > "${fpath[1]}/_floe"': {
    skip: "zsh's $fpath (the script is checked by zsh in test/cli)",
  },
  'floe completion fish > ~/.config/fish/completions/floe.fish': { code: 0 },
};

const work = mkdtempSync(join(tmpdir(), 'floe-readme-'));
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;

/** Runs `command` with bash in the work folder (without blocking the in-process emulators). */
function sh(command: string, cwd = work): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-o', 'errexit', '-o', 'pipefail', '-c', command], { cwd, env });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

const commands = readmeCommands(readFileSync(join(ROOT, 'README.md'), 'utf8')).filter((c) =>
  /(^|[|;&]\s*)(npx )?floe\b|^npm /.test(c),
);

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 } });
  const bin = join(work, 'bin');
  const home = join(work, 'home');
  mkdirSync(bin);
  for (const dir of ['.local/share/bash-completion/completions', '.config/fish/completions'])
    mkdirSync(join(home, dir), { recursive: true });
  // "floe" on PATH, as after a global install.
  writeFileSync(join(bin, 'floe'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'floe'), 0o755);
  env = {
    ...process.env,
    HOME: home,
    PATH: `${bin}:${process.env.PATH}`,
    FLOE_CONFIG_DIR: join(work, 'config'),
    CLIENT_SECRET_PAIR: `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
    OLAKE_PASSWORD: SANDBOX.olake.password,
  };
  // The login and the cleanup are no README lines: they run in process (management/support.ts).
  const login = await floe(['login', '--url', sandbox.olake.url, '--password-stdin', '--insecure-storage'], {
    configDir: env.FLOE_CONFIG_DIR as string,
    input: SANDBOX.olake.password,
  });
  expect(login.code, login.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const profile of ['prod', 'copy', 'from-ui'])
    await floe(['profiles', 'delete', profile], { configDir: env.FLOE_CONFIG_DIR as string });
  await sandbox?.stop();
});

const withKeychain = itWithService(process.env.FLOE_TEST_KEYRING, 'a keychain (gnome-keyring)');

describe("the README's floe lines", () => {
  it('are all listed here, with what they do or why they do not run here', () => {
    expect(commands.filter((c) => !(c in PLAN))).toEqual([]);
    expect(Object.keys(PLAN).filter((c) => !commands.includes(c))).toEqual([]);
  });

  withKeychain(
    'run as written against the sandbox, each with the exit code the README implies',
    async () => {
      for (const command of commands) {
        const plan = PLAN[command];
        if (!plan || 'skip' in plan) continue;
        const run = await sh(command, command.startsWith('npx ') ? ROOT : work);
        expect(run.code, `${command}\n${run.out}`).toBe(plan.code);
      }
      expect(existsSync(join(work, 'destination.json'))).toBe(true);
      expect(existsSync(join(work, 'stack', 'compose.yaml'))).toBe(true);
      expect(existsSync(join(work, 'home/.config/fish/completions/floe.fish'))).toBe(true);
    },
    120_000,
  );
});
