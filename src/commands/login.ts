// floe login: POST /login to the OLake UI, then keep the session cookie in the secret store.

import type { Context } from '../app/context.js';
import { keychainHint, type StorageChoice, type StorageFlags } from '../app/secrets-choice.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, readStdin, UsageError } from '../cli/io.js';
import { line, printJson } from '../cli/output.js';
import { ManagementClient } from '../management/client.js';
import { explained, LOGIN_HINT } from '../management/exit.js';
import {
  backendFor,
  DEFAULT_PROJECT,
  DEFAULT_URL,
  DEFAULT_USERNAME,
  describeStorage,
  loadJar,
  type SessionStorage,
  savedUrl,
  settingsFor,
  storeLogin,
  urlFlag,
} from '../management/session.js';
import { ManagementError } from '../management/types.js';
import { fromEnv } from '../secrets/store.js';
import { keepLogin, passwordWarning, settings, signIn } from './login-session.js';

export const HELP = `Usage: floe login [--url URL] [--username NAME] [--password-stdin] [--remember-password]
       floe login --status [--url URL] [--json]

Logs in to the OLake UI and keeps its session cookie in the OS keychain, so that "floe jobs" and
"floe push" work without asking again. The password is read from a masked prompt, from stdin
(--password-stdin) or from FLOE_PASSWORD; it is never taken as an argument.

Flags:
  --url URL            the OLake UI (default: the last one used, else ${DEFAULT_URL})
  --username NAME      default: the last one used, else "${DEFAULT_USERNAME}"
  --project ID         the project later commands use (default: ${DEFAULT_PROJECT})
  --password-stdin     read the password from stdin
  --remember-password  also keep the password, to log in again silently when the session expires
  --insecure-storage   keep the session in a plaintext file (mode 0600); remembered for this config folder
  --status             check the stored session (GET /auth/check) and say where it is stored
  --json               with --status: the same as JSON on stdout (the exit code is the same)
  --help               this help

Exit codes: 0 ok, 1 failure (e.g. invalid credentials), 2 usage, 4 not logged in (--status).`;

export interface Options extends LoginFlags {
  help: boolean;
  /** --url, checked; default: the saved one. */
  url?: string;
  status: boolean;
  json: boolean;
}

export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('login', argv, {
    url: { type: 'string' },
    username: { type: 'string' },
    project: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    'remember-password': { type: 'boolean' },
    'insecure-storage': { type: 'boolean' },
    status: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (flags.help) return { help: true, status: false, json: false };
  const url = urlFlag(flags.url, 'login');
  if (flags.json && !flags.status)
    throw new UsageError(['--json goes with --status (e.g. floe login --status --json)'], 'login');
  return {
    help: false,
    status: flags.status === true,
    json: flags.json === true,
    url,
    username: flags.username,
    project: flags.project,
    'password-stdin': flags['password-stdin'],
    'remember-password': flags['remember-password'],
    'insecure-storage': flags['insecure-storage'],
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const ctx = await io.openContext();
  const url = options.url ?? savedUrl(ctx);
  if (options.json) return statusJson(io, ctx, url);
  return explained(() => (options.status ? status(io, ctx, url) : login(io, ctx, url, options)));
}

/**
 * --status --json: what --status says, as JSON on stdout, with its exit code (4 not logged in, 1 when
 * the server could not be asked).
 */
async function statusJson(io: Io, ctx: Context, url: string): Promise<number> {
  const settings = settingsFor(ctx, url);
  const base = {
    url,
    username: settings?.username ?? null,
    project: settings?.project ?? null,
    session: settings?.secretStorage ?? 'none',
    where: describeStorage(ctx, settings?.secretStorage),
    passwordRemembered: settings?.rememberPassword ?? false,
  };
  try {
    await explained(() => status(io, ctx, url, true));
    printJson({ ...base, loggedIn: true }, io.out);
    return EXIT.OK;
  } catch (error) {
    const code = error instanceof FloeError ? error.exitCode : EXIT.FAILURE;
    const problem = error instanceof Error ? error.message : String(error);
    printJson({ ...base, loggedIn: false, problem }, io.out);
    return code;
  }
}

async function status(io: Io, ctx: Context, url: string, quiet = false): Promise<number> {
  const settings = settingsFor(ctx, url);
  const backend = backendFor(ctx, settings?.secretStorage);
  const jar = backend && settings ? await loadJar(backend, settings) : undefined;
  if (settings?.secretStorage === 'env')
    throw new FloeError(
      `floe keeps no session for ${url}: you chose not to store it.`,
      'Commands log in with FLOE_PASSWORD; run "floe login" to choose again.',
      EXIT.AUTH,
    );
  if (!settings || !jar)
    throw new FloeError(`Not logged in to ${url} (no stored session).`, LOGIN_HINT, EXIT.AUTH);
  const client = new ManagementClient({ url, jar, env: io.env });
  try {
    if (!(await client.authCheck())) {
      if (await sessionsOff(client, settings.project)) {
        if (quiet) return EXIT.OK;
        io.out`✓ ${url} runs with sessions switched off (SESSION_ON=false): its /auth/check always answers 401, while API calls work without a session.`;
        io.out`  Pausing, resuming and creating destinations need sessions on.`;
        return EXIT.OK;
      }
      throw new FloeError(`The stored session for ${url} has expired or was revoked.`, LOGIN_HINT, EXIT.AUTH);
    }
  } finally {
    await client.close();
  }
  if (quiet) return EXIT.OK;
  io.out`✓ Logged in to ${url} as ${settings.username ?? DEFAULT_USERNAME} (project ${settings.project}).`;
  io.out`  Session ${describeStorage(ctx, settings.secretStorage)}.`;
  io.out`  Password ${settings.rememberPassword ? 'remembered for silent re-login' : 'not remembered'}.`;
  return EXIT.OK;
}

/**
 * With SESSION_ON=false the middleware lets every call through but /auth/check answers 401
 * (olake-ui `handlers/middleware.go`, `handlers/auth.go`): an API call that works tells them apart.
 */
async function sessionsOff(client: ManagementClient, project: string): Promise<boolean> {
  try {
    await client.listJobs(project);
    return true;
  } catch (error) {
    if (error instanceof ManagementError && error.kind === 'unauthorized') return false;
    throw error;
  }
}

interface LoginFlags extends StorageFlags {
  username?: string;
  project?: string;
  'password-stdin'?: boolean;
  'remember-password'?: boolean;
}

async function readPassword(
  io: Io,
  flags: LoginFlags,
  username: string,
  url: string,
): Promise<{ password: string; typed: boolean }> {
  if (flags['password-stdin']) {
    const password = await readStdin('--password-stdin', undefined, io.stdin);
    if (!password) throw new UsageError(['--password-stdin: stdin was empty'], 'login');
    return { password, typed: false };
  }
  const fromEnvironment = fromEnv('FLOE_PASSWORD', io.env);
  if (fromEnvironment) return { password: fromEnvironment, typed: false };
  if (!io.canPrompt())
    throw new UsageError(
      ['no password: pipe it in with --password-stdin, or set FLOE_PASSWORD (no terminal to ask on)'],
      'login',
    );
  const password = await io.prompter.password(line`Password for ${username} at ${url}: `);
  if (!password) throw new FloeError('No password given.');
  return { password, typed: true };
}

async function fallbackStorage(
  io: Io,
  reason: string,
  ctx: Context,
  choice: StorageChoice,
): Promise<SessionStorage> {
  io.err`The OS keychain cannot be used: ${reason}`;
  if (!io.canPrompt()) throw new FloeError('The session was not stored.', keychainHint(choice, false));
  const answer = await io.prompter.choice(
    line`Where should floe keep the OLake UI session?`,
    [
      { key: 'file', label: `In a plaintext file (${ctx.vault.backend('file').location}, mode 0600)` },
      { key: 'env', label: "Don't store it: this run only (set FLOE_PASSWORD to log in on each run)" },
      { key: 'cancel', label: 'Cancel' },
    ],
    'env',
  );
  if (answer === 'cancel') throw new FloeError('Cancelled; nothing was stored.', undefined, EXIT.INTERRUPTED);
  return answer;
}

async function login(io: Io, ctx: Context, url: string, flags: LoginFlags): Promise<number> {
  const previous = settingsFor(ctx, url);
  const username = flags.username ?? previous?.username ?? DEFAULT_USERNAME;
  const project = flags.project ?? previous?.project ?? DEFAULT_PROJECT;
  const { password, typed } = await readPassword(io, flags, username, url);
  const clear = passwordWarning(url);
  if (clear) io.err`! ${clear}`;

  const session = await signIn(
    url,
    username,
    password,
    'Check the username (--username) and the password.',
    io.env,
  );
  // The session (with the password when it is remembered) and the settings are stored as one switch: a
  // run stopped at any point leaves the previous login whole, or this one.
  const login = {
    url,
    username,
    project,
    session,
    password,
    remember: Boolean(flags['remember-password'] || previous?.rememberPassword),
  };
  const { storage } = await keepLogin(
    ctx,
    login,
    flags,
    (reason, choice) => fallbackStorage(io, reason, ctx, choice),
    io.env,
  );
  let remember = login.remember;
  if (storage === 'file')
    io.err`! The session is stored in plain text in ${ctx.vault.backend('file').location} (mode 0600).`;
  if (remember && storage === 'env') {
    io.err`The password is not remembered: the session is not stored either.`;
    remember = false;
  }
  if (!remember && typed && storage !== 'env') {
    remember = await io.prompter.confirm(
      line`Keep the password too, to log in again silently when the session expires?`,
    );
    if (remember) await storeLogin(ctx, settings(login, storage, true), login);
  }

  io.out`✓ Logged in to ${url} as ${username}. Session ${describeStorage(ctx, storage)}${remember ? '; password remembered for silent re-login' : ''}.`;
  if (storage === 'env') io.out`  Later commands need FLOE_PASSWORD (or "floe login" again) to log in.`;
  return EXIT.OK;
}
