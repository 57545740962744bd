// The home screen's data and state (no React): the profiles as rows, the management login, and the
// reducer for selection, the new-profile name prompt and the delete confirmation.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Context } from '../../app/context.js';
import { deleteProfile as deleteStoredProfile } from '../../app/profiles.js';
import { PROFILE_NAME, profileValues, type StoredProfile } from '../../config/store.js';
import { AUTH_TYPE_INFO, applicableFields } from '../../destination/fields.js';
import { sanitize } from '../../text/sanitize.js';

export interface ProfileRow {
  name: string;
  authType: string;
  authLabel: string;
  catalogUrl: string;
  /** Short: keychain, file, env or none. */
  secrets: string;
  /** One sentence: where this profile's secrets live. */
  secretsDetail: string;
}

function secretsOf(
  stored: StoredProfile,
  secretsPath: string,
): Pick<ProfileRow, 'secrets' | 'secretsDetail'> {
  if (stored.secretStorage === 'env') {
    const values = profileValues(stored);
    const secret = applicableFields(values).filter((def) => def.secret && def.env);
    const required = secret.filter((def) => def.required(values)).map((def) => def.env);
    const optional = secret.filter((def) => !def.required(values)).map((def) => def.env);
    const detail = [
      required.length > 0 ? `read from ${required.join(', ')} at run time` : 'none required',
      ...(optional.length > 0 ? [`(${optional.join(', ')} if set)`] : []),
    ].join(' ');
    return { secrets: 'env', secretsDetail: detail };
  }
  if (stored.storedSecrets.length === 0) return { secrets: 'none', secretsDetail: 'none stored' };
  if (stored.secretStorage === 'file')
    return { secrets: 'file', secretsDetail: `in the plaintext file ${secretsPath} (mode 0600)` };
  return { secrets: 'keychain', secretsDetail: 'in the OS keychain' };
}

/** The profiles as shown (home screen, plain list): values from the config file are sanitized. */
export function profileRows(ctx: Context): ProfileRow[] {
  return ctx.config.profileNames().map((name) => {
    const stored = ctx.config.getProfile(name)!;
    const secrets = secretsOf(stored, ctx.config.secretsPath);
    return {
      name,
      authType: stored.authType,
      authLabel: AUTH_TYPE_INFO[stored.authType].label,
      catalogUrl: sanitize(String(stored.fields.catalogUrl ?? '')),
      ...secrets,
      secretsDetail: sanitize(secrets.secretsDetail),
    };
  });
}

/** The OLake UI login, in one line. */
export function managementLine(ctx: Context): string {
  const m = ctx.config.getManagement();
  if (!m) return 'OLake UI: not logged in (floe login)';
  return sanitize(`OLake UI: ${m.url}${m.username ? ` as ${m.username}` : ''} (project ${m.project})`);
}

/** The home screen as plain text, for a terminal-less run. */
export function plainHome(ctx: Context): string {
  const rows = profileRows(ctx);
  if (rows.length === 0)
    return `No profiles yet. Create one with "floe setup".\n${managementLine(ctx)}\nConfig: ${ctx.config.path}`;
  const width = (key: keyof ProfileRow) => Math.max(key.length, ...rows.map((r) => r[key].length));
  const line = (name: string, auth: string, url: string, secrets: string) =>
    `  ${name.padEnd(width('name'))}  ${auth.padEnd(width('authType'))}  ${url.padEnd(width('catalogUrl'))}  ${secrets}`.trimEnd();
  return [
    'Profiles:',
    line('NAME', 'AUTH', 'CATALOG URL', 'SECRETS'),
    ...rows.map((r) => line(r.name, r.authType, r.catalogUrl, r.secrets)),
    managementLine(ctx),
    `Config: ${ctx.config.path}`,
  ].join('\n');
}

export type HomeAction =
  | { type: 'edit' | 'test' | 'tables'; name: string }
  /** `output` is absolute; `replace`: the user agreed to replace the file there. */
  | { type: 'export'; name: string; output: string; replace?: boolean }
  | { type: 'new'; name: string }
  | { type: 'jobs' }
  /** Sign in to the OLake UI on a form, then the jobs browser. */
  | { type: 'login' }
  | { type: 'quit' }
  /** Ctrl-C: leave floe with exit code 130. */
  | { type: 'interrupt' };

/** A one-line question: the new profile's name, or the file an export writes to. */
export interface Prompt {
  kind: 'prompt';
  purpose: 'new' | 'export';
  /** The profile exported. */
  profile?: string;
  value: string;
  /** floe's suggestion (the first profile's name): the first key that edits it replaces it. */
  suggested?: boolean;
  error?: string;
}

export type Mode =
  | { kind: 'list' }
  | Prompt
  | { kind: 'confirm'; name: string }
  /** The export's file exists: replace it? */
  | { kind: 'replace'; name: string; output: string }
  /** The demo's sandbox facts, from line `scroll` on. */
  | { kind: 'facts'; scroll: number };

export interface HomeState {
  rows: ProfileRow[];
  selected: number;
  mode: Mode;
  /** The outcome of the last delete, shown under the list. */
  message?: HomeMessage;
}

export type HomeEvent =
  | { type: 'move'; delta: number }
  | { type: 'startNew' }
  /** `file`: the file offered (defaultExportFile). */
  | { type: 'startExport'; file: string }
  | { type: 'input'; value: string }
  | { type: 'promptError'; error: string }
  | { type: 'askDelete' }
  | { type: 'askReplace'; name: string; output: string }
  | { type: 'showFacts' }
  /** `max`: the last first line the facts can scroll to at this size. */
  | { type: 'scrollFacts'; by: number; max: number }
  | { type: 'back' }
  | { type: 'deleted'; name: string; rows: ProfileRow[] }
  | { type: 'deleteFailed'; name: string; reason: string };

/** The home state with `selected` (the profile the last action was about) highlighted, else the first. */
/** A one-line outcome shown above the list (a deletion, or why the last command failed). */
export interface HomeMessage {
  ok: boolean;
  text: string;
}

export function initialHome(rows: ProfileRow[], selected?: string, message?: HomeMessage): HomeState {
  return {
    rows,
    ...(message ? { message } : {}),
    selected: Math.max(
      rows.findIndex((r) => r.name === selected),
      0,
    ),
    mode: { kind: 'list' },
  };
}

export const EXPORT_FILE = 'destination.json';

/** The git work tree `dir` is in, if any (a folder with .git, there or above). */
export function gitWorkTree(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Where an export from the home screen goes unless the user types another file: destination.json in
 * the working folder, or, inside a git work tree (where it could be committed with its secrets), the
 * config folder's exports/ (mode 0700).
 */
export function defaultExportFile(profile: string, cwd: string, configDir: string): string {
  return gitWorkTree(cwd) ? join(configDir, 'exports', `${profile}-${EXPORT_FILE}`) : join(cwd, EXPORT_FILE);
}

/** What the home screen says after an export: where it wrote, that it holds secrets, and a .gitignore line if needed. */
export function exportedMessage(output: string): HomeMessage {
  const tree = gitWorkTree(dirname(output));
  const ignore = tree
    ? ` It is inside the git work tree ${tree}: add "${relative(tree, output)}" to its .gitignore.`
    : '';
  return { ok: true, text: `Wrote ${output} (mode 0600; it holds the profile's secrets).${ignore}` };
}

/** Why `name` cannot be a new profile's name, or null. */
export function newNameProblem(name: string, rows: readonly ProfileRow[]): string | null {
  if (!PROFILE_NAME.test(name))
    return 'use letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. prod-lake)';
  if (rows.some((r) => r.name === name)) return `"${name}" exists already: select it and press e to edit it`;
  return null;
}

/** The action a submitted prompt stands for, or why its value is refused. */
export function submitPrompt(prompt: Prompt, rows: readonly ProfileRow[]): HomeAction | { error: string } {
  const value = prompt.value.trim();
  if (prompt.purpose === 'new') {
    const problem = newNameProblem(value, rows);
    return problem ? { error: problem } : { type: 'new', name: value };
  }
  if (value === '') return { error: `give a file to write, e.g. ${EXPORT_FILE}` };
  return { type: 'export', name: prompt.profile!, output: resolve(value.replace(/^~(?=\/)/, homedir())) };
}

export function homeReducer(state: HomeState, event: HomeEvent): HomeState {
  const { mode } = state;
  switch (event.type) {
    case 'move': {
      const count = state.rows.length;
      if (count === 0 || mode.kind !== 'list') return state;
      return { ...state, selected: (state.selected + event.delta + count) % count };
    }
    case 'startNew':
      return {
        ...state,
        message: undefined,
        mode:
          state.rows.length === 0
            ? { kind: 'prompt', purpose: 'new', value: 'default', suggested: true }
            : { kind: 'prompt', purpose: 'new', value: '' },
      };
    case 'startExport': {
      const row = state.rows[state.selected];
      if (!row) return state;
      return {
        ...state,
        message: undefined,
        mode: { kind: 'prompt', purpose: 'export', profile: row.name, value: event.file },
      };
    }
    case 'showFacts':
      return { ...state, mode: { kind: 'facts', scroll: 0 } };
    case 'scrollFacts':
      if (mode.kind !== 'facts') return state;
      return {
        ...state,
        mode: { kind: 'facts', scroll: Math.min(Math.max(mode.scroll + event.by, 0), event.max) },
      };
    case 'askReplace':
      return { ...state, mode: { kind: 'replace', name: event.name, output: event.output } };
    case 'input':
      return mode.kind === 'prompt'
        ? { ...state, mode: { ...mode, value: event.value, suggested: false, error: undefined } }
        : state;
    case 'promptError':
      return mode.kind === 'prompt' ? { ...state, mode: { ...mode, error: event.error } } : state;
    case 'askDelete': {
      const row = state.rows[state.selected];
      return row ? { ...state, message: undefined, mode: { kind: 'confirm', name: row.name } } : state;
    }
    case 'back':
      return { ...state, mode: { kind: 'list' } };
    case 'deleted':
      return {
        rows: event.rows,
        selected: Math.min(state.selected, Math.max(event.rows.length - 1, 0)),
        mode: { kind: 'list' },
        message: { ok: true, text: `Deleted profile "${event.name}" and its stored secrets.` },
      };
    case 'deleteFailed':
      return {
        ...state,
        mode: { kind: 'list' },
        message: { ok: false, text: `Profile "${event.name}" was not deleted: ${event.reason}` },
      };
  }
}

/**
 * Deletes a profile's secrets, then the profile (so a keychain failure leaves both in place), under the
 * config lock and from a fresh read, so profiles other shells saved while the screen was open survive.
 */
export async function deleteProfile(ctx: Context, name: string): Promise<void> {
  await deleteStoredProfile(ctx, name);
}
