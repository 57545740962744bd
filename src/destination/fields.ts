// The destination's field registry: every field declared once, as data. The form, validation,
// review screen, flags, import and export are all driven from this table; what differs per catalog
// (Warehouse's meaning, Region, suggested and forced values) comes from the preset table (presets.ts).
import { GCP_PROJECT_MIN_VERSION, GOOGLE_MIN_VERSION, gsLocation, PRESETS, s3Location } from './presets.js';
import type { AuthType, FieldId, StorageKind, Values } from './values.js';

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

const s3Storage = (v: Values) => v.storage !== 'gcs';

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

const always = () => true;
const never = () => false;
const auth =
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

const httpUrl = (what: string) => (value: string) => {
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

export const FIELDS: readonly FieldDef[] = [
  {
    id: 'catalogUrl',
    label: 'REST Catalog URL',
    help: 'Base URL of the Iceberg REST catalog, with its base path, e.g. http://localhost:8181/api/catalog',
    example: 'http://localhost:8181',
    text: (v) => ({
      label: 'REST Catalog URL',
      help: `Base URL of the Iceberg REST catalog, with its base path, e.g. ${PRESETS[v.preset].urlExample}`,
      example: PRESETS[v.preset].urlExample,
    }),
    type: 'text',
    secret: false,
    writerKey: 'rest_catalog_url',
    section: 'catalog',
    flag: 'catalog-url',
    applies: always,
    required: always,
    rule: httpUrl('http(s)'),
  },
  {
    id: 'warehouse',
    label: 'Warehouse',
    help: PRESETS.rest.warehouse.help,
    example: PRESETS.rest.warehouse.example,
    text: (v) => PRESETS[v.preset].warehouse,
    type: 'text',
    secret: false,
    writerKey: 'iceberg_s3_path',
    section: 'catalog',
    flag: 'warehouse',
    flagAliases: ['s3-path'],
    applies: always,
    required: always,
    rule: (value, v) => PRESETS[v.preset].warehouse.rule(value),
  },
  {
    id: 'region',
    label: 'Region',
    help: 'AWS region of the bucket (any value for most S3-compatible stores), e.g. us-east-1',
    example: 'us-east-1',
    type: 'text',
    secret: false,
    writerKey: 'aws_region',
    section: 'catalog',
    flag: 'region',
    applies: s3Storage,
    required: (v) => PRESETS[v.preset].regionRequired,
    rule: (value) =>
      /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
        ? null
        : 'must be a region name: lowercase letters, digits and hyphens',
  },
  {
    id: 'token',
    label: 'Token',
    help: 'Bearer token sent as "Authorization: Bearer <token>", e.g. a Databricks PAT (dapi…)',
    example: 'dapi0123456789abcdef',
    type: 'text',
    secret: true,
    writerKey: 'token',
    section: 'auth',
    secretFlag: 'token-stdin',
    env: 'FLOE_TOKEN',
    applies: auth('token'),
    required: auth('token'),
    rule: (value) => (/\s/.test(value) ? 'must not contain spaces or line breaks' : null),
  },
  {
    id: 'oauth2Uri',
    label: 'REST Auth URI',
    help: 'OAuth2 token endpoint, e.g. http://keycloak:8080/realms/iceberg/protocol/openid-connect/token',
    example: 'http://localhost:8181/api/catalog/v1/oauth/tokens',
    type: 'text',
    secret: false,
    writerKey: 'oauth2_uri',
    section: 'auth',
    flag: 'oauth2-uri',
    applies: auth('oauth2'),
    required: auth('oauth2'),
    rule: httpUrl('token endpoint'),
  },
  {
    id: 'credential',
    label: 'REST Credential',
    help: 'OAuth2 client as <client_id>:<client_secret> (split on the first colon; a bare secret sends no id)',
    example: 'olake-client:s3cr3t',
    type: 'text',
    secret: true,
    writerKey: 'credential',
    section: 'auth',
    secretFlag: 'credential-stdin',
    env: 'FLOE_CREDENTIAL',
    applies: auth('oauth2'),
    required: auth('oauth2'),
    rule: (value) => (value.endsWith(':') ? 'must have a client secret after the first colon' : null),
  },
  {
    id: 'scope',
    label: 'REST Scope',
    help: 'OAuth2 scope to request; empty means catalog (Polaris: PRINCIPAL_ROLE:ALL, Databricks: all-apis)',
    example: 'PRINCIPAL_ROLE:ALL',
    type: 'text',
    secret: false,
    writerKey: 'scope',
    section: 'auth',
    flag: 'scope',
    applies: auth('oauth2'),
    required: never,
    rule: (value) => (/[\s]{2,}|^\s|\s$/.test(value) ? 'must be space-separated scope names' : null),
  },
  {
    id: 'signingName',
    label: 'REST Signing Name',
    help: 'AWS service name in the SigV4 scope: glue for AWS Glue, s3tables for S3 Tables',
    example: 'glue',
    type: 'text',
    secret: false,
    writerKey: 'rest_signing_name',
    section: 'auth',
    flag: 'signing-name',
    applies: auth('sigv4'),
    required: auth('sigv4'),
    rule: (value) =>
      /^[a-z0-9-]+$/.test(value) ? null : 'must be a service name: lowercase letters, digits, hyphens',
  },
  {
    id: 'signingRegion',
    label: 'REST Signing Region',
    help: 'AWS region in the SigV4 scope, usually the catalog endpoint’s region, e.g. us-east-1',
    example: 'us-east-1',
    type: 'text',
    secret: false,
    writerKey: 'rest_signing_region',
    section: 'auth',
    flag: 'signing-region',
    applies: auth('sigv4'),
    required: auth('sigv4'),
    rule: (value) =>
      /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
        ? null
        : 'must be a region name: lowercase letters, digits and hyphens',
  },
  {
    id: 'sigv4',
    label: 'REST Enable Signature V4',
    help: 'Sign catalog requests with SigV4: always on for SigV4, off otherwise',
    example: 'true',
    type: 'boolean',
    secret: false,
    writerKey: 'rest_signing_v_4',
    section: 'auth',
    applies: never,
    required: never,
  },
  {
    id: 'gcpServiceAccountJson',
    label: 'GCP Service Account JSON',
    help: 'The service-account key file’s JSON (needs client_email and private_key)',
    example:
      '{"type":"service_account","client_email":"olake@p.iam.gserviceaccount.com","private_key":"-----BEGIN…"}',
    type: 'json',
    secret: true,
    writerKey: 'gcp_service_account_json',
    section: 'auth',
    secretFlag: 'gcp-service-account-file',
    env: 'FLOE_GCP_SERVICE_ACCOUNT_JSON',
    // OLake hands the same key to GCSFileIO (GOOGLE_APPLICATION_CREDENTIALS): with GCS storage and
    // another catalog auth it is the storage credential; empty, the runtime's default credentials.
    applies: (v) => v.authType === 'google' || v.storage === 'gcs',
    required: auth('google'),
    rule: (value) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return 'must be the JSON of a service-account key file';
      }
      if (typeof parsed !== 'object' || parsed === null) return 'must be a JSON object';
      const o = parsed as Record<string, unknown>;
      if (typeof o.client_email !== 'string' || !o.client_email) return 'must contain "client_email"';
      if (typeof o.private_key !== 'string' || !o.private_key.includes('PRIVATE KEY'))
        return 'must contain a PEM "private_key"';
      return null;
    },
  },
  {
    id: 'gcpAuthScopes',
    label: 'GCP Auth Scopes',
    help: `Comma-separated OAuth scopes; empty means ${DEFAULT_GCP_SCOPES}`,
    example: DEFAULT_GCP_SCOPES,
    type: 'text',
    secret: false,
    writerKey: 'gcp_auth_scopes',
    section: 'auth',
    flag: 'gcp-scopes',
    applies: auth('google'),
    required: never,
    defaultValue: DEFAULT_GCP_SCOPES,
    rule: (value) =>
      value.split(',').every((s) => /^https:\/\/\S+$/.test(s.trim()))
        ? null
        : 'must be comma-separated https:// scope URLs',
  },
  {
    id: 'gcpProjectId',
    label: 'GCP Project ID',
    help: 'Project billed for requests (sent as x-goog-user-project), e.g. my-project-123',
    example: 'my-project-123',
    type: 'text',
    secret: false,
    writerKey: 'gcp_project_id',
    section: 'auth',
    flag: 'gcp-project-id',
    // OLake reads gcp_project_id from 0.9.1; a 0.9.0 driver drops it silently, so it is not asked.
    applies: (v) => v.authType === 'google' && versionAtLeast(v.targetVersion, GCP_PROJECT_MIN_VERSION),
    required: never,
    rule: (value) =>
      /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(value)
        ? null
        : 'must be 6–30 lowercase letters, digits or hyphens, starting with a letter',
  },
  {
    id: 's3Endpoint',
    label: 'S3 Endpoint',
    help: 'Object-store URL; required for S3-compatible stores, e.g. http://minio:9000 (path style is then forced)',
    example: 'http://localhost:9000',
    type: 'text',
    secret: false,
    writerKey: 's3_endpoint',
    section: 'storage',
    flag: 's3-endpoint',
    applies: s3Storage,
    required: (v) => v.storage === 's3-compatible',
    rule: httpUrl('http(s)'),
  },
  {
    id: 'dataLocation',
    label: 'Data Location',
    help: 'Where floe’s storage check writes its probe, e.g. s3://bucket/prefix (gs://bucket/prefix for GCS); empty: the Warehouse if it is a location, else the catalog’s own default location. Never exported.',
    example: 's3://warehouse/olake',
    text: (v) =>
      v.storage === 'gcs'
        ? {
            label: 'Data Location',
            help: 'Where floe’s storage check writes its probe, e.g. gs://my-lake/olake; empty: the Warehouse if it is gs://, else the catalog’s own default location. Never exported.',
            example: 'gs://my-lake/olake',
          }
        : {
            label: 'Data Location',
            help: 'Where floe’s storage check writes its probe, e.g. s3://bucket/prefix; empty: the Warehouse if it is s3://, else the catalog’s own default location. Never exported.',
            example: 's3://warehouse/olake',
          },
    type: 'text',
    secret: false,
    section: 'storage',
    flag: 'data-location',
    applies: always,
    required: never,
    rule: (value, v) => (v.storage === 'gcs' ? gsLocation(value) : s3Location(value)),
  },
  {
    id: 'accessKey',
    label: 'Access Key',
    help: 'Access key id for the bucket; leave both keys empty to use the runtime environment’s credentials',
    example: 'AKIAIOSFODNN7EXAMPLE',
    type: 'text',
    secret: true,
    writerKey: 'aws_access_key',
    section: 'storage',
    flag: 'access-key',
    env: 'FLOE_ACCESS_KEY',
    applies: s3Storage,
    required: (v) => filled(v, 'secretKey'),
    rule: (value) => (/^\S+$/.test(value) ? null : 'must not contain spaces'),
  },
  {
    id: 'secretKey',
    label: 'Secret Key',
    help: 'Secret access key matching the Access Key, e.g. wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    example: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    type: 'text',
    secret: true,
    writerKey: 'aws_secret_key',
    section: 'storage',
    secretFlag: 'secret-key-stdin',
    env: 'FLOE_SECRET_KEY',
    applies: s3Storage,
    required: (v) => filled(v, 'accessKey'),
    rule: (value) => (/^\S+$/.test(value) ? null : 'must not contain spaces'),
  },
  {
    id: 'catalogName',
    label: 'Catalog Name',
    help: `Name OLake registers the catalog under; empty means ${DEFAULT_CATALOG_NAME} (OLake ≥ 0.3.5)`,
    example: DEFAULT_CATALOG_NAME,
    type: 'text',
    secret: false,
    writerKey: 'catalog_name',
    section: 'advanced',
    flag: 'catalog-name',
    applies: (v) => versionAtLeast(v.targetVersion, CATALOG_NAME_MIN_VERSION),
    required: never,
    rule: (value) =>
      /^[a-z_]+$/.test(value) ? null : 'only lowercase letters a–z and underscores (_) are allowed',
  },
  {
    id: 'icebergDb',
    label: 'Iceberg DB',
    help: 'Namespace for streams that name no destination database (OLake’s fallback); empty: none',
    example: 'olake_iceberg',
    type: 'text',
    secret: false,
    writerKey: 'iceberg_db',
    section: 'advanced',
    flag: 'iceberg-db',
    applies: always,
    required: never,
    rule: (value) => (/\s/.test(value) ? 'must be a namespace name without spaces' : null),
  },
  {
    id: 'arrowWrites',
    label: 'Enable Arrow Writes',
    help: 'Use OLake’s Arrow-based writer (faster for wide tables); default off',
    example: 'true',
    type: 'boolean',
    secret: false,
    writerKey: 'arrow_writes',
    section: 'advanced',
    flag: 'arrow-writes',
    applies: always,
    required: never,
    defaultValue: false,
  },
  {
    id: 'noIdentifierFields',
    label: 'Disable Identifier Tables',
    help: 'Create tables without the _olake_id identifier field (required for Databricks Unity); default off',
    example: 'true',
    type: 'boolean',
    secret: false,
    writerKey: 'no_identifier_fields',
    section: 'advanced',
    flag: 'no-identifier-fields',
    applies: always,
    required: never,
    defaultValue: false,
  },
];

export const FIELD_BY_ID = Object.fromEntries(FIELDS.map((f) => [f.id, f])) as Record<FieldId, FieldDef>;

export function filled(v: Values, id: FieldId): boolean {
  const value = v.fields[id];
  return typeof value === 'string' ? value.trim() !== '' : value === true;
}

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
