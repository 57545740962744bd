import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveProfile } from '../../../src/app/profiles.js';
import { FloeError } from '../../../src/cli/io.js';
import { type HomeCommands, homeLoop, parse, run } from '../../../src/commands/home.js';
import { emptyValues, type Values } from '../../../src/destination/fields.js';
import { accounts } from '../../../src/secrets/store.js';
import { openVault } from '../../../src/secrets/vault.js';
import { Home } from '../../../src/ui/home/Home.js';
import type { HomeAction } from '../../../src/ui/home/model.js';
import { tempConfigDir } from '../../support/cli.js';
import { testIo } from '../../support/io.js';
import {
  expectFits,
  KEY,
  type Rendered,
  renderScreen,
  type TestContext,
  testContext,
  UNAVAILABLE_REASON,
  waitUntil,
} from '../setup/support.js';

const SENTINEL = 'home-sentinel-token-8QwE';

const PROD: Values = {
  ...emptyValues('token'),
  fields: {
    catalogUrl: 'http://polaris:8181/api/catalog',
    warehouse: 's3://lake',
    region: 'us-east-1',
    token: SENTINEL,
  },
};
const DEV: Values = {
  ...emptyValues('none'),
  storage: 's3-compatible',
  fields: {
    catalogUrl: 'http://localhost:8181',
    warehouse: 's3://warehouse',
    region: 'us-east-1',
    s3Endpoint: 'http://localhost:9000',
    accessKey: 'minioadmin',
    secretKey: `${SENTINEL}-s3`,
  },
};

async function withProfiles(keychain: 'works' | 'unavailable' = 'works'): Promise<TestContext> {
  const ctx = testContext('works');
  await saveProfile(ctx, 'prod', PROD, 'keychain');
  await saveProfile(ctx, 'dev', DEV, 'file');
  ctx.config.setManagement({
    url: 'http://localhost:8000',
    username: 'admin',
    project: '123',
    rememberPassword: false,
  });
  if (keychain === 'works') return ctx;
  const broken = testContext('unavailable').vault.backend('keychain');
  return { ...ctx, vault: openVault(ctx.config.secretsPath, {}, broken) };
}

let rendered: Rendered | undefined;
afterEach(async () => {
  if (rendered) expectFits(rendered.frames());
  await rendered?.unmount();
  rendered = undefined;
});

async function start(ctx: TestContext) {
  const onAction = vi.fn<(action: HomeAction) => void>();
  rendered = await renderScreen(<Home ctx={ctx} floe="npx floe" onAction={onAction} />);
  return { r: rendered, onAction };
}

describe('home screen', () => {
  it('lists the profiles, where their secrets live, and the OLake UI login', async () => {
    const ctx = await withProfiles();
    const { r } = await start(ctx);
    const frame = r.frame();
    expect(frame).toMatch(/› dev\s+none\s+http:\/\/localhost:8181\s+file/);
    expect(frame).toMatch(/ {2}prod\s+token\s+http:\/\/polaris:8181\/api\/catalog\s+keychain/);
    // The path is as long as the machine's TMPDIR makes it: wrapped anywhere at 80 columns.
    const unwrapped = (text: string) => text.replace(/\s+/g, '');
    expect(unwrapped(r.text())).toContain(
      unwrapped(`"dev": None; secrets in the plaintext file ${ctx.config.secretsPath} (mode 0600)`),
    );
    expect(frame).toContain('OLake UI: http://localhost:8000 as admin (project 123)');
    expect(frame).toContain('2 profiles');
    for (const hint of [
      'Enter/e edit',
      't test',
      'x export',
      'n new',
      'd delete',
      'b tables',
      'j jobs',
      'q quit',
    ])
      expect(frame).toContain(hint);
    await r.press(KEY.down);
    expect(r.text()).toContain('"prod": Bearer token; secrets in the OS keychain');
    for (const f of r.frames()) expect(f).not.toContain(SENTINEL);
  });

  it.each([
    [[KEY.enter], { type: 'edit', name: 'dev' }],
    [[KEY.down, 'e'], { type: 'edit', name: 'prod' }],
    [[KEY.down, 't'], { type: 'test', name: 'prod' }],
    [[KEY.down, 'b'], { type: 'tables', name: 'prod' }],
    [['j'], { type: 'jobs' }],
    [['q'], { type: 'quit' }],
    [[KEY.ctrlC], { type: 'interrupt' }],
    [[`${KEY.down}t`], { type: 'test', name: 'prod' }],
    [[`nlake-2${KEY.backspace}3${KEY.enter}`], { type: 'new', name: 'lake-3' }],
    [[`nprod${KEY.enter}x${KEY.backspace}${KEY.backspace}${KEY.enter}`], { type: 'new', name: 'pro' }],
  ] as [string[], HomeAction][])('keys %j resolve %j', async (keys, action) => {
    const { r, onAction } = await start(await withProfiles());
    await r.press(...keys);
    expect(onAction).toHaveBeenCalledExactlyOnceWith(action);
  });

  it('names the variables a profile without stored secrets reads', async () => {
    const ctx = testContext();
    await saveProfile(ctx, 'ci', { ...PROD, fields: { ...PROD.fields, token: undefined } }, 'env');
    const { r } = await start(ctx);
    expect(r.frame()).toMatch(/› ci\s+token\s+http:\/\/polaris:8181\/api\/catalog\s+env/);
    expect(r.text()).toContain(
      '"ci": Bearer token; secrets read from FLOE_TOKEN at run time (FLOE_ACCESS_KEY, FLOE_SECRET_KEY if set)',
    );
  });

  it('asks a valid, unused name for a new profile', async () => {
    const { r, onAction } = await start(await withProfiles());
    await r.press('n');
    expect(r.frame()).toContain('New profile name:');
    await r.press('dev', KEY.enter);
    expect(r.text()).toContain('"dev" exists already');
    for (let i = 0; i < 3; i++) await r.press(KEY.backspace);
    await r.press('bad name', KEY.enter);
    expect(r.text()).toContain('use letters, digits, ".", "_" or "-"');
    await r.press(KEY.esc);
    expect(r.frame()).not.toContain('New profile name:');
    await r.press('n', 'staging', KEY.enter);
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ type: 'new', name: 'staging' });
  });

  it('keeps every character of a name typed back to back, before the screen redraws', async () => {
    const { r, onAction } = await start(await withProfiles());
    await r.press('n');
    await r.burst(...'staging-eu-west');
    await r.press(KEY.enter);
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ type: 'new', name: 'staging-eu-west' });
  });

  it('asks where to write the export, instead of printing secrets on screen', async () => {
    const { r, onAction } = await start(await withProfiles());
    await r.press(KEY.down, 'x');
    // The tests run in the repository, a git work tree: the file is offered in the config folder.
    expect(r.text()).toContain('Write "prod" as destination.json (with its secrets, mode 0600) to: ›');
    expect(r.text()).toContain('exports/prod-destination.json');
    await r.press('\u0015', KEY.enter);
    expect(r.text()).toContain('give a file to write, e.g. destination.json');
    await r.press('out/prod.json', KEY.enter);
    expect(onAction).toHaveBeenCalledExactlyOnceWith({
      type: 'export',
      name: 'prod',
      output: resolve('out/prod.json'),
    });
  });

  it('deletes a profile and its secrets only after confirmation', async () => {
    const ctx = await withProfiles();
    const account = accounts.profileSecret(
      'dev',
      'secretKey',
      ctx.config.getProfile('dev')?.secretsGeneration,
    );
    expect(await ctx.vault.backend('file').get(account)).toBe(`${SENTINEL}-s3`);
    const { r, onAction } = await start(ctx);
    await r.press('d');
    expect(r.frame()).toContain('Delete profile "dev" and its stored secrets? (y/N)');
    await r.press('n');
    expect(ctx.config.getProfile('dev')).toBeDefined();
    await r.press('d', 'y');
    await waitUntil(() => r.frame().includes('Deleted profile "dev"'));
    expect(ctx.config.getProfile('dev')).toBeUndefined();
    expect(await ctx.vault.backend('file').get(account)).toBeUndefined();
    expect(r.frame()).toMatch(/› prod/);
    expect(r.frame()).toContain('1 profile');
    await r.press(KEY.down, 'd', 'y');
    await waitUntil(() => r.frame().includes('Deleted profile "prod"'));
    expect(ctx.keychain.size).toBe(0);
    expect(r.frame()).toContain('No profiles yet');
    expect(onAction).not.toHaveBeenCalled();
  });

  it('keeps the profile and says why when its keychain secrets cannot be deleted', async () => {
    const ctx = await withProfiles('unavailable');
    const { r } = await start(ctx);
    await r.press(KEY.down, 'd', 'y');
    await waitUntil(() => r.frame().includes('was not deleted'));
    expect(r.text()).toContain(
      `Profile "prod" was not deleted: its secrets cannot be removed: ${UNAVAILABLE_REASON}`,
    );
    expect(ctx.config.getProfile('prod')).toBeDefined();
  });

  it('explains the empty state and offers n', async () => {
    const ctx = testContext();
    const { r, onAction } = await start(ctx);
    expect(r.text()).toContain('No profiles yet.');
    expect(r.frame()).toContain('Press n to create one');
    // Issue 19, item 13: the empty home screen mentions the sandbox.
    // The command that runs this floe, as the home command gives it (cli/invocation.ts's floeCommand).
    expect(r.text()).toContain('To try floe on a local catalog first: npx floe sandbox --open');
    expect(r.frame()).toContain('OLake UI: not logged in (floe login)');
    await r.press('t', KEY.enter);
    expect(onAction).not.toHaveBeenCalled();
    await r.press('n');
    expect(r.text()).toContain('New profile name: › default');
    await r.press(KEY.enter);
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ type: 'new', name: 'default' });
  });

  // Issue 30, item 6: the suggested name is replaced by the first key, not appended to.
  it('replaces the suggested name with what is typed first', async () => {
    const { r, onAction } = await start(testContext());
    await r.press('n');
    await r.press('l', 'a', 'k', 'e');
    expect(r.text()).toContain('New profile name: › lake');
    await r.press(KEY.enter);
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ type: 'new', name: 'lake' });
  });

  it('scrolls a long profile list within 24 rows', async () => {
    const ctx = testContext();
    for (let i = 0; i < 30; i++) await saveProfile(ctx, `p${String(i).padStart(2, '0')}`, DEV, 'file');
    const { r } = await start(ctx);
    expect(r.frame()).toMatch(/↓ \d+ more/);
    await r.press(KEY.up);
    expect(r.frame()).toMatch(/› p29/);
    expect(r.frame()).toMatch(/↑ \d+ more/);
  });
});

describe('floe (home command)', () => {
  const NAMES = ['setup', 'test', 'export', 'jobs', 'tables'] as const;

  /** A command table whose commands record the arguments of their Options and run with `run`. */
  function table(run: (command: string, options: unknown[]) => Promise<number>): HomeCommands {
    const entry = (command: string) => ({
      load: async () => ({
        options: (...args: unknown[]) => args,
        run: (options: unknown[]) => run(command, options),
      }),
    });
    return Object.fromEntries(NAMES.map((name) => [name, entry(name)])) as unknown as HomeCommands;
  }

  function fakeCommands(codes: Record<string, number> = {}) {
    const calls: [string, unknown[]][] = [];
    const load = table(async (command, options) => {
      calls.push([command, options]);
      return codes[command] ?? 0;
    });
    return { calls, load };
  }

  it('runs each chosen command after the screen closes and comes back until quit', async () => {
    const actions: HomeAction[] = [
      { type: 'edit', name: 'prod' },
      { type: 'new', name: 'staging' },
      { type: 'test', name: 'prod' },
      { type: 'export', name: 'prod', output: 'destination.json' },
      { type: 'jobs' },
      { type: 'tables', name: 'prod' },
      { type: 'quit' },
    ];
    const { calls, load } = fakeCommands({ test: 1 });
    const next = vi.fn(async () => actions.shift()!);
    expect(await homeLoop(next, load, testIo())).toBe(0);
    // The home screen comes back with the profile the last action was about selected.
    expect(next.mock.calls.map((call) => (call as unknown[])[0])).toEqual([
      undefined,
      'prod',
      'staging',
      'prod',
      'prod',
      'prod',
      'prod',
    ]);
    // Each command runs with its Options for the profile (setup.options('prod'), …), never argv.
    expect(calls).toEqual([
      ['setup', ['prod']],
      ['setup', ['staging']],
      ['test', ['prod']],
      ['export', ['prod', 'destination.json']],
      ['jobs', []],
      ['tables', ['prod']],
    ]);
    expect(next).toHaveBeenCalledTimes(7);
  });

  it("prints a command's explained failure and comes back; other errors end floe", async () => {
    const actions: HomeAction[] = [{ type: 'jobs' }, { type: 'quit' }];
    const io = testIo();
    const failing = table(async () => {
      throw new FloeError('Not logged in.', 'Run "floe login".', 4);
    });
    expect(await homeLoop(async () => actions.shift()!, failing, io)).toBe(0);
    expect(io.stderr()).toBe('floe: Not logged in.\nRun "floe login".\n');
    const broken = table(async () => {
      throw new TypeError('bug');
    });
    await expect(homeLoop(async () => ({ type: 'jobs' }), broken, io)).rejects.toThrow('bug');
  });

  // Issue 31, item 1: the config folder is the Io env's (FLOE_CONFIG_DIR), not the process's.
  it("an export to the config folder's exports/ makes that folder (0700) in the Io env's config folder", async () => {
    const dir = tempConfigDir();
    const processDir = tempConfigDir();
    vi.stubEnv('FLOE_CONFIG_DIR', processDir);
    try {
      const output = join(dir, 'exports', 'prod.json');
      const actions: HomeAction[] = [{ type: 'export', name: 'prod', output }, { type: 'quit' }];
      const { calls, load } = fakeCommands({});
      const io = testIo({ env: { FLOE_CONFIG_DIR: dir } });
      expect(await homeLoop(async () => actions.shift()!, load, io)).toBe(0);
      expect(calls).toEqual([['export', ['prod', output]]]);
      expect(statSync(join(dir, 'exports')).mode & 0o777).toBe(0o700);
      expect(existsSync(join(processDir, 'exports'))).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  // Issue 30, item 2: l signs in on a form first; Esc there comes back home, signed in the jobs open.
  it('l opens the sign-in form, then the jobs browser; Esc on the form comes back', async () => {
    const actions: HomeAction[] = [{ type: 'login' }, { type: 'login' }, { type: 'login' }, { type: 'quit' }];
    const outcomes = ['back', 'signed-in', 'interrupt'] as const;
    const { calls, load } = fakeCommands({});
    const signIn = vi.fn(async () => outcomes[signIn.mock.calls.length - 1]!);
    expect(await homeLoop(async () => actions.shift()!, load, testIo(), signIn)).toBe(130);
    expect(signIn).toHaveBeenCalledTimes(3);
    expect(calls).toEqual([['jobs', []]]);
  });

  it('prints the profiles and the usage without a terminal', async () => {
    const ctx = await withProfiles();
    const io = testIo({ env: { FLOE_CONFIG_DIR: ctx.dir, CI: 'true' } });
    expect(
      await run(
        parse([]),
        io,
        table(async () => 1),
      ),
    ).toBe(0);
    const out = io.stdout();
    expect(out).toMatch(/dev\s+none\s+http:\/\/localhost:8181\s+file/);
    expect(out).toMatch(/prod\s+token\s+http:\/\/polaris:8181\/api\/catalog\s+keychain/);
    expect(out).toContain('OLake UI: http://localhost:8000 as admin');
    expect(out).toContain('Usage: floe [command] [flags]');
    expect(out).not.toContain(SENTINEL);
  });

  it('rejects flags it does not know', async () => {
    expect(() => parse(['--nope'])).toThrow('unknown flag "--nope"');
  });
});
