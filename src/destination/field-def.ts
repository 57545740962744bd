// What a destination field is (FieldDef), and the constants and small helpers the field tables
// (fields/*.ts) are written with. The registry itself, in its order, is fields.ts.
import type { AuthType, FieldId, Values } from './values.js';

export const s3Storage = (v: Values) => v.storage !== 'gcs';

/** Where a field is asked in the wizard. `auth` fields depend on the auth type. */
export type Section = 'catalog' | 'auth' | 'storage' | 'advanced';

export type SecretEnv =
  | 'FLOE_TOKEN'
  | 'FLOE_CREDENTIAL'
  | 'FLOE_ACCESS_KEY'
  | 'FLOE_SECRET_KEY'
  | 'FLOE_GCP_SERVICE_ACCOUNT_JSON';

export interface FieldDef {
  id: FieldId;
  label: string;
  /** One line, with an example. */
  help: string;
  /** A valid value, quoted in every validation error. */
  example: string;
  type: 'text' | 'boolean' | 'json';
  /** Secret values never reach the config file, argv, logs or frames. */
  secret: boolean;
  /** The key in OLake's destination.json `writer` object; none for floe's own fields. */
  writerKey?: string;
  section: Section;
  /** Non-interactive flag. Secrets have no value flag: `secretFlag` reads them from stdin or a file. */
  flag?: string;
  /** Older names of `flag`, still accepted. */
  flagAliases?: string[];
  secretFlag?: string;
  env?: SecretEnv;
  /** Whether the field is asked at all for these values. */
  applies(v: Values): boolean;
  /** Whether it must be filled when it applies. */
  required(v: Values): boolean;
  /** Value used when the field is left empty. */
  defaultValue?: string | boolean;
  /** The field's format rule; returns the broken rule or null. */
  rule?: (value: string, v: Values) => string | null;
  /** Label, help and example when they depend on the preset. */
  text?: (v: Values) => Pick<FieldDef, 'label' | 'help' | 'example'>;
}

/** The field's label, help and example for these values (the preset may change them). */
export function fieldText(def: FieldDef, v?: Values): Pick<FieldDef, 'label' | 'help' | 'example'> {
  return v && def.text ? def.text(v) : { label: def.label, help: def.help, example: def.example };
}

export const DEFAULT_CATALOG_NAME = 'olake_iceberg';
export const DEFAULT_GCP_SCOPES = 'https://www.googleapis.com/auth/cloud-platform';
/** The OAuth2 scope requested when the profile names none (as OLake, Iceberg Java and pyiceberg do). */
export const DEFAULT_OAUTH2_SCOPE = 'catalog';
export const CATALOG_NAME_MIN_VERSION = '0.3.5';

export const always = () => true;
export const never = () => false;
export const auth =
  (...types: AuthType[]) =>
  (v: Values) =>
    types.includes(v.authType);

/** Compares `x.y.z` versions; `latest` is newer than everything. */
export function versionAtLeast(version: string, min: string): boolean {
  if (version === 'latest') return true;
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

export const httpUrl = (what: string) => (value: string) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an absolute ${what} URL: http(s)://host[:port][/base/path]`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (!url.hostname) return 'must name a host';
  if (url.search || url.hash) return 'must not carry a query string or fragment';
  if (url.username || url.password) return 'must not embed credentials (user:password@)';
  return null;
};

export function filled(v: Values, id: FieldId): boolean {
  const value = v.fields[id];
  return typeof value === 'string' ? value.trim() !== '' : value === true;
}
