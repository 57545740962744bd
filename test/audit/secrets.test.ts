// The secret-leak audit (issue 5 §6): every flow of floe runs with distinctive sentinel
// secrets against loopback emulators, secrets stored in the real keychain (the screens and the sandbox's
// Ctrl-C on the built CLI, the piped flows in this process: test/support/in-process.ts); then everything a user or
// a log collector could see (stdout, stderr, --json, the HTTP trace, every pty screen and raw stream,
// the config directory, redacted exports) is searched for them. The secrets must be where they
// belong (the keychain, the unredacted export) and nowhere else.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Terminal } from '../../scripts/lib/terminal.mjs';
import { COMMANDS } from '../../src/cli/commands.js';
import { type CatalogEmulator, startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { S3RVER_ACCESS_KEY, type S3Server, startS3Server } from '../../src/sandbox/s3.js';
import { folderKeychainService } from '../../src/secrets/namespace.js';
import { BIN } from '../support/cli.js';
import { floeInProcess } from '../support/in-process.js';
import { itWithService } from '../support/services.js';
import { loginAccounts, profileAccount } from '../support/stored.js';
import {
  baseEnv,
  filesUnder,
  findLeaks,
  type Run,
  type Secret,
  type Seen,
  send,
  startPty,
} from './support.js';

const withKeychain = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

const TOKEN = 'SENTINEL-token-8c1f2a7e9d';
const CLIENT_ID = 'audit-client';
const CLIENT_SECRET = 'SENTINEL-client-secret-3b9d61f0 with space&plus+';
const CREDENTIAL = `${CLIENT_ID}:${CLIENT_SECRET}`;
/** s3rver knows only its own access key; this one is refused, so one profile audits a failing check. */
const ACCESS_KEY = 'SENTINELACCESSKEY7D2F';
const SECRET_KEY = 'SENTINEL-secret-key-5e0a4c/17b3';
const PASSWORD = 'SENTINEL-password-91c4"quote';
/** Secrets the servers refuse, to audit the failure paths. */
const WRONG_PASSWORD = 'SENTINEL-wrong-password-7a0e';
const REJECTED_TOKEN = 'SENTINEL-rejected-token-c35b';
const REJECTED_CLIENT_SECRET = 'SENTINEL-rejected-client-secret-19fd';
const WRONG_SECRET_KEY = 'SENTINEL-wrong-secret-key-6b21';
const BROKEN_KEY = 'SENTINEL-broken-private-key-e8c7';
const WIZARD_TOKEN = 'SENTINEL-wizard-token-44e0b8';
const WIZARD_CLIENT_SECRET = 'SENTINEL-wizard-client-secret-a6d2';
const WIZARD_CLIENT_ID = 'audit-wizard';
const WIZARD_SECRET_KEY = 'SENTINEL-wizard-secret-key-0f93';
const GOOGLE_EMAIL = 'audit@audit-project.iam.gserviceaccount.com';
const BUCKET = 'audit';
const SCOPE = 'catalog';
const PROFILES = ['none', 'token', 'oauth2', 'sigv4', 'google'] as const;
type Profile = (typeof PROFILES)[number];

const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = google.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** A line from the middle of the PEM body: any copy of the key contains it. */
const PRIVATE_KEY_LINE = PRIVATE_KEY.split('\n')[5] as string;

/**
 * Secrets in the FLOE_* variables that override a profile's, each refused or unusable somehow;
 * `report`: floe runs the checks (else it stops before, naming the broken field).
 */
const REFUSED: { profile: Profile; what: string; env: Record<string, string>; report?: false }[] = [
  { profile: 'token', what: 'a rejected token', env: { FLOE_TOKEN: REJECTED_TOKEN } },
  {
    profile: 'oauth2',
    what: 'a rejected client secret',
    env: { FLOE_CREDENTIAL: `${CLIENT_ID}:${REJECTED_CLIENT_SECRET}` },
  },
  { profile: 'sigv4', what: 'a wrong secret key', env: { FLOE_SECRET_KEY: WRONG_SECRET_KEY } },
  {
    profile: 'google',
    what: 'an unreadable private key',
    env: {
      FLOE_GCP_SERVICE_ACCOUNT_JSON: JSON.stringify({
        type: 'service_account',
        client_email: GOOGLE_EMAIL,
        private_key: `-----BEGIN PRIVATE KEY-----\n${BROKEN_KEY}\n-----END PRIVATE KEY-----\n`,
      }),
    },
  },
  {
    profile: 'google',
    what: 'service-account JSON that does not parse',
    env: { FLOE_GCP_SERVICE_ACCOUNT_JSON: `{"type":"service_account","private_key": ${BROKEN_KEY}}` },
    report: false,
  },
];

const STATIC_SECRETS: Secret[] = [
  { name: 'token', value: TOKEN },
  { name: 'client secret', value: CLIENT_SECRET },
  { name: 'access key', value: ACCESS_KEY },
  { name: 'secret key', value: SECRET_KEY },
  { name: 'OLake password', value: PASSWORD },
  { name: 'wrong OLake password', value: WRONG_PASSWORD },
  { name: 'rejected token', value: REJECTED_TOKEN },
  { name: 'rejected client secret', value: REJECTED_CLIENT_SECRET },
  { name: 'wrong secret key', value: WRONG_SECRET_KEY },
  { name: 'broken private key', value: BROKEN_KEY },
  { name: 'wizard token', value: WIZARD_TOKEN },
  { name: 'wizard client secret', value: WIZARD_CLIENT_SECRET },
  { name: 'wizard secret key', value: WIZARD_SECRET_KEY },
  { name: 'service-account private key', value: PRIVATE_KEY_LINE },
];

let root: string;
let home: string;
let configDir: string;
let accountFile: string;
let s3: S3Server;
let open: CatalogEmulator;
let bearer: CatalogEmulator;
let signed: CatalogEmulator;
let ui: OlakeUiEmulator;
/** Everything a user or a log collector saw, except the unredacted exports. */
const seen: Seen[] = [];
const redactedFiles: string[] = [];

const env = (extra: Record<string, string> = {}) => ({ ...baseEnv(home, configDir), ...extra });

/** `floe ARGS` without a terminal, in this process (a fresh start each call), secrets in the real keychain. */
async function inProcess(args: string[], extra: Record<string, string> = {}, input = ''): Promise<Run> {
  return floeInProcess(args, { env: env(extra), stdin: input, keychain: 'real' });
}

/** The commands the audit ran (`home` for floe without one): every command of the table must be here. */
const audited = new Set<string>();

async function floe(
  where: string,
  args: string[],
  extra: Record<string, string> = {},
  input = '',
): Promise<Run> {
  audited.add(args[0] ?? 'home');
  const run = await inProcess(args, extra, input);
  seen.push({ where: `${where} stdout`, text: run.stdout }, { where: `${where} stderr`, text: run.stderr });
  return run;
}

const ptys: Terminal[] = [];
function pty(args: string[], rows = 24): Terminal {
  audited.add(args[0] ?? 'home');
  const terminal = startPty(args, { HOME: home, FLOE_CONFIG_DIR: configDir }, rows);
  ptys.push(terminal);
  return terminal;
}

/** Keeps a terminal's screens and raw stream, then fails on any static sentinel in them. */
function expectCleanTerminal(where: string, terminal: Terminal) {
  const frames = terminal.frames();
  const mine: Seen[] = [
    ...frames.map((text, i) => ({ where: `${where} frame ${i}`, text })),
    // A secret wrapped at the right margin continues on the next row.
    ...frames.map((text, i) => ({
      where: `${where} frame ${i} unwrapped`,
      text: text.replace(/\n/g, ''),
    })),
    { where: `${where} raw`, text: terminal.raw() },
  ];
  seen.push(...mine);
  expect(frames.length).toBeGreaterThan(0);
  expect(findLeaks(mine, STATIC_SECRETS)).toEqual([]);
}

/**
 * Opens the HTTP trace of a finished connection test and pages through it to its end, each page starting
 * at most one line past the last one shown: every line is on some screen.
 */
async function scrollTrace(terminal: Terminal) {
  await send(terminal, 'v', /HTTP trace \(\d+\)/);
  const shown = () => /lines (\d+)–(\d+) of (\d+)/.exec(terminal.screen().join('\n'));
  for (let at = shown(); at && at[2] !== at[3]; ) {
    await send(terminal, '\u001B[6~', new RegExp(`lines (?!${at[1]}–)\\d+–\\d+ of ${at[3]}`));
    const next = shown();
    expect(Number(next?.[1]), 'no trace line skipped').toBeLessThanOrEqual(Number(at[2]) + 1);
    at = next;
  }
}

function expectClean(run: Run, where: string) {
  expect(
    findLeaks(
      [
        { where: `${where} stdout`, text: run.stdout },
        { where: `${where} stderr`, text: run.stderr },
      ],
      STATIC_SECRETS,
    ),
  ).toEqual([]);
}

function catalogOf(profile: Profile): CatalogEmulator {
  return profile === 'none' ? open : profile === 'sigv4' ? signed : bearer;
}

function setupArgs(profile: Profile): string[] {
  const args = [
    'setup',
    '--yes',
    '--profile',
    `audit-${profile}`,
    '--auth-type',
    profile,
    '--catalog-url',
    catalogOf(profile).url,
    '--storage',
    's3-compatible',
    '--warehouse',
    `s3://${BUCKET}/warehouse`,
    '--region',
    'us-east-1',
    '--s3-endpoint',
    s3.url,
  ];
  if (profile === 'oauth2') args.push('--oauth2-uri', bearer.tokenUrl, '--scope', SCOPE);
  if (profile === 'sigv4') args.push('--signing-name', 'glue', '--signing-region', 'us-east-1');
  if (profile === 'google') args.push('--gcp-service-account-file', accountFile);
  return args;
}

/** How each profile's secrets reach `floe setup`: stdin flags, files and FLOE_* variables, mixed. */
const SETUP_SOURCES: Record<Profile, { args: string[]; env: Record<string, string>; input: string }> = {
  none: { args: ['--secret-key-stdin'], env: { FLOE_ACCESS_KEY: ACCESS_KEY }, input: `${SECRET_KEY}\n` },
  token: {
    args: ['--token-stdin', '--access-key', S3RVER_ACCESS_KEY],
    env: { FLOE_SECRET_KEY: SECRET_KEY },
    input: TOKEN,
  },
  oauth2: {
    args: ['--secret-key-stdin', '--access-key', S3RVER_ACCESS_KEY],
    env: { FLOE_CREDENTIAL: CREDENTIAL },
    input: SECRET_KEY,
  },
  sigv4: { args: ['--secret-key-stdin'], env: { FLOE_ACCESS_KEY: S3RVER_ACCESS_KEY }, input: SECRET_KEY },
  google: {
    args: ['--access-key', S3RVER_ACCESS_KEY],
    env: { FLOE_SECRET_KEY: SECRET_KEY },
    input: '',
  },
};

/**
 * Each account of the config folder's keychain service with its secret, from `secret-tool search --all`
 * (items on stdout, labelled "SERVICE/ACCOUNT"; their attributes go to stderr).
 */
function keychain(): Map<string, string> {
  const service = folderKeychainService(configDir);
  const out = spawnSync('secret-tool', ['search', '--all', 'service', service], {
    encoding: 'utf8',
    timeout: 5000,
  });
  const found = new Map<string, string>();
  for (const block of out.stdout.split(/^\[/m)) {
    const label = /^label = (.*)$/m.exec(block)?.[1];
    const account = label?.startsWith(`${service}/`) ? label.slice(service.length + 1) : undefined;
    const secret = /^secret = (.*)$/m.exec(block)?.[1];
    if (account !== undefined && secret !== undefined) found.set(account, secret);
  }
  return found;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'floe-audit-'));
  home = join(root, 'home');
  configDir = join(root, 'config');
  mkdirSync(home);
  mkdirSync(join(root, 's3'));
  s3 = await startS3Server({ bucket: BUCKET, directory: join(root, 's3') });
  open = await startCatalogEmulator({ auth: 'none' });
  bearer = await startCatalogEmulator({
    auth: 'bearer',
    // The OLake UI's destination test creates test_olake.test_olake and writes a record there.
    dataLocation: `s3://${BUCKET}/warehouse`,
    objectStore: {
      endpoint: s3.url,
      region: 'us-east-1',
      accessKeyId: S3RVER_ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
    },
    tokens: [TOKEN, WIZARD_TOKEN],
    clients: [
      { id: CLIENT_ID, secret: CLIENT_SECRET },
      { id: WIZARD_CLIENT_ID, secret: WIZARD_CLIENT_SECRET },
    ],
    // Google's jwt-bearer grant is an identity provider's, never an Iceberg /v1/oauth/tokens one.
    tokenPath: '/token',
    serviceAccounts: [
      {
        clientEmail: GOOGLE_EMAIL,
        publicKey: google.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
    ],
  });
  signed = await startCatalogEmulator({
    auth: 'sigv4',
    sigv4: {
      service: 'glue',
      region: 'us-east-1',
      keys: [{ accessKeyId: S3RVER_ACCESS_KEY, secretAccessKey: SECRET_KEY }],
    },
  });
  ui = await startOlakeUiEmulator({ users: { admin: PASSWORD }, jobs: seedJobs(6, 3) });
  accountFile = join(root, 'service-account.json');
  writeFileSync(
    accountFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'audit-project',
      private_key_id: 'audit-key-1',
      private_key: PRIVATE_KEY,
      client_email: GOOGLE_EMAIL,
      token_uri: bearer.tokenUrl,
    }),
    { mode: 0o600 },
  );
});

afterAll(async () => {
  for (const terminal of ptys) terminal.kill();
  await Promise.allSettled([s3?.close(), open?.close(), bearer?.close(), signed?.close(), ui?.close()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.sequential('secret-leak audit', () => {
  withKeychain(
    'floe setup --yes stores every auth type’s secrets in the keychain and prints none',
    async () => {
      for (const profile of PROFILES) {
        const source = SETUP_SOURCES[profile];
        const run = await floe(
          `setup ${profile}`,
          [...setupArgs(profile), ...source.args],
          source.env,
          source.input,
        );
        expect(run.code, run.stderr).toBe(0);
        expectClean(run, `setup ${profile}`);
      }
      const stored = keychain();
      expect(stored.get(profileAccount(configDir, 'audit-none', 'accessKey'))).toBe(ACCESS_KEY);
      expect(stored.get(profileAccount(configDir, 'audit-none', 'secretKey'))).toBe(SECRET_KEY);
      expect(stored.get(profileAccount(configDir, 'audit-token', 'token'))).toBe(TOKEN);
      expect(stored.get(profileAccount(configDir, 'audit-oauth2', 'credential'))).toBe(CREDENTIAL);
      expect(stored.get(profileAccount(configDir, 'audit-sigv4', 'secretKey'))).toBe(SECRET_KEY);
      expect(stored.get(profileAccount(configDir, 'audit-google', 'gcpServiceAccountJson'))).toContain(
        PRIVATE_KEY_LINE,
      );
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toContain('audit-google');
    },
  );

  withKeychain(
    'the setup wizard on a terminal (token, oauth2) masks every secret on every screen',
    async () => {
      for (const auth of ['token', 'oauth2'] as const) {
        const terminal = pty(['setup', '--profile', `audit-wizard-${auth}`]);
        await terminal.waitFor(/› ● Generic REST catalog/);
        await send(terminal, '\r', /Authentication type/);
        await send(terminal, '\u001B[B', /› ● Bearer token/);
        if (auth === 'oauth2') await send(terminal, '\u001B[B', /› ● OAuth2/);
        await send(terminal, '\r', /› REST Catalog URL\*/);
        await send(terminal, bearer.url, /REST Catalog URL\*\s+http/);
        await send(terminal, '\r', /› Warehouse\*/);
        await send(terminal, `s3://${BUCKET}/wizard`, /Warehouse\*\s+s3:/);
        await send(terminal, '\r', /› Region\*/);
        await send(terminal, 'us-east-1', /Region\*\s+us-east-1/);
        if (auth === 'token') {
          await send(terminal, '\r', /› Token\*/);
          await send(terminal, WIZARD_TOKEN, /› Token\*\s+•+/);
        } else {
          await send(terminal, '\r', /› REST Auth URI\*/);
          await send(terminal, bearer.tokenUrl, /REST Auth URI\*\s+http/);
          await send(terminal, '\r', /› REST Credential\*/);
          await send(terminal, `${WIZARD_CLIENT_ID}:${WIZARD_CLIENT_SECRET}`, /› REST Credential\*\s+•+/);
          await send(terminal, '\r', /› REST Scope/);
          await send(terminal, SCOPE, /REST Scope\*?\s+catalog/);
        }
        await send(terminal, '\r', /Object storage/);
        await send(terminal, '\u001B[B', /› ● S3-compatible/);
        await send(terminal, '\r', /› S3 Endpoint\*/);
        await send(terminal, s3.url, /S3 Endpoint\*\s+http/);
        await send(terminal, '\r', /› Data Location/);
        await send(terminal, '\r', /› Access Key/);
        await send(terminal, S3RVER_ACCESS_KEY, /› Access Key\*?\s+•+/);
        await send(terminal, '\r', /› Secret Key/);
        await send(terminal, WIZARD_SECRET_KEY, /› Secret Key\*\s+•+/);
        await send(terminal, '\r', /› Target OLake Version/);
        await send(terminal, '\r', /› Catalog Name/);
        await send(terminal, '\r', /› Iceberg DB/);
        await send(terminal, '\r', /› Enable Arrow Writes/);
        await send(terminal, '\r', /› Disable Identifier Tables/);
        await send(terminal, '\r', /Review/);
        // Saving runs the connection test with the typed secrets; its trace is audited too.
        await send(terminal, '\r', /Saved profile/);
        await terminal.waitFor(/All checks passed[\s\S]*r re-run/);
        await scrollTrace(terminal);
        expect(terminal.frames().join('\n')).toContain('> authorization: [redacted]');
        await terminal.press('q');
        expect(await terminal.exit()).toBe(0);
        expectCleanTerminal(`wizard ${auth}`, terminal);
      }
      const stored = keychain();
      expect(stored.get(profileAccount(configDir, 'audit-wizard-token', 'token'))).toBe(WIZARD_TOKEN);
      expect(stored.get(profileAccount(configDir, 'audit-wizard-oauth2', 'credential'))).toBe(
        `${WIZARD_CLIENT_ID}:${WIZARD_CLIENT_SECRET}`,
      );
      expect(stored.get(profileAccount(configDir, 'audit-wizard-oauth2', 'secretKey'))).toBe(
        WIZARD_SECRET_KEY,
      );
    },
    90_000,
  );

  // One run at a time: s3rver answers 500 when one run lists the bucket while another deletes its probe.
  withKeychain(
    'floe test --json and plain text name no secret, for every profile',
    async () => {
      for (const profile of PROFILES) {
        const args = ['test', '--profile', `audit-${profile}`];
        const json = await floe(`test --json ${profile}`, [...args, '--json']);
        expect((JSON.parse(json.stdout) as { ok: boolean }).ok, `${profile}: ${json.stdout}`).toBe(
          profile !== 'none',
        );
        expectClean(json, `test --json ${profile}`);
        const plain = await floe(`test ${profile}`, args);
        expect(plain.code, plain.stdout).toBe(profile === 'none' ? 1 : 0);
        expectClean(plain, `test ${profile}`);
      }
    },
    90_000,
  );

  withKeychain(
    'floe tables (the list, --json, show) names no secret, for every profile',
    async () => {
      for (const profile of PROFILES) {
        const args = ['--profile', `audit-${profile}`];
        for (const [where, argv] of [
          [`tables --json ${profile}`, ['tables', ...args, '--json']],
          [`tables ${profile}`, ['tables', ...args]],
          [`tables show ${profile}`, ['tables', 'show', 'test_olake.missing', ...args]],
        ] as const) {
          const run = await floe(where, [...argv]);
          expect([0, 1], `${where}: ${run.stderr}`).toContain(run.code);
          expectClean(run, where);
        }
      }
    },
    90_000,
  );

  withKeychain(
    'floe test with refused or unusable FLOE_* secrets names none of them',
    async () => {
      for (const { profile, what, env: refused, report } of REFUSED) {
        const where = `test ${profile} with ${what}`;
        const args = ['test', '--profile', `audit-${profile}`];
        const json = await floe(`${where} --json`, [...args, '--json'], refused);
        expect(json.code, json.stderr).toBe(1);
        if (report === false) expect(json.stderr).toMatch(/GCP Service Account JSON/);
        else {
          const failed = JSON.parse(json.stdout) as { ok: boolean; diagnoses: unknown[] };
          expect(failed.ok).toBe(false);
          expect(failed.diagnoses.length).toBeGreaterThan(0);
        }
        expectClean(json, `${where} --json`);
        const plain = await floe(where, args, refused);
        expect(plain.code, plain.stderr).toBe(1);
        expectClean(plain, where);
      }
    },
    90_000,
  );

  withKeychain(
    'the floe test screen with the HTTP trace shows no secret, for every profile',
    async () => {
      for (const profile of PROFILES) {
        // A tall terminal shows most of the trace at once; the rest is scrolled into view.
        const terminal = pty(['test', '--profile', `audit-${profile}`], 200);
        await terminal.waitFor(/r re-run/);
        await scrollTrace(terminal);
        await terminal.press('q');
        expect(await terminal.exit()).toBe(profile === 'none' ? 1 : 0);
        // The trace was on screen, its credentials shown as redacted.
        if (profile !== 'none') expect(terminal.frames().join('\n')).toContain('> authorization: [redacted]');
        expectCleanTerminal(`test screen ${profile}`, terminal);
      }
    },
    120_000,
  );

  withKeychain('floe export writes secrets only without --redact; profiles show/list name none', async () => {
    const exported = await inProcess(['export', '--profile', 'audit-token']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout).writer).toMatchObject({ token: TOKEN, aws_secret_key: SECRET_KEY });
    seen.push({ where: 'export stderr', text: exported.stderr });
    const file = join(root, 'unredacted.json');
    const toFile = await floe('export --output', ['export', '--profile', 'audit-google', '--output', file]);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(PRIVATE_KEY_LINE.slice(0, 40));

    for (const profile of PROFILES) {
      const redacted = await floe(`export --redact ${profile}`, [
        'export',
        '--profile',
        `audit-${profile}`,
        '--redact',
      ]);
      expect(redacted.code, redacted.stderr).toBe(0);
      expect(JSON.parse(redacted.stdout).type).toBeDefined();
      const out = join(root, `redacted-${profile}.json`);
      const written = await floe(`export --redact --output ${profile}`, [
        'export',
        '--profile',
        `audit-${profile}`,
        '--redact',
        '--output',
        out,
      ]);
      expect(written.code, written.stderr).toBe(0);
      redactedFiles.push(out);
      expectClean(redacted, `export --redact ${profile}`);
      const show = await floe(`profiles show ${profile}`, ['profiles', 'show', `audit-${profile}`]);
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toContain(catalogOf(profile).url);
      expectClean(show, `profiles show ${profile}`);
    }
    expect(
      findLeaks(
        filesUnder(root).filter((f) => redactedFiles.includes(f.where)),
        STATIC_SECRETS,
      ),
    ).toEqual([]);
    const list = await floe('profiles list --json', ['profiles', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('audit-oauth2');
    expectClean(list, 'profiles list --json');
  });

  withKeychain(
    'login, push, jobs, logs, the jobs browser and logout never show the password, the session or a pushed secret',
    async () => {
      const refused = await floe(
        'login wrong password',
        ['login', '--url', ui.url, '--password-stdin'],
        {},
        WRONG_PASSWORD,
      );
      expect(refused.code).toBe(1);
      expectClean(refused, 'login wrong password');
      const login = await floe('login', ['login', '--url', ui.url, '--password-stdin'], {}, `${PASSWORD}\n`);
      expect(login.code, login.stderr).toBe(0);
      expectClean(login, 'login');
      const { session } = loginAccounts(configDir);
      expect(keychain().get(session)).toBeDefined();

      const jobs = await floe('jobs --json', ['jobs', '--json']);
      expect(jobs.code, jobs.stderr).toBe(0);
      const list = JSON.parse(jobs.stdout) as { id: number }[];
      expect(list.length).toBe(6);
      const logs = await floe('jobs logs', ['jobs', 'logs', String(list[0]?.id)]);
      expect(logs.code, logs.stderr).toBe(0);
      const status = await floe('login --status', ['login', '--status']);
      expect(status.code, status.stderr).toBe(0);
      for (const [run, where] of [
        [jobs, 'jobs --json'],
        [logs, 'jobs logs'],
        [status, 'login --status'],
      ] as const)
        expectClean(run, where);

      // push sends the profile's secrets to the OLake UI, and only there.
      for (const profile of ['token', 'oauth2'] as const) {
        const pushed = await floe(`push ${profile}`, ['push', '--profile', `audit-${profile}`]);
        expect(pushed.code, pushed.stderr).toBe(0);
        expectClean(pushed, `push ${profile}`);
      }
      const refusedPush = await floe(
        'push with a rejected token',
        ['push', '--profile', 'audit-token', '--name', 'audit-refused'],
        { FLOE_TOKEN: REJECTED_TOKEN },
      );
      expect(refusedPush.code).toBe(1);
      expectClean(refusedPush, 'push with a rejected token');
      const configs = ui.destinations.map((d) => d.config).join('\n');
      expect(configs).toContain(TOKEN);
      expect(configs).toContain(JSON.stringify(CREDENTIAL).slice(1, -1));

      // An expired session is renewed silently with FLOE_PASSWORD.
      ui.expireSessions();
      const renewed = await floe('jobs --json after expiry', ['jobs', '--json'], { FLOE_PASSWORD: PASSWORD });
      expect(renewed.code, renewed.stderr).toBe(0);
      expectClean(renewed, 'jobs --json after expiry');

      const browser = pty(['jobs']);
      await browser.waitFor(/6 jobs/);
      await send(browser, '\r', /Runs \(\d+\)/);
      await send(browser, '\r', /^(?![\s\S]*[Ll]oading)[\s\S]*Run \d{4}-/);
      await send(browser, '\u001B', /6 jobs/);
      await send(browser, 'R', /6 jobs/);
      await browser.press('q');
      expect(await browser.exit()).toBe(0);
      expectCleanTerminal('jobs browser', browser);

      const logout = await floe('logout', ['logout']);
      expect(logout.code, logout.stderr).toBe(0);
      expectClean(logout, 'logout');
      expect(keychain().get(session)).toBeUndefined();
      expect([...keychain().keys()].filter((account) => account.includes(ui.url))).toEqual([]);
      const after = await floe('login --status after logout', ['login', '--status']);
      expect(after.code).toBe(4);
      expectClean(after, 'login --status after logout');
    },
  );

  withKeychain(
    'import, destinations, pull, jobs show and test, stack, completion, the plain home and the sandbox print no secret',
    async () => {
      const login = await floe(
        'login again',
        ['login', '--url', ui.url, '--password-stdin'],
        {},
        `${PASSWORD}\n`,
      );
      expect(login.code, login.stderr).toBe(0);
      const file = join(root, 'imported-destination.json');
      const exported = await inProcess(['export', '--profile', 'audit-token']);
      expect(exported.code, exported.stderr).toBe(0);
      writeFileSync(file, exported.stdout, { mode: 0o600 });
      // Each command does its work (exit 0), except jobs test: the seeded jobs' catalogs are not the audit's.
      const runs: [string, string[], number][] = [
        ['import', ['import', file, '--profile', 'audit-imported'], 0],
        ['destinations', ['destinations'], 0],
        ['destinations --json', ['destinations', '--json'], 0],
        ['jobs show', ['jobs', 'show', '1'], 0],
        ['jobs show --json', ['jobs', 'show', '1', '--json'], 0],
        ['jobs test', ['jobs', 'test', '1', '--read-only', '--profile', 'audit-token'], 1],
        ['stack', ['stack', '--profile', 'audit-token', '--output', join(root, 'stack')], 0],
        ['completion', ['completion', 'bash'], 0],
        ['secrets', ['secrets'], 0],
        ['secrets --json', ['secrets', '--json'], 0],
        ['home without a terminal', [], 0],
      ];
      for (const [where, args, code] of runs) {
        const run = await floe(where, args);
        expect(run.code, `${where}: ${run.stderr}`).toBe(code);
        expectClean(run, where);
      }
      const listed = JSON.parse((await floe('destinations ids', ['destinations', '--json'])).stdout) as {
        id: number;
      }[];
      expect(listed.length).toBeGreaterThan(0);
      const pulled = await floe('pull', ['pull', String(listed[0]?.id), '--profile', 'audit-pulled']);
      expect(pulled.code, pulled.stderr).toBe(0);
      expectClean(pulled, 'pull');
      // The sandbox runs beside a user's own secrets in the environment: it names none of them.
      const sandbox = spawn(process.execPath, [BIN, 'sandbox'], {
        env: env({ FLOE_TOKEN: TOKEN, FLOE_SECRET_KEY: SECRET_KEY, FLOE_PASSWORD: PASSWORD }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      audited.add('sandbox');
      const output = { stdout: '', stderr: '' };
      sandbox.stdout.on('data', (chunk: Buffer) => {
        output.stdout += chunk.toString();
      });
      sandbox.stderr.on('data', (chunk: Buffer) => {
        output.stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => sandbox.on('exit', resolve));
      await expect.poll(() => output.stdout, { timeout: 30_000 }).toContain('Ctrl-C stops the sandbox');
      sandbox.kill('SIGINT');
      expect(await exited).toBe(130);
      const run = { code: 130, ...output };
      seen.push({ where: 'sandbox stdout', text: run.stdout }, { where: 'sandbox stderr', text: run.stderr });
      expectClean(run, 'sandbox');
      await floe('logout again', ['logout']);
    },
  );

  it('ran every command of the table', () => {
    expect([...Object.keys(COMMANDS), 'home'].filter((command) => !audited.has(command))).toEqual([]);
  });

  withKeychain('no secret anywhere: outputs, screens, config directory, redacted exports', () => {
    const sessions = ui.requests.flatMap(
      (r) => /olake-session=([^;\s]+)/.exec(r.cookie ?? '')?.slice(1) ?? [],
    );
    expect(sessions.length).toBeGreaterThan(0);
    const catalogRequests = [...open.requests, ...bearer.requests, ...signed.requests];
    const issued = catalogRequests.flatMap(
      (r) => /^Bearer (.+)$/.exec(r.headers.authorization ?? '')?.slice(1) ?? [],
    );
    const assertions = catalogRequests.flatMap(
      (r) => new URLSearchParams(r.body).get('assertion')?.split('.').slice(2) ?? [],
    );
    expect(issued.length).toBeGreaterThan(0);
    expect(assertions.length).toBeGreaterThan(0);
    const secrets: Secret[] = [
      ...STATIC_SECRETS,
      ...[...new Set(sessions)].map((value) => ({ name: 'OLake session cookie', value })),
      ...[...new Set(issued)].map((value) => ({ name: 'catalog bearer token', value })),
      ...[...new Set(assertions)].map((value) => ({ name: 'Google JWT assertion signature', value })),
    ];
    // The config directory, and whatever floe wrote under the temporary HOME.
    const config = [...filesUnder(configDir), ...filesUnder(home)];
    expect(config.some((f) => f.where.endsWith('config.json'))).toBe(true);
    const exports = filesUnder(root).filter((f) => redactedFiles.includes(f.where));
    expect(exports.length).toBe(PROFILES.length);
    expect(findLeaks([...seen, ...config, ...exports], secrets)).toEqual([]);
  });
});
