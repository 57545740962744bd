// Profiles and settings (never secrets) in a JSON file: mode 0600, schema-versioned, written atomically
// under the config lock. A corrupt file is kept as a backup and reported with its path, never silently
// reset. zod's `mini` entry point (the same validators, tree-shaken) keeps the home screen's start-up light.
// Besides profiles it names, never holds, secret entries: each profile's (and the session's) generation,
// and `sweep`, the entries to remove (secrets/shadow.ts: the writing of this file is the commit point).
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import * as z from 'zod/mini';
import { AUTH_TYPES, FIELDS, STORAGE_KINDS, type Values } from '../destination/fields.js';
import { PRESET_IDS } from '../destination/presets.js';
import { FloeError } from '../errors.js';
import { sanitize } from '../text/sanitize.js';
import {
  checkPrivateDir,
  ensurePrivateDir,
  type LockWait,
  withLock,
  withLockIfFree,
  withLockSync,
  writePrivateFile,
} from './files.js';

/** Where a profile's secrets are kept (secrets/ implements each; the environment always wins). */
export type SecretStorage = 'keychain' | 'file' | 'env';

export const SCHEMA_VERSION = 1;

const profileSchema = z.object({
  /** Absent in profiles written before presets: the generic REST catalog. */
  preset: z._default(z.enum(PRESET_IDS), 'rest'),
  authType: z.enum(AUTH_TYPES),
  storage: z.enum(STORAGE_KINDS),
  targetVersion: z.string(),
  /** `s3Path` is the Warehouse's name before presets. */
  fields: z.pipe(
    z.record(z.string(), z.union([z.string(), z.boolean()])),
    z.transform(({ s3Path, ...fields }) =>
      s3Path === undefined ? fields : { warehouse: s3Path, ...fields },
    ),
  ),
  /** Where this profile's secrets live. */
  secretStorage: z.enum(['keychain', 'file', 'env']),
  /** Secret fields that were stored (so a missing one can be reported by name). */
  storedSecrets: z._default(z.array(z.string()), []),
  /** The generation in the accounts of its stored secrets; absent in profiles saved before generations. */
  secretsGeneration: z.optional(z.string()),
  updatedAt: z.string(),
});
export type StoredProfile = z.infer<typeof profileSchema>;

const managementSchema = z.object({
  url: z.string(),
  username: z.optional(z.string()),
  project: z._default(z.string(), '123'),
  secretStorage: z.optional(z.enum(['keychain', 'file', 'env'])),
  rememberPassword: z._default(z.boolean(), false),
  /** The generation in the accounts of the session and password; absent before generations. */
  secretsGeneration: z.optional(z.string()),
});
export type ManagementSettings = z.infer<typeof managementSchema>;

const sweepEntrySchema = z.object({ storage: z.enum(['keychain', 'file']), account: z.string() });
/** A secret entry (by account, never its value) that may exist and is to be removed. */
export type SweepEntry = z.infer<typeof sweepEntrySchema>;

/** Entries to list for removal (`add`) and entries no longer listed (`remove`, gone or in use). */
export interface SweepChange {
  add?: readonly SweepEntry[];
  remove?: readonly SweepEntry[];
}

const fileSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  profiles: z._default(z.record(z.string(), profileSchema), {}),
  management: z.optional(managementSchema),
  /** Absent when empty (so a file with nothing to remove reads as it did before generations). */
  sweep: z._default(z.array(sweepEntrySchema), []),
  /** Where this folder's new secrets go, once the user chose (absent: the keychain, not yet chosen). */
  secrets: z.optional(z.enum(['keychain', 'file'])),
});
type ConfigFile = z.input<typeof fileSchema>;

export class ConfigError extends FloeError {}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.FLOE_CONFIG_DIR) return env.FLOE_CONFIG_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'floe');
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'floe', 'Config');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'floe');
}

/** Letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function profileNameProblem(name: string): string | undefined {
  if (PROFILE_NAME.test(name)) return undefined;
  return `Profile name "${name}" is invalid: use letters, digits, ".", "_" or "-" (1 to 64 characters), starting with a letter or digit (e.g. prod-lake)`;
}

/** The config in memory: profiles in a Map, so a name is data and never meets a prototype member. */
interface ConfigData {
  profiles: Map<string, StoredProfile>;
  management: ManagementSettings | undefined;
  sweep: SweepEntry[];
  secrets: SecretsChoice | undefined;
}

/** The remembered choice of where a config folder keeps new secrets. */
export type SecretsChoice = 'keychain' | 'file';

const sameEntry = (a: SweepEntry, b: SweepEntry) => a.storage === b.storage && a.account === b.account;

function applySweep(list: SweepEntry[], change: SweepChange = {}): SweepEntry[] {
  const kept = list.filter((entry) => !change.remove?.some((gone) => sameEntry(gone, entry)));
  for (const entry of change.add ?? [])
    if (!kept.some((known) => sameEntry(known, entry)))
      kept.push({ storage: entry.storage, account: entry.account });
  return kept;
}

/**
 * Every change locks the file (proper-lockfile, shared with other floe processes), re-reads it, applies
 * only its own change and writes the whole file atomically; a screen left open therefore never writes
 * back a stale copy of other profiles.
 */
export class ConfigStore {
  readonly path: string;
  #data: ConfigData;

  constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
    ensurePrivateDir(dir);
    checkPrivateDir(dir);
    this.#data = this.#read();
  }

  /** The file's text and root object ({} before the first save); anything but a JSON object is refused. */
  #readRoot(): { text: string; root: object } {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', root: {} };
      throw new ConfigError(
        `The config file ${this.path} cannot be read (${(error as Error).message}).`,
        `Check its owner and mode (floe writes it as 0600).`,
      );
    }
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch (error) {
      throw this.#corrupt(text, (error as Error).message);
    }
    if (typeof root !== 'object' || root === null || Array.isArray(root))
      throw this.#corrupt(
        text,
        `root: expected an object like {"schemaVersion": ${SCHEMA_VERSION}, "profiles": {}}, found ${root === null ? 'null' : Array.isArray(root) ? 'an array' : typeof root}`,
      );
    return { text, root };
  }

  #read(): ConfigData {
    const { text, root } = this.#readRoot();
    const parsed = fileSchema.safeParse({ schemaVersion: SCHEMA_VERSION, ...root });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw this.#corrupt(text, `${first?.path.join('.') || 'root'}: ${first?.message}`);
    }
    // floe never writes such a name: one edited in by hand (a control sequence, say) is not shown raw.
    const odd = Object.keys(parsed.data.profiles).find((name) => profileNameProblem(name) !== undefined);
    if (odd !== undefined)
      throw this.#corrupt(
        text,
        `profiles: ${sanitize(JSON.stringify(odd))} is not a profile name floe writes (letters, digits, ".", "_" or "-")`,
      );
    return {
      profiles: new Map(Object.entries(parsed.data.profiles)),
      management: parsed.data.management,
      sweep: parsed.data.sweep,
      secrets: parsed.data.secrets,
    };
  }

  /** Keeps one copy of the unreadable `text` (a run that meets the same file again reuses it). */
  #corrupt(text: string, why: string): ConfigError {
    const prefix = `${basename(this.path)}.corrupt-`;
    const earlier = readdirSync(this.dir)
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(this.dir, name))
      .find((path) => readFileSync(path, 'utf8') === text);
    let backup = earlier;
    if (!backup) {
      backup = join(this.dir, `${prefix}${new Date().toISOString().replace(/[:.]/g, '-')}`);
      writePrivateFile(backup, text);
    }
    return new ConfigError(
      `The config file ${this.path} cannot be read (${why}). ${earlier ? 'A copy was kept earlier' : 'A copy was kept'} at ${backup}. Fix the file, or move it away to start afresh.`,
    );
  }

  get secretsPath(): string {
    return join(this.dir, 'secrets.json');
  }

  /** Locks, re-reads, applies `change` to the fresh copy and writes it. */
  #update(change: (data: ConfigData) => void): void {
    withLockSync(this.path, () => {
      const data = this.#read();
      change(data);
      const file: ConfigFile = {
        schemaVersion: SCHEMA_VERSION,
        profiles: Object.fromEntries(data.profiles),
        ...(data.management ? { management: data.management } : {}),
        ...(data.sweep.length > 0 ? { sweep: data.sweep } : {}),
        ...(data.secrets ? { secrets: data.secrets } : {}),
      };
      writePrivateFile(this.path, JSON.stringify(file, undefined, '\t'));
      this.#data = data;
    });
  }

  /**
   * Runs `fn` holding the config lock, with the file re-read first: changes made inside (through this
   * store) and the work between them (e.g. secret stores) are one step for other floe processes.
   */
  async locked<T>(fn: () => Promise<T>, wait?: LockWait): Promise<T> {
    return withLock(
      this.path,
      async () => {
        this.#data = this.#read();
        return fn();
      },
      wait,
    );
  }

  /** `locked`, when no other process holds the lock now; else undefined at once, without running `fn`. */
  async lockedIfFree<T>(fn: () => Promise<T>): Promise<T | undefined> {
    return withLockIfFree(this.path, async () => {
      this.#data = this.#read();
      return fn();
    });
  }

  /** Re-reads the file (for a screen that stays open while other processes change it). */
  reload(): void {
    this.#data = this.#read();
  }

  profileNames(): string[] {
    return [...this.#data.profiles.keys()].sort();
  }

  getProfile(name: string): StoredProfile | undefined {
    return this.#data.profiles.get(name);
  }

  /**
   * Saves the non-secret part of `values`; secret fields are the caller's to put in a secret store (under
   * `generation`, when given). `sweep` changes the entries to remove in the same write.
   */
  saveProfile(
    name: string,
    values: Values,
    secretStorage: SecretStorage,
    storedSecrets: string[],
    options: { generation?: string; sweep?: SweepChange } = {},
  ): void {
    const problem = profileNameProblem(name);
    if (problem) throw new ConfigError(problem);
    const fields: Record<string, string | boolean> = {};
    for (const def of FIELDS) {
      const value = values.fields[def.id];
      if (!def.secret && value !== undefined) fields[def.id] = value;
    }
    const profile: StoredProfile = {
      preset: values.preset,
      authType: values.authType,
      storage: values.storage,
      targetVersion: values.targetVersion,
      fields,
      secretStorage,
      storedSecrets,
      ...(options.generation ? { secretsGeneration: options.generation } : {}),
      updatedAt: new Date().toISOString(),
    };
    this.#update((data) => {
      data.profiles.set(name, profile);
      data.sweep = applySweep(data.sweep, options.sweep);
    });
  }

  /** Removes the profile (its entries are the caller's: `sweep` lists them in the same write). */
  deleteProfile(name: string, sweep?: SweepChange): boolean {
    let deleted = false;
    this.#update((data) => {
      deleted = data.profiles.delete(name);
      data.sweep = applySweep(data.sweep, sweep);
    });
    return deleted;
  }

  getManagement(): ManagementSettings | undefined {
    return this.#data.management;
  }

  setManagement(settings: ManagementSettings | undefined, sweep?: SweepChange): void {
    this.#update((data) => {
      data.management = settings;
      data.sweep = applySweep(data.sweep, sweep);
    });
  }

  /** Where this folder's new secrets go, when the user chose; undefined before any choice. */
  secretsChoice(): SecretsChoice | undefined {
    return this.#data.secrets;
  }

  setSecretsChoice(choice: SecretsChoice): void {
    this.#update((data) => {
      data.secrets = choice;
    });
  }

  /** The secret entries to remove. */
  sweepEntries(): readonly SweepEntry[] {
    return this.#data.sweep;
  }

  changeSweep(change: SweepChange): void {
    this.#update((data) => {
      data.sweep = applySweep(data.sweep, change);
    });
  }
}

/** A stored profile as values, without secrets. */
export function profileValues(profile: StoredProfile): Values {
  return {
    preset: profile.preset,
    authType: profile.authType,
    storage: profile.storage,
    targetVersion: profile.targetVersion,
    fields: { ...profile.fields },
  };
}
