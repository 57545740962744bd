// floe sandbox: a REST catalog, an S3-compatible store and the OLake UI on loopback, to try floe
// without any infrastructure. With --open, a ready "sandbox" profile and OLake UI session, then the
// home screen in this process; the sandbox stops when the home screen is left.

import { join } from 'node:path';
import type { Context } from '../app/context.js';
import { saveProfile } from '../app/profiles.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { floeCommand } from '../cli/invocation.js';
import { FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { block } from '../cli/output.js';
import {
  banner,
  DEMO_KEYCHAIN_SERVICE,
  factsWithLog,
  noKeychain,
  PROFILE,
  prepareSession,
  throwawayKeychain,
  usageLines,
} from '../sandbox/demo.js';
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
import { KeychainUnavailableError } from '../secrets/store.js';
import { STORAGE_EMULATOR_ENV } from '../storage/gcs.js';
import type { HomeCommands } from './home.js';

/** The catalog flavour `floe sandbox` serves unless --catalog says otherwise: the most common real server. */
export const DEFAULT_FLAVOUR: CatalogFlavour = 'polaris';

export const HELP = `Usage: floe sandbox [--catalog FLAVOUR] [--deny PRIVILEGES] [--open] [--jobs N]
                    [--ports BASE | --port-catalog N --port-olake N --port-s3 N] [--no-tables]
                    [--verbose]

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
  --no-tables
             do not write the demo tables (six tables named after the jobs' streams, written in
             the background after the start, for floe tables): a lighter, quicker sandbox
  --ports BASE
             the catalog on BASE, the OLake UI on BASE+1, the object store on BASE+2
  --port-catalog N, --port-olake N, --port-s3 N
             one service's port (wins over --ports)
  --verbose  print the log as it grows (with --open: once the home screen is left)
  --help     this help

Without --open it serves until Ctrl-C (exit code 130; 143 on SIGTERM). Stopping it in any way
removes its temporary data. Exit codes: 0 ok (--open: the home screen was left), 1 failure,
2 usage, 130 interrupted.`;

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

export interface Options {
  help: boolean;
  open: boolean;
  verbose: boolean;
  jobs: number;
  /** Whether the demo tables are written (not with --no-tables). */
  tables: boolean;
  catalog: CatalogFlavour;
  deny: Privilege[];
  /** The ports the flags name (each then taken exactly); undefined: the defaults. */
  ports?: SandboxPorts;
}

export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('sandbox', argv, {
    open: { type: 'boolean' },
    jobs: { type: 'string' },
    'no-tables': { type: 'boolean' },
    catalog: { type: 'string' },
    deny: { type: 'string' },
    ports: { type: 'string' },
    'port-catalog': { type: 'string' },
    'port-olake': { type: 'string' },
    'port-s3': { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  const base = { open: flags.open === true, verbose: flags.verbose === true, tables: !flags['no-tables'] };
  if (flags.help) return { ...base, help: true, jobs: DEFAULT_JOBS, catalog: DEFAULT_FLAVOUR, deny: [] };
  const jobs = jobCount(flags.jobs);
  const catalog = flavourOf(flags.catalog);
  const deny = deniedPrivileges(flags.deny);
  const ports = portsOf(flags);
  return { ...base, help: false, jobs, catalog, deny, ...(ports ? { ports } : {}) };
}

/** Serves until Ctrl-C, or with --open runs the home screen (on `commands`, main's table) until it is left. */
export async function run(flags: Options, io: Io, commands: HomeCommands): Promise<number> {
  if (flags.help) return showHelp(HELP, io);
  const { jobs, catalog, deny, ports, tables } = flags;
  if (flags.open && !io.canPrompt())
    throw new UsageError(
      [
        `--open needs a terminal (it opens the home screen); without one, run "${floeCommand(io.env)} sandbox" and point floe at it`,
      ],
      'sandbox',
    );

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ jobs, catalog, deny, tables, ...(ports ? { ports } : {}) });
  } catch (error) {
    if (!(error instanceof PortBusyError)) throw error;
    throw new FloeError(
      `--${PORT_FLAGS[error.service]} ${error.port}: ${error.message} (another program listens there)`,
      `Pick a free one, e.g. --${PORT_FLAGS[error.service]} ${error.port + 100}, or leave the flag out for the default.`,
    );
  }
  const following = flags.verbose && !flags.open ? sandbox.log.follow((line) => io.err`${line}`) : undefined;
  // SIGINT/SIGTERM end the process from src/cli/main.ts (exit 130/143); the sandbox's exit hook then
  // removes its data, and this one says so.
  const goodbye = () => io.err`\nSandbox stopped; its temporary data was removed.`;
  process.once('exit', goodbye);
  try {
    io.out`${block(banner(sandbox, jobs))}\n`;
    void sandbox.tables?.done.then(({ error }) => {
      if (error !== undefined) io.err`! The demo tables could not be seeded: ${error}`;
    });
    // BigLake's data is in the Cloud Storage emulator: this process's floe (--open's home screen, the
    // OLake UI emulator's destination test) goes there too.
    if (sandbox.gcs) io.env[STORAGE_EMULATOR_ENV] = sandbox.gcs.url;
    if (!flags.open) {
      io.out`${block(usageLines(sandbox, floeCommand(io.env), !noKeychain(io.env)))}`;
      return await new Promise<never>(() => {});
    }
    return await openHome(io, commands, sandbox, jobs);
  } finally {
    following?.();
    if (flags.verbose && flags.open) io.err`${block(['Sandbox log:', ...sandbox.log.lines()].join('\n'))}`;
    process.off('exit', goodbye);
    await sandbox.stop();
    goodbye();
  }
}

/**
 * The home screen on the sandbox, in a throwaway setup: a config folder inside the sandbox's data
 * (removed with it) and keychain entries under DEMO_KEYCHAIN_SERVICE, removed here on quit.
 */
async function openHome(io: Io, commands: HomeCommands, sandbox: Sandbox, jobs: number): Promise<number> {
  io.env.FLOE_CONFIG_DIR = join(sandbox.directory, 'config');
  const keychain = throwawayKeychain();
  try {
    return await prepareAndOpenHome(io, commands, await io.openContext({ keychain }), sandbox, jobs);
  } finally {
    await keychain.forget();
  }
}

async function prepareAndOpenHome(
  io: Io,
  commands: HomeCommands,
  ctx: Context,
  sandbox: Sandbox,
  jobs: number,
): Promise<number> {
  const profile = await prepareProfile(ctx, sandbox);
  const session = await prepareSession(ctx, sandbox, io.env);
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
  io.out`${block(lines.join('\n'))}`;
  const home = await import('./home.js');
  return home.run({ facts: () => factsWithLog(sandbox, jobs) }, io, commands);
}
