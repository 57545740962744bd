// The sandbox as a demo: what `floe sandbox` prints (banner, the lines to paste, the home screen's
// facts with the log), the sandbox profile as flags and FLOE_* variables, the login --open stores, and
// the throwaway keychain it stores under. Domain code: the command (commands/sandbox.ts) prints these.
import { applicableFields, type FieldId } from '../destination/fields.js';
import { PRESETS } from '../destination/presets.js';
import { ManagementClient } from '../management/client.js';
import { type Context, jarText, type SessionStorage, storeLogin } from '../management/session.js';
import { keychainBackend, noSessionBus } from '../secrets/keychain.js';
import { KeychainUnavailableError, type SecretBackend } from '../secrets/store.js';
import { STORAGE_EMULATOR_ENV } from '../storage/gcs.js';
import { reflow } from '../text/reflow.js';
import { SANDBOX, type Sandbox, sandboxValues } from './index.js';

export const PROFILE = 'sandbox';
/** The keychain service --open stores under: never floe's own, so nothing of the user's is replaced. */
export const DEMO_KEYCHAIN_SERVICE = 'floe-sandbox';
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

/**
 * Logs in to the OLake UI emulator as "floe login" does: the session (and the password, for silent
 * re-login) in the keychain, else only in this process, through FLOE_PASSWORD.
 */
export async function prepareSession(
  ctx: Context,
  sandbox: Sandbox,
  env: NodeJS.ProcessEnv,
): Promise<{ storage: SessionStorage; reason?: string }> {
  const { username, password, project } = SANDBOX.olake;
  const client = new ManagementClient({ url: sandbox.olake.url, env });
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
export function usageLines(sandbox: Sandbox, floe: string, keychain = !noKeychain()): string {
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
