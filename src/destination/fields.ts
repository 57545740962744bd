// The destination's field registry: every field declared once, as data. The form, validation,
// review screen, flags, import and export are all driven from this table; what differs per catalog
// (Warehouse's meaning, Region, suggested and forced values) comes from the preset table (presets.ts).

import { type FieldDef, type Section, versionAtLeast } from './field-def.js';
import { AUTH_FIELDS } from './fields/auth.js';
import { CATALOG_FIELDS } from './fields/catalog.js';
import { OLAKE_FIELDS } from './fields/olake.js';
import { STORAGE_FIELDS } from './fields/storage.js';
import { GOOGLE_MIN_VERSION } from './presets.js';
import type { AuthType, FieldId, StorageKind, Values } from './values.js';

export {
  CATALOG_NAME_MIN_VERSION,
  DEFAULT_CATALOG_NAME,
  DEFAULT_GCP_SCOPES,
  DEFAULT_OAUTH2_SCOPE,
  type FieldDef,
  fieldText,
  filled,
  type SecretEnv,
  type Section,
  versionAtLeast,
} from './field-def.js';
export {
  AUTH_TYPES,
  type AuthType,
  type FieldId,
  STORAGE_KINDS,
  type StorageKind,
  type Values,
} from './values.js';

export const AUTH_TYPE_INFO: Record<AuthType, { label: string; help: string }> = {
  none: {
    label: 'None',
    help: 'No authentication: an open catalog, e.g. a local REST fixture or Nessie in dev',
  },
  token: {
    label: 'Bearer token',
    help: 'A static token sent as "Authorization: Bearer", e.g. a Unity PAT or R2 API token',
  },
  oauth2: {
    label: 'OAuth2 client credentials',
    help: 'client_id:client_secret exchanged for a token, e.g. Polaris, Lakekeeper + Keycloak',
  },
  sigv4: { label: 'AWS SigV4', help: 'Requests signed with AWS keys, e.g. AWS Glue or S3 Tables' },
  google: {
    label: 'Google',
    help: 'A GCP service-account key exchanged for a token, e.g. BigLake metastore',
  },
};

export const STORAGE_INFO: Record<StorageKind, { label: string; help: string }> = {
  aws: { label: 'AWS S3', help: 'Amazon S3: the endpoint is derived from the region' },
  's3-compatible': {
    label: 'S3-compatible',
    help: 'MinIO, Ceph RGW, Cloudflare R2, …: needs an S3 Endpoint',
  },
  gcs: {
    label: 'Google Cloud Storage',
    help: 'gs:// buckets (BigLake), read and written with the GCP service-account key, as OLake does',
  },
};

/**
 * The registry, in its order: it orders the form, the flags, the docs and the keys of OLake's
 * destination.json (byte compatibility), so a group's place here is part of the contract.
 */
export const FIELDS: readonly FieldDef[] = [
  ...CATALOG_FIELDS,
  ...AUTH_FIELDS,
  ...STORAGE_FIELDS,
  ...OLAKE_FIELDS,
];

export const FIELD_BY_ID = Object.fromEntries(FIELDS.map((f) => [f.id, f])) as Record<FieldId, FieldDef>;

/** The fields asked for these values, in registry order, optionally for one section. */
export function applicableFields(v: Values, section?: Section): FieldDef[] {
  return FIELDS.filter((f) => f.applies(v) && (section === undefined || f.section === section));
}

export function emptyValues(authType: AuthType = 'none'): Values {
  return { preset: 'rest', authType, storage: 'aws', targetVersion: 'latest', fields: {} };
}

/** Google auth and the gcp_* keys need this OLake version. */
export function googleSupported(v: Values): boolean {
  return versionAtLeast(v.targetVersion, GOOGLE_MIN_VERSION);
}

/** The profile reaches Google Cloud Storage (OLake: GCSFileIO through ResolvingFileIO). */
export function gcsStorage(v: Values): boolean {
  return v.storage === 'gcs';
}

/** `••••` plus the last 4 characters (nothing of short secrets). */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••';
}

/**
 * Splits a REST Credential the way Iceberg does: on the first colon only, so the secret may contain
 * colons. Without a colon the whole value is the secret and no client id is sent.
 */
export function splitCredential(credential: string): { clientId?: string; clientSecret: string } {
  const i = credential.indexOf(':');
  if (i < 0) return { clientSecret: credential.trim() };
  return { clientId: credential.slice(0, i).trim(), clientSecret: credential.slice(i + 1).trim() };
}
