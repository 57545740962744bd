// Profiles and settings (never secrets) in a `conf` JSON file: mode 0600, schema-versioned. A corrupt
// file is kept as a backup and reported with its path, never silently reset.
import { chmodSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import Conf from 'conf';
import { z } from 'zod';
import { AUTH_TYPES, FIELDS, STORAGE_KINDS, type Values } from '../destination/fields.js';
import { PRESET_IDS } from '../destination/presets.js';
import { FloeError } from '../errors.js';
import type { SecretStorage } from '../secrets/store.js';
import { ensurePrivateDir, type LockWait, withLock, withLockSync } from './files.js';

export const SCHEMA_VERSION = 1;

const profileSchema = z.object({
  /** Absent in profiles written before presets: the generic REST catalog. */
  preset: z.enum(PRESET_IDS).default('rest'),
  authType: z.enum(AUTH_TYPES),
  storage: z.enum(STORAGE_KINDS),
  targetVersion: z.string(),
  /** `s3Path` is the Warehouse's name before presets. */
  fields: z
    .record(z.string(), z.union([z.string(), z.boolean()]))
    .transform(({ s3Path, ...fields }) => (s3Path === undefined ? fields : { warehouse: s3Path, ...fields })),
  /** Where this profile's secrets live. */
  secretStorage: z.enum(['keychain', 'file', 'env']),
  /** Secret fields that were stored (so a missing one can be reported by name). */
  storedSecrets: z.array(z.string()).default([]),
  updatedAt: z.string(),
});
export type StoredProfile = z.infer<typeof profileSchema>;

const managementSchema = z.object({
  url: z.string(),
  username: z.string().optional(),
  project: z.string().default('123'),
  secretStorage: z.enum(['keychain', 'file', 'env']).optional(),
  rememberPassword: z.boolean().default(false),
});
export type ManagementSettings = z.infer<typeof managementSchema>;

const fileSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  profiles: z.record(z.string(), profileSchema).default({}),
  management: managementSchema.optional(),
});
type ConfigFile = z.input<typeof fileSchema>;

export class ConfigError extends FloeError {}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
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
}

/**
 * Every change locks the file (proper-lockfile, shared with other floe processes), re-reads it, applies
 * only its own change and writes the whole file atomically; a screen left open therefore never writes
 * back a stale copy of other profiles.
 */
export class ConfigStore {
  readonly #conf: Conf<ConfigFile>;
  #data: ConfigData;

  constructor(readonly dir: string = configDir()) {
    const path = join(dir, 'config.json');
    ensurePrivateDir(dir);
    this.#checkRoot(path);
    try {
      // No `defaults`: conf would write them back from its constructor, outside the lock.
      this.#conf = new Conf<ConfigFile>({
        cwd: dir,
        configName: 'config',
        projectName: 'floe',
        projectSuffix: '',
        configFileMode: 0o600,
        clearInvalidConfig: false,
      });
    } catch (error) {
      throw this.#corrupt(path, error instanceof Error ? error.message : String(error));
    }
    this.#data = this.#read();
  }

  /** conf turns a root that is not an object (null, an array, a string) into {} and rewrites it: refuse first. */
  #checkRoot(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return;
    }
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch (error) {
      throw this.#corrupt(path, (error as Error).message);
    }
    if (typeof root !== 'object' || root === null || Array.isArray(root))
      throw this.#corrupt(
        path,
        `root: expected an object like {"schemaVersion": ${SCHEMA_VERSION}, "profiles": {}}, found ${root === null ? 'null' : Array.isArray(root) ? 'an array' : typeof root}`,
      );
  }

  #read(): ConfigData {
    let raw: unknown;
    try {
      this.#checkRoot(this.path);
      raw = this.#conf.store;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw this.#corrupt(this.path, error instanceof Error ? error.message : String(error));
    }
    const parsed = fileSchema.safeParse({ schemaVersion: SCHEMA_VERSION, ...(raw as object) });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw this.#corrupt(this.path, `${first?.path.join('.') || 'root'}: ${first?.message}`);
    }
    return {
      profiles: new Map(Object.entries(parsed.data.profiles)),
      management: parsed.data.management,
    };
  }

  #corrupt(path: string, why: string): ConfigError {
    let kept = '';
    if (existsSync(path)) {
      const backup = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      copyFileSync(path, backup);
      chmodSync(backup, 0o600);
      kept = ` A copy was kept at ${backup}.`;
    }
    return new ConfigError(
      `The config file ${path} cannot be read (${why}).${kept} Fix the file, or move it away to start afresh.`,
    );
  }

  get path(): string {
    return this.#conf.path;
  }

  get secretsPath(): string {
    return join(dirname(this.#conf.path), 'secrets.json');
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
      };
      this.#conf.store = file;
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

  /** Saves the non-secret part of `values`; secret fields are the caller's to put in a secret store. */
  saveProfile(name: string, values: Values, secretStorage: SecretStorage, storedSecrets: string[]): void {
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
      updatedAt: new Date().toISOString(),
    };
    this.#update((data) => data.profiles.set(name, profile));
  }

  deleteProfile(name: string): boolean {
    let deleted = false;
    this.#update((data) => {
      deleted = data.profiles.delete(name);
    });
    return deleted;
  }

  getManagement(): ManagementSettings | undefined {
    return this.#data.management;
  }

  setManagement(settings: ManagementSettings | undefined): void {
    this.#update((data) => {
      data.management = settings;
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
