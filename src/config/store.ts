// Profiles and settings (never secrets) in a `conf` JSON file: mode 0600, schema-versioned. A corrupt
// file is kept as a backup and reported with its path, never silently reset.
import { copyFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import Conf from 'conf';
import { z } from 'zod';
import { AUTH_TYPES, FIELDS, STORAGE_KINDS, type Values } from '../destination/fields.js';
import { PRESET_IDS } from '../destination/presets.js';
import { FloeError } from '../errors.js';
import type { SecretStorage } from '../secrets/store.js';

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
type ConfigFile = z.infer<typeof fileSchema>;

export class ConfigError extends FloeError {}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FLOE_CONFIG_DIR) return env.FLOE_CONFIG_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'floe');
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'floe', 'Config');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'floe');
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export class ConfigStore {
  readonly #conf: Conf<ConfigFile>;
  #data: ConfigFile;

  constructor(readonly dir: string = configDir()) {
    const path = join(dir, 'config.json');
    try {
      this.#conf = new Conf<ConfigFile>({
        cwd: dir,
        configName: 'config',
        projectName: 'floe',
        projectSuffix: '',
        configFileMode: 0o600,
        clearInvalidConfig: false,
        defaults: { schemaVersion: SCHEMA_VERSION, profiles: {} },
      });
    } catch (error) {
      throw this.#corrupt(path, error instanceof Error ? error.message : String(error));
    }
    const parsed = fileSchema.safeParse(this.#conf.store);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw this.#corrupt(path, `${first?.path.join('.') || 'root'}: ${first?.message}`);
    }
    this.#data = parsed.data;
  }

  #corrupt(path: string, why: string): ConfigError {
    let kept = '';
    if (existsSync(path)) {
      const backup = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      copyFileSync(path, backup);
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

  #save(): void {
    this.#conf.store = this.#data;
  }

  profileNames(): string[] {
    return Object.keys(this.#data.profiles).sort();
  }

  getProfile(name: string): StoredProfile | undefined {
    return this.#data.profiles[name];
  }

  /** Saves the non-secret part of `values`; secret fields are the caller's to put in a secret store. */
  saveProfile(name: string, values: Values, secretStorage: SecretStorage, storedSecrets: string[]): void {
    if (!PROFILE_NAME.test(name))
      throw new ConfigError(
        `Profile name "${name}" is invalid: use letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. prod-lake)`,
      );
    const fields: Record<string, string | boolean> = {};
    for (const def of FIELDS) {
      const value = values.fields[def.id];
      if (!def.secret && value !== undefined) fields[def.id] = value;
    }
    this.#data.profiles[name] = {
      preset: values.preset,
      authType: values.authType,
      storage: values.storage,
      targetVersion: values.targetVersion,
      fields,
      secretStorage,
      storedSecrets,
      updatedAt: new Date().toISOString(),
    };
    this.#save();
  }

  deleteProfile(name: string): boolean {
    if (!(name in this.#data.profiles)) return false;
    delete this.#data.profiles[name];
    this.#save();
    return true;
  }

  getManagement(): ManagementSettings | undefined {
    return this.#data.management;
  }

  setManagement(settings: ManagementSettings | undefined): void {
    this.#data.management = settings;
    this.#save();
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
