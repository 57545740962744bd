// floe sandbox: a REST catalog, an S3-compatible store and the OLake UI on loopback, to try floe
// without any infrastructure. With --open, a ready "sandbox" profile and OLake UI session, then the
// home screen in this process; the sandbox stops when the home screen is left.

import { join } from 'node:path';
import type { Context } from '../cli/context.js';
import { openContext } from '../cli/context.js';
import { floeCommand } from '../cli/invocation.js';
import { canPrompt, EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { block, err, out, printHelp } from '../cli/output.js';
import { saveProfile } from '../cli/profiles.js';
import { applicableFields, type FieldId } from '../destination/fields.js';
import { PRESETS } from '../destination/presets.js';
import { ManagementClient } from '../management/client.js';
import type { SessionStorage } from '../management/session.js';
import { jarText, storeLogin } from '../management/session.js';
import {
  CATALOG_FLAVOURS,
  type CatalogFlavour,
  DEFAULT_GCS_PORT,
  DEFAULT_JOBS,
  DEFAULT_PORTS,
  PortBusyError,
  PRIVILEGES,
  type Privilege,
  SANDBOX,
  type Sandbox,
  type SandboxPorts,
  sandboxValues,
  startSandbox,
} from '../sandbox/index.js';
import { keychainBackend, noSessionBus } from '../secrets/keychain.js';
import { KeychainUnavailableError, type SecretBackend } from '../secrets/store.js';
import { STORAGE_EMULATOR_ENV } from '../storage/gcs.js';
import { reflow } from '../text/reflow.js';

export const PROFILE = 'sandbox';
/** The keychain service --open stores under: never floe's own, so nothing of the user's is replaced. */
export const DEMO_KEYCHAIN_SERVICE = 'floe-sandbox';
/** The catalog flavour `floe sandbox` serves unless --catalog says otherwise: the most common real server. */
export const DEFAULT_FLAVOUR: CatalogFlavour = 'polaris';

export const HELP = `Usage: floe sandbox [--catalog FLAVOUR] [--deny PRIVILEGES] [--open] [--jobs N]
                    [--ports BASE | --port-catalog N --port-olake N --port-s3 N] [--verbose]

Starts, on 127.0.0.1, an Iceberg REST-catalog emulator (port ${DEFAULT_PORTS.catalog}), an S3-compatible object store
(s3rver, port ${DEFAULT_PORTS.s3}) and an OLake UI emulator (port ${DEFAULT_PORTS.olake}), then prints their addresses and
credentials: sandbox credentials, not secrets. A busy default port is replaced by the next free one,
and the banner says so; a port given with a flag is taken or the start fails. Objects and the key
file live in a temporary directory. Every request the emulators answer and every error they fail
with goes to the sandbox's log: the home screen shows it (s, with --open), --verbose prints it.

The catalog behaves like one real server, as strict as it is: Apache Polaris by default (warehouse
= catalog name, OAuth2 with scope PRINCIPAL_ROLE:ALL). --catalog picks another: lakekeeper, nessie
(OAuth2 through an identity-provider token URL), unity (bearer token), glue, s3tables (SigV4 with
the object store's keys), biglake (a Google service-account key file it writes; the data in a
Cloud Storage emulator, port ${DEFAULT_GCS_PORT}, that floe reaches through STORAGE_EMULATOR_HOST), or
rest, a generic catalog that takes OAuth2, a bearer token, SigV4 and a Google service-account key
file it writes. s3rver does not verify signatures: its access key is
S3RVER, and any secret key works. Tables created through the catalog get their metadata files in
the object store's bucket.

Flags:
  --catalog FLAVOUR
             the server the catalog behaves like (default ${DEFAULT_FLAVOUR}):
             ${CATALOG_FLAVOURS.join(', ')}
  --deny PRIVILEGES
             the catalog refuses these operations as the real server refuses a
             principal without the grant; comma-separated, from:
             ${PRIVILEGES.slice(0, 4).join(', ')},
             ${PRIVILEGES.slice(4).join(', ')}
  --open     also create the profile "sandbox" and log in to the OLake UI, then open the home
             screen; leaving it stops the sandbox (needs a terminal). It all happens in a throwaway
             config folder and keychain service "${DEMO_KEYCHAIN_SERVICE}" (else this process's FLOE_*
             variables), removed on quit: your own profiles and OLake UI login stay as they were
  --jobs N   how many jobs the OLake UI emulator holds (default ${DEFAULT_JOBS})
  --ports BASE
             the catalog on BASE, the OLake UI on BASE+1, the object store on BASE+2
  --port-catalog N, --port-olake N, --port-s3 N
             one service's port (wins over --ports)
  --verbose  print the log as it grows (with --open: once the home screen is left)
  --help     this help

Without --open it serves until Ctrl-C (exit code 130; 143 on SIGTERM). Stopping it in any way
removes its temporary data. Exit codes: 0 ok (--open: the home screen was left), 1 failure,
2 usage, 130 interrupted.`;

/**
 * The profile's secrets as the FLOE_* variables floe reads at run time; with BigLake's Cloud Storage
 * emulator, also STORAGE_EMULATOR_HOST (where floe's GCS client then goes).
 */
export function sandboxSecretEnv(sandbox: Sandbox, omit: FieldId[] = []): Record<string, string> {
  const values = sandboxValues(sandbox);
  const env: Record<string, string> = sandbox.gcs ? { [STORAGE_EMULATOR_ENV]: sandbox.gcs.url } : {};
  for (const def of applicableFields(values))
    if (def.secret && def.env && !omit.includes(def.id) && typeof values.fields[def.id] === 'string')
      env[def.env] = values.fields[def.id] as string;
  return env;
}

/** `floe setup` arguments (after "setup") that create the sandbox profile with the secrets from the env. */
export function setupArgs(sandbox: Sandbox): string[] {
  const values = sandboxValues(sandbox);
  const args = ['--profile', PROFILE, '--yes', '--preset', values.preset, '--auth-type', values.authType];
  for (const def of applicableFields(values)) {
    const value = values.fields[def.id];
    if (def.secret || !def.flag || value === undefined || value === false) continue;
    if (PRESETS[values.preset].forced?.[def.id] !== undefined) continue;
    args.push(`--${def.flag}`, ...(value === true ? [] : [String(value)]));
  }
  return [...args, '--storage', values.storage];
}

/** Where the profile's secrets went: the keychain, or the throwaway config folder's 0600 file. */
export type SecretsPlace = 'keychain' | 'file';

/**
 * Creates or updates the "sandbox" profile; without a keychain, its secrets go to the secrets file of
 * the throwaway config folder (sandbox credentials, removed on quit). No FLOE_* variable is set: they
 * would slip into every other profile made or tested in the demo.
 */
export async function prepareProfile(
  ctx: Context,
  sandbox: Sandbox,
): Promise<{ secrets: SecretsPlace; reason?: string }> {
  const values = sandboxValues(sandbox);
  try {
    await saveProfile(ctx, PROFILE, values, 'keychain');
    return { secrets: 'keychain' };
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    await saveProfile(ctx, PROFILE, values, 'file');
    return { secrets: 'file', reason: error.reason };
  }
}

/**
 * Logs in to the OLake UI emulator as "floe login" does: the session (and the password, for silent
 * re-login) in the keychain, else only in this process, through FLOE_PASSWORD.
 */
export async function prepareSession(
  ctx: Context,
  sandbox: Sandbox,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ storage: SessionStorage; reason?: string }> {
  const { username, password, project } = SANDBOX.olake;
  const client = new ManagementClient({ url: sandbox.olake.url });
  const url = sandbox.olake.url;
  let storage: SessionStorage = 'keychain';
  let reason: string | undefined;
  try {
    await client.login(username, password);
    const secrets = { session: await jarText(client.jar), password };
    try {
      await storeLogin(
        ctx,
        { url, username, project, secretStorage: 'keychain', rememberPassword: true },
        secrets,
      );
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      storage = 'env';
      reason = error.reason;
      env.FLOE_PASSWORD = password;
      await storeLogin(
        ctx,
        { url, username, project, secretStorage: 'env', rememberPassword: false },
        secrets,
      );
    }
  } finally {
    await client.close();
  }
  return reason === undefined ? { storage } : { storage, reason };
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/** The catalog's lines of the banner: its flavour's warehouse, prefix and credentials. */
function catalogLines(sandbox: Sandbox): string[] {
  const { catalog } = sandbox;
  const { facts } = catalog;
  const lines = [
    `REST catalog   ${catalog.url}`,
    `  behaves like ${facts.title}`,
    ...(catalog.deny.length
      ? [`  denied       ${catalog.deny.join(', ')} (refused like the real server)`]
      : []),
    `  warehouse    ${facts.warehouse} (data location ${facts.dataLocation})`,
    `  config       ${facts.prefix}`,
    '  namespaces   default, olake, olake.staging',
  ];
  if (facts.auth === 'oauth2')
    lines.push(
      `  OAuth2       token URI ${catalog.tokenUrl}`,
      `               credential ${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
      `               scope ${facts.scope}`,
    );
  if (catalog.flavour === 'rest' || facts.auth === 'token')
    lines.push(`  Bearer       token ${SANDBOX.token}`);
  if (catalog.serviceAccountFile !== undefined)
    lines.push(`  Google       service-account key file ${catalog.serviceAccountFile}`);
  if (facts.auth === 'google') lines.push(`               project ${SANDBOX.google.projectId}`);
  if (catalog.flavour === 'rest' || facts.auth === 'sigv4')
    lines.push(
      `  SigV4        signing name ${facts.signingName ?? SANDBOX.sigv4.signingName}, signing region ${SANDBOX.region}`,
      `               with the object store's keys (OLake signs with the storage keys)`,
    );
  return lines;
}

/** The endpoints and credentials. */
export function banner(sandbox: Sandbox, jobs: number): string {
  const { s3, olake } = sandbox;
  const lines = [
    'floe sandbox: local services on 127.0.0.1 (sandbox credentials, not secrets)',
    ...sandbox.notices.map((notice) => `! ${notice}`),
    '',
    ...catalogLines(sandbox),
    ...(sandbox.gcs
      ? [
          `GCS            ${sandbox.gcs.url} (as ${STORAGE_EMULATOR_ENV})`,
          `  bucket       "${SANDBOX.bucket}", the catalog's data (the key above reads it)`,
        ]
      : []),
    `Object store   ${s3.url} (s3rver, path style)`,
    `  bucket       "${s3.bucket}", region ${SANDBOX.region}`,
    `  keys         access key ${s3.accessKey}, secret key ${s3.secretKey}`,
    '               s3rver does not verify signatures: any secret key works',
    ...(sandbox.tables
      ? [
          `Tables         namespace ${sandbox.tables.namespace.join('.')}: the jobs' streams, written in the`,
          '               background (about 20 s); see them with floe tables',
        ]
      : []),
    `OLake UI       ${olake.url}`,
    `  login        ${SANDBOX.olake.username} / ${SANDBOX.olake.password}, project ${SANDBOX.olake.project}, ${jobs} jobs`,
    'Data           removed when the sandbox stops, in',
    `               ${sandbox.directory}`,
  ];
  // 80 columns: a long value continues under its column (a single word longer than that keeps its line).
  return lines.map((line) => reflow(line)).join('\n');
}

/**
 * Shell words as `--flag value` pairs, lines continued with ` \\` within 80 columns: the first line after
 * `first` columns, the others after `indent`. A pair too long for a line is split between flag and value.
 */
function wrapArgs(words: string[], indent: number, first = indent): string {
  const parts: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (word.startsWith('--') && next !== undefined && !next.startsWith('--')) {
      parts.push(`${word} ${next}`);
      i++;
    } else parts.push(word);
  }
  const room = 78 - indent;
  const lines: string[] = [];
  let line = '';
  let budget = 78 - first;
  for (const part of parts.flatMap((p) => (p.length > room ? p.split(' ') : [p]))) {
    if (line && line.length + 1 + part.length > budget) {
      lines.push(line);
      line = part;
      budget = room;
    } else line = line ? `${line} ${part}` : part;
  }
  return [...lines, line].join(` \\\n${' '.repeat(indent)}`);
}

/**
 * Whether this host has no OS keychain to ask: Linux without a D-Bus session bus (SSH, containers). The
 * lines to paste then store the sandbox's credentials in floe's 0600 file, or they would fail as printed.
 */
export function noKeychain(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  return noSessionBus(env, platform);
}

/**
 * How to point floe at a running sandbox from another terminal; `floe` is the command that runs it here,
 * `keychain` whether this host has one (else the setup line stores the credentials in a 0600 file).
 */
export function usageLines(sandbox: Sandbox, floe: string = floeCommand(), keychain = !noKeychain()): string {
  // BigLake's key goes in as its file (a JSON of many lines), and every floe needs STORAGE_EMULATOR_HOST.
  const keyFile = sandbox.catalog.facts.auth === 'google' ? sandbox.catalog.serviceAccountFile : undefined;
  const env = sandboxSecretEnv(sandbox, keyFile ? ['gcpServiceAccountJson'] : []);
  const assignments = Object.entries(env)
    .filter(([k]) => k !== STORAGE_EMULATOR_ENV)
    .map(([k, v]) => `${k}=${quote(v)}`);
  const args = [
    ...setupArgs(sandbox),
    ...(keyFile ? ['--gcp-service-account-file', keyFile] : []),
    ...(keychain ? [] : ['--insecure-storage']),
  ];
  const setup = `${assignments.length ? '    ' : '  '}${floe} setup `;
  return [
    'Point floe at it (from another terminal):',
    ...(sandbox.gcs ? [`  export ${STORAGE_EMULATOR_ENV}=${sandbox.gcs.url}`] : []),
    ...(assignments.length ? [`  ${wrapArgs(assignments, 2)} \\`] : []),
    `${setup}${wrapArgs(args.map(quote), 6, setup.length)}`,
    `  ${floe} test --profile ${PROFILE}`,
    `  ${floe} login --url ${sandbox.olake.url}${keychain ? '        ' : ' --insecure-storage '}(password: ${SANDBOX.olake.password})`,
    `  ${floe} jobs`,
    '',
    'Ctrl-C stops the sandbox and removes its data.',
  ].join('\n');
}

function flavourOf(raw: string | undefined): CatalogFlavour {
  if (raw === undefined) return DEFAULT_FLAVOUR;
  const flavour = CATALOG_FLAVOURS.find((f) => f === raw);
  if (flavour === undefined)
    throw new UsageError(
      [`--catalog must be one of ${CATALOG_FLAVOURS.join(', ')}, not "${raw}" (e.g. --catalog polaris)`],
      'sandbox',
    );
  return flavour;
}

function deniedPrivileges(raw: string | undefined): Privilege[] {
  if (raw === undefined) return [];
  const given = raw.split(',').map((part) => part.trim());
  const wrong = given.filter((part) => !PRIVILEGES.some((p) => p === part));
  if (wrong.length || !given.length)
    throw new UsageError(
      [
        `--deny must be a comma-separated list of ${PRIVILEGES.join(', ')}, not "${wrong.join(',') || raw}" (e.g. --deny create-table,write-data)`,
      ],
      'sandbox',
    );
  return [...new Set(given as Privilege[])];
}

type Service = 'catalog' | 'olake' | 's3';
const PORT_FLAGS: Record<Service, string> = { catalog: 'port-catalog', olake: 'port-olake', s3: 'port-s3' };
const PORT_ORDER: Service[] = ['catalog', 'olake', 's3'];

function portNumber(flag: string, raw: string, max: number, example: number): number {
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(port >= 1 && port <= max))
    throw new UsageError(
      [`--${flag} must be a port number from 1 to ${max}, not "${raw}" (e.g. --${flag} ${example})`],
      'sandbox',
    );
  return port;
}

/** The ports the flags name (each then taken exactly), else undefined: the defaults. */
export function portsOf(
  flags: Partial<Record<'ports' | `port-${string}`, string>>,
): SandboxPorts | undefined {
  const ports: SandboxPorts = { exact: [] };
  if (flags.ports !== undefined) {
    const base = portNumber('ports', flags.ports, 65535 - 2, 8181);
    PORT_ORDER.forEach((service, i) => {
      ports[service] = base + i;
      ports.exact?.push(service);
    });
  }
  for (const service of PORT_ORDER) {
    const raw = flags[PORT_FLAGS[service] as `port-${string}`];
    if (raw === undefined) continue;
    ports[service] = portNumber(PORT_FLAGS[service], raw, 65535, DEFAULT_PORTS[service]);
    if (!ports.exact?.includes(service)) ports.exact?.push(service);
  }
  if (!ports.exact?.length) return undefined;
  for (const [i, a] of PORT_ORDER.entries())
    for (const b of PORT_ORDER.slice(i + 1))
      if (ports[a] !== undefined && ports[a] === ports[b])
        throw new UsageError(
          [
            `--${PORT_FLAGS[a]} and --${PORT_FLAGS[b]} must differ, not both ${ports[a]} (e.g. --ports 8181 for 8181, 8182 and 8183)`,
          ],
          'sandbox',
        );
  return ports;
}

function jobCount(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_JOBS;
  if (!/^\d{1,6}$/.test(raw))
    throw new UsageError([`--jobs must be a whole number, not "${raw}"`], 'sandbox');
  return Number(raw);
}

export async function run(argv: string[]): Promise<number> {
  const { values: flags } = parseCommandArgs('sandbox', argv, {
    open: { type: 'boolean' },
    jobs: { type: 'string' },
    catalog: { type: 'string' },
    deny: { type: 'string' },
    ports: { type: 'string' },
    'port-catalog': { type: 'string' },
    'port-olake': { type: 'string' },
    'port-s3': { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (flags.help) {
    printHelp(HELP);
    return EXIT.OK;
  }
  const jobs = jobCount(flags.jobs);
  const catalog = flavourOf(flags.catalog);
  const deny = deniedPrivileges(flags.deny);
  const ports = portsOf(flags);
  if (flags.open && !canPrompt())
    throw new UsageError(
      [
        `--open needs a terminal (it opens the home screen); without one, run "${floeCommand()} sandbox" and point floe at it`,
      ],
      'sandbox',
    );

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ jobs, catalog, deny, tables: true, ...(ports ? { ports } : {}) });
  } catch (error) {
    if (!(error instanceof PortBusyError)) throw error;
    throw new FloeError(
      `--${PORT_FLAGS[error.service]} ${error.port}: ${error.message} (another program listens there)`,
      `Pick a free one, e.g. --${PORT_FLAGS[error.service]} ${error.port + 100}, or leave the flag out for the default.`,
    );
  }
  const following = flags.verbose && !flags.open ? sandbox.log.follow((line) => err`${line}`) : undefined;
  // SIGINT/SIGTERM end the process from src/cli/main.ts (exit 130/143); the sandbox's exit hook then
  // removes its data, and this one says so.
  const goodbye = () => err`\nSandbox stopped; its temporary data was removed.`;
  process.once('exit', goodbye);
  try {
    out`${block(banner(sandbox, jobs))}\n`;
    void sandbox.tables?.done.then(({ error }) => {
      if (error !== undefined) err`! The demo tables could not be seeded: ${error}`;
    });
    // BigLake's data is in the Cloud Storage emulator: this process's floe (--open's home screen, the
    // OLake UI emulator's destination test) goes there too.
    if (sandbox.gcs) process.env[STORAGE_EMULATOR_ENV] = sandbox.gcs.url;
    if (!flags.open) {
      out`${block(usageLines(sandbox))}`;
      return await new Promise<never>(() => {});
    }
    return await openHome(sandbox, jobs);
  } finally {
    following?.();
    if (flags.verbose && flags.open) err`${block(['Sandbox log:', ...sandbox.log.lines()].join('\n'))}`;
    process.off('exit', goodbye);
    await sandbox.stop();
    goodbye();
  }
}

/**
 * A keychain backend that remembers every account it stored, so that `forget` removes exactly those
 * (an unreachable keychain has nothing to forget).
 */
export function throwawayKeychain(
  inner: SecretBackend = keychainBackend(DEMO_KEYCHAIN_SERVICE),
): SecretBackend & { forget(): Promise<void> } {
  const stored = new Set<string>();
  return {
    kind: inner.kind,
    location: inner.location,
    get: (account) => inner.get(account),
    async set(account, value) {
      stored.add(account);
      await inner.set(account, value);
    },
    delete: (account) => inner.delete(account),
    async forget() {
      for (const account of stored) {
        try {
          await inner.delete(account);
        } catch (error) {
          if (!(error instanceof KeychainUnavailableError)) throw error;
        }
      }
      stored.clear();
    },
  };
}

/**
 * The home screen on the sandbox, in a throwaway setup: a config folder inside the sandbox's data
 * (removed with it) and keychain entries under DEMO_KEYCHAIN_SERVICE, removed here on quit.
 */
async function openHome(sandbox: Sandbox, jobs: number): Promise<number> {
  process.env.FLOE_CONFIG_DIR = join(sandbox.directory, 'config');
  const keychain = throwawayKeychain();
  try {
    return await prepareAndOpenHome(await openContext({ keychain }), sandbox, jobs);
  } finally {
    await keychain.forget();
  }
}

async function prepareAndOpenHome(ctx: Context, sandbox: Sandbox, jobs: number): Promise<number> {
  const profile = await prepareProfile(ctx, sandbox);
  const session = await prepareSession(ctx, sandbox);
  const reason = profile.reason ?? session.reason;
  const lines = [
    'This run has its own config folder and keychain entries, removed when you quit: your',
    'own profiles and OLake UI login stay as they were.',
    ...(reason === undefined ? [] : [`! The OS keychain cannot be used: ${reason}`]),
    profile.secrets === 'keychain'
      ? `✓ Profile "${PROFILE}" saved, its secrets in the OS keychain.`
      : `✓ Profile "${PROFILE}" saved, its secrets in this run's own file (mode 0600), removed on quit.`,
    session.storage === 'keychain'
      ? `✓ Logged in to the OLake UI as ${SANDBOX.olake.username}, the session in the OS keychain.`
      : `  Logged in to the OLake UI as ${SANDBOX.olake.username} for this run only (FLOE_PASSWORD is\n` +
        '  set in this process).',
  ];
  out`${block(lines.join('\n'))}`;
  const home = await import('./home.js');
  return home.run([], { facts: () => factsWithLog(sandbox, jobs) });
}

/** How many of the log's latest lines the home screen's sandbox view shows. */
const SHOWN_LOG_LINES = 200;

/** The banner, then the log's latest lines (newest last). */
export function factsWithLog(sandbox: Sandbox, jobs: number): string {
  const lines = sandbox.log.lines().slice(-SHOWN_LOG_LINES);
  return [
    banner(sandbox, jobs),
    '',
    lines.length ? `Log (requests and errors, newest last; --verbose prints it):` : 'Log: no requests yet.',
    ...lines,
  ].join('\n');
}
