// The catalog presets, as data beside the field registry: what each real REST catalog fixes, what it
// suggests, what its Warehouse means, and what OLake forces for its `catalog_type` flavour. The form,
// validation, flags, import and export read this table; nothing else lists catalogs.
// Sources: ../shared/reference/catalogs.md §1.1; olake destination/iceberg/resources/spec.json and
// config.go (Validate) at v0.9.4.
import type { AuthType, FieldId, PresetId, StorageKind, Values } from './values.js';

export { PRESET_IDS, type PresetId } from './values.js';

/** OLake's `catalog_type` values for REST catalogs (olake constants.RESTCatalogs). */
export type OlakeFlavour = 'rest' | 'polaris' | 'lakekeeper' | 'nessie' | 'unity' | 's3tables' | 'biglake';
export const OLAKE_FLAVOURS: readonly OlakeFlavour[] = [
  'rest',
  'polaris',
  'lakekeeper',
  'nessie',
  'unity',
  's3tables',
  'biglake',
];
/** The first OLake release that accepts the named flavours as `catalog_type`. */
export const FLAVOUR_MIN_VERSION = '0.9.1';
/** The first OLake release with Google auth and the `gcp_*` keys (and Iceberg's `rest.auth.type`). */
export const GOOGLE_MIN_VERSION = '0.9.0';
/** gcp_project_id first exists in OLake 0.9.1 (destination/iceberg/config.go); a 0.9.0 driver drops it. */
export const GCP_PROJECT_MIN_VERSION = '0.9.1';

export interface WarehouseSpec {
  label: string;
  help: string;
  example: string;
  /** The broken rule, or null. Only rules the catalog itself enforces: OLake passes the value through. */
  rule: (value: string) => string | null;
}

/** A value derived from the others (e.g. the token URL from the catalog URL); undefined when unknown. */
export type Derive = (v: Values) => string | undefined;

export interface Preset {
  id: PresetId;
  label: string;
  /** One line: what it is. */
  help: string;
  /** One line: the known pitfall. */
  pitfall: string;
  flavour: OlakeFlavour;
  /** The authentication types this catalog offers; the first is the default. */
  authTypes: readonly AuthType[];
  /** The catalog URL's shape, shown as the example. */
  urlExample: string;
  warehouse: WarehouseSpec;
  /** Whether OLake's spec requires `aws_region` for this flavour. */
  regionRequired: boolean;
  storage?: StorageKind;
  /** Values filled in when the preset is chosen, where the field is empty. */
  suggest?: Partial<Record<FieldId, string>>;
  /** Values kept in step with the others while the user has not typed their own. */
  derive?: Partial<Record<FieldId, Derive>>;
  /** Values OLake forces for this flavour (olake destination/iceberg/config.go, Validate). */
  forced?: Partial<Record<FieldId, string | boolean>>;
}

const noSpaces = (what: string) => (value: string) =>
  /\s/.test(value) ? `must be ${what}, without spaces` : null;

/** A catalog's name: it becomes a path segment (the prefix), so no slash, and no location. */
const catalogName = (what: string) => (value: string) =>
  /^[^\s/]+$/.test(value) && !/^[a-z0-9]+:/i.test(value)
    ? null
    : `must be ${what}: a name without spaces or slashes, not a location`;

/** The rule of an `s3://bucket[/prefix]` location (the Data Location, an S3 Warehouse). */
export const s3Location = (value: string): string | null =>
  /^s3a?:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/\S*)?$/.test(value)
    ? null
    : 'must be s3://bucket[/prefix] with a 3–63 character bucket name (lowercase letters, digits, dots, hyphens)';

/** The rule of a `gs://bucket[/prefix]` location (Google Cloud Storage bucket names). */
export const gsLocation = (value: string): string | null =>
  /^gs:\/\/[a-z0-9][a-z0-9._-]{1,220}[a-z0-9](\/\S*)?$/.test(value)
    ? null
    : 'must be gs://bucket[/prefix] with a 3–222 character bucket name (lowercase letters, digits, dots, hyphens, underscores)';

/** A warehouse that is an S3 location, or (for catalogs that register names too) a name. */
const s3OrName = (value: string): string | null => {
  if (/^s3a?:\/\//.test(value)) return s3Location(value);
  return noSpaces('a warehouse name or an s3://bucket[/prefix] location')(value);
};

function origin(v: Values): string | undefined {
  const raw = v.fields.catalogUrl;
  if (typeof raw !== 'string' || !raw.trim()) return undefined;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function catalogBase(v: Values): string | undefined {
  const raw = v.fields.catalogUrl;
  if (typeof raw !== 'string' || !origin(v)) return undefined;
  return raw.trim().replace(/\/+$/, '');
}

/** `glue.<region>.amazonaws.com` / `s3tables.<region>.amazonaws.com` → the region. */
function awsEndpointRegion(v: Values): string | undefined {
  const o = origin(v);
  return o ? /^https?:\/\/(?:glue|s3tables)\.([a-z0-9-]+)\.amazonaws\.com/.exec(o)?.[1] : undefined;
}

/** `https://catalog.cloudflarestorage.com/<account>/<bucket>` → its two parts. */
function r2Parts(v: Values): { account: string; bucket: string } | undefined {
  const base = catalogBase(v);
  const m =
    base && /^https:\/\/catalog\.cloudflarestorage\.com\/([0-9a-f]{32})\/([a-z0-9-]{3,63})$/.exec(base);
  return m ? { account: m[1]!, bucket: m[2]! } : undefined;
}

export const PRESETS: Record<PresetId, Preset> = {
  rest: {
    id: 'rest',
    label: 'Generic REST catalog',
    help: 'Any Iceberg REST catalog: the REST fixture, Gravitino, a self-hosted server',
    pitfall: 'The warehouse is whatever the server registers: usually an s3:// location here.',
    flavour: 'rest',
    authTypes: ['none', 'token', 'oauth2', 'sigv4', 'google'],
    urlExample: 'http://localhost:8181',
    warehouse: {
      label: 'Warehouse',
      help: 'The warehouse the catalog serves, sent as-is: an s3:// location or a name, e.g. s3://warehouse/olake',
      example: 's3://warehouse',
      rule: s3OrName,
    },
    regionRequired: true,
  },
  polaris: {
    id: 'polaris',
    label: 'Apache Polaris',
    help: 'Polaris with its built-in OAuth2 token endpoint',
    pitfall:
      'The warehouse is the Polaris catalog name, not a bucket; the scope must start with PRINCIPAL_ROLE:.',
    flavour: 'polaris',
    authTypes: ['oauth2', 'token'],
    urlExample: 'http://localhost:8181/api/catalog',
    warehouse: {
      label: 'Polaris Catalog Name',
      help: 'The name of the Polaris catalog (not a bucket), e.g. olake_catalog',
      example: 'olake_catalog',
      rule: catalogName('a Polaris catalog name'),
    },
    regionRequired: true,
    suggest: { scope: 'PRINCIPAL_ROLE:ALL' },
    derive: { oauth2Uri: (v) => catalogBase(v) && `${catalogBase(v)}/v1/oauth/tokens` },
  },
  'open-catalog': {
    id: 'open-catalog',
    label: 'Snowflake Open Catalog',
    help: 'Snowflake’s managed Polaris: https://<account>.snowflakecomputing.com/polaris/api/catalog',
    pitfall:
      'OLake sends no vended-credentials header: the object store needs its own keys; the scope names a principal role.',
    flavour: 'polaris',
    authTypes: ['oauth2'],
    urlExample: 'https://myorg-myaccount.snowflakecomputing.com/polaris/api/catalog',
    warehouse: {
      label: 'Open Catalog Name',
      help: 'The name of the catalog in Open Catalog (not a bucket), e.g. olake_catalog',
      example: 'olake_catalog',
      rule: catalogName('an Open Catalog catalog name'),
    },
    regionRequired: true,
    suggest: { scope: 'PRINCIPAL_ROLE:ALL' },
    derive: { oauth2Uri: (v) => catalogBase(v) && `${catalogBase(v)}/v1/oauth/tokens` },
  },
  lakekeeper: {
    id: 'lakekeeper',
    label: 'Lakekeeper',
    help: 'Lakekeeper, open or behind an identity provider (e.g. Keycloak)',
    pitfall:
      'Token refresh by token exchange fails with Keycloak (apache/iceberg#12363): use long-lived tokens. The server sends its own base URI (LAKEKEEPER__BASE_URI).',
    flavour: 'lakekeeper',
    authTypes: ['none', 'oauth2', 'token'],
    urlExample: 'http://localhost:8181/catalog',
    warehouse: {
      label: 'Lakekeeper Warehouse',
      help: 'The warehouse name, or <project-uuid>/<name>, e.g. demo',
      example: 'demo',
      rule: noSpaces('a warehouse name or <project-uuid>/<name>'),
    },
    regionRequired: false,
  },
  nessie: {
    id: 'nessie',
    label: 'Project Nessie',
    help: 'Nessie’s Iceberg REST API: http://<host>:19120/iceberg[/<branch>]',
    pitfall: 'Nessie has no token endpoint of its own: OAuth2 needs the identity provider’s token URL.',
    flavour: 'nessie',
    authTypes: ['none', 'oauth2', 'token'],
    urlExample: 'http://localhost:19120/iceberg',
    warehouse: {
      label: 'Warehouse',
      help: 'A warehouse name or location configured in Nessie, e.g. s3://warehouse',
      example: 's3://warehouse',
      rule: s3OrName,
    },
    regionRequired: true,
    storage: 's3-compatible',
  },
  unity: {
    id: 'unity',
    label: 'Databricks Unity Catalog',
    help: 'Unity’s Iceberg REST API: https://<workspace>/api/2.1/unity-catalog/iceberg-rest',
    pitfall:
      'A workspace URL without the workspace id gets a 303 to a login page; OLake writes without identifier fields.',
    flavour: 'unity',
    authTypes: ['token', 'oauth2'],
    urlExample: 'https://dbc-1234abcd-5678.cloud.databricks.com/api/2.1/unity-catalog/iceberg-rest',
    warehouse: {
      label: 'Unity Catalog Name',
      help: 'The Unity catalog to write to (not a bucket), e.g. main',
      example: 'main',
      rule: catalogName('a Unity catalog name'),
    },
    regionRequired: false,
    suggest: { scope: 'all-apis' },
    derive: { oauth2Uri: (v) => origin(v) && `${origin(v)}/oidc/v1/token` },
    forced: { noIdentifierFields: true },
  },
  glue: {
    id: 'glue',
    label: 'AWS Glue (Iceberg REST)',
    help: 'Glue’s Iceberg REST endpoint: https://glue.<region>.amazonaws.com/iceberg, signed with SigV4',
    pitfall: 'The signing name must be glue: the default execute-api gets 403.',
    flavour: 'rest',
    authTypes: ['sigv4'],
    urlExample: 'https://glue.us-east-1.amazonaws.com/iceberg',
    warehouse: {
      label: 'Glue Catalog ID',
      help: 'The AWS account id, or <account-id>:s3tablescatalog/<table-bucket>, e.g. 123456789012',
      example: '123456789012',
      rule: (value) =>
        /^\d{12}(:[A-Za-z0-9_./-]+)?$/.test(value)
          ? null
          : 'must be a 12-digit AWS account id, optionally followed by :<catalog>',
    },
    regionRequired: true,
    suggest: { signingName: 'glue' },
    derive: { signingRegion: awsEndpointRegion, region: awsEndpointRegion },
  },
  s3tables: {
    id: 's3tables',
    label: 'Amazon S3 Tables',
    help: 'S3 Tables’ Iceberg REST endpoint: https://s3tables.<region>.amazonaws.com/iceberg',
    pitfall: 'The warehouse is the table bucket’s ARN; OLake signs with the service name s3tables.',
    flavour: 's3tables',
    authTypes: ['sigv4'],
    urlExample: 'https://s3tables.us-east-1.amazonaws.com/iceberg',
    warehouse: {
      label: 'S3 Table Bucket ARN',
      help: 'The table bucket’s ARN, e.g. arn:aws:s3tables:us-east-1:123456789012:bucket/olake',
      example: 'arn:aws:s3tables:us-east-1:123456789012:bucket/olake',
      rule: (value) =>
        /^arn:aws[a-z-]*:s3tables:[a-z0-9-]+:\d{12}:bucket\/[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(value)
          ? null
          : 'must be a table bucket ARN: arn:aws:s3tables:<region>:<account-id>:bucket/<name>',
    },
    regionRequired: true,
    derive: { signingRegion: awsEndpointRegion, region: awsEndpointRegion },
    forced: { signingName: 's3tables' },
  },
  biglake: {
    id: 'biglake',
    label: 'Google BigLake metastore',
    help: 'BigLake’s Iceberg REST catalog with a GCP service account',
    pitfall:
      'Data lives in Google Cloud Storage: OLake reads and writes it with the same service-account key (GCSFileIO); gcp_project_id needs OLake 0.9.1.',
    flavour: 'biglake',
    authTypes: ['google'],
    urlExample: 'https://biglake.googleapis.com/iceberg/v1/restcatalog',
    warehouse: {
      label: 'BigLake Catalog Path',
      help: 'gs://<bucket>[/path] or bq://projects/<project>, e.g. gs://my-lake',
      example: 'gs://my-lake',
      rule: (value) =>
        /^(gs:\/\/[a-z0-9][a-z0-9._-]{1,220}[a-z0-9](\/\S*)?|bq:\/\/projects\/[a-z][a-z0-9-]{4,28}[a-z0-9](\/\S*)?)$/.test(
          value,
        )
          ? null
          : 'must be gs://<bucket>[/path] or bq://projects/<project>',
    },
    regionRequired: false,
    storage: 'gcs',
    suggest: { catalogUrl: 'https://biglake.googleapis.com/iceberg/v1/restcatalog' },
  },
  r2: {
    id: 'r2',
    label: 'Cloudflare R2 Data Catalog',
    help: 'R2’s catalog: https://catalog.cloudflarestorage.com/<account-id>/<bucket>, with an API token',
    pitfall: 'The catalog token does not read data: R2 needs its own S3 access keys.',
    flavour: 'rest',
    authTypes: ['token'],
    urlExample: 'https://catalog.cloudflarestorage.com/0123456789abcdef0123456789abcdef/lake',
    warehouse: {
      label: 'R2 Warehouse',
      help: '<account-id>_<bucket>, as the R2 dashboard shows it',
      example: '0123456789abcdef0123456789abcdef_lake',
      rule: (value) =>
        /^[0-9a-f]{32}_[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(value)
          ? null
          : 'must be <account-id>_<bucket>: a 32-character hex account id, "_", the bucket name',
    },
    regionRequired: true,
    storage: 's3-compatible',
    suggest: { region: 'auto' },
    derive: {
      warehouse: (v) => {
        const p = r2Parts(v);
        return p && `${p.account}_${p.bucket}`;
      },
      s3Endpoint: (v) => {
        const p = r2Parts(v);
        return p && `https://${p.account}.r2.cloudflarestorage.com`;
      },
      dataLocation: (v) => {
        const p = r2Parts(v);
        return p && `s3://${p.bucket}`;
      },
    },
  },
};

/** The preset a named OLake flavour imports as. */
export const PRESET_OF_FLAVOUR: Record<OlakeFlavour, PresetId> = {
  rest: 'rest',
  polaris: 'polaris',
  lakekeeper: 'lakekeeper',
  nessie: 'nessie',
  unity: 'unity',
  s3tables: 's3tables',
  biglake: 'biglake',
};

/** Recognises a catalog by its URL (Glue, R2, Open Catalog, Unity…): OLake may know it only as `rest`. */
export function presetFromUrl(url: string): PresetId {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return 'rest';
  }
  if (/^glue\.[a-z0-9-]+\.amazonaws\.com$/.test(host)) return 'glue';
  if (/^s3tables\.[a-z0-9-]+\.amazonaws\.com$/.test(host)) return 's3tables';
  if (host === 'catalog.cloudflarestorage.com') return 'r2';
  if (host === 'biglake.googleapis.com') return 'biglake';
  if (host.endsWith('.snowflakecomputing.com')) return 'open-catalog';
  if (/\/api\/2\.1\/unity-catalog\/iceberg(-rest)?\/?$/.test(new URL(url).pathname)) return 'unity';
  return 'rest';
}

function isEmpty(value: string | boolean | undefined): boolean {
  return value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Fills what the preset fixes and suggests. `before` is the values before the latest change: a derived
 * value (e.g. the Polaris token URL) follows the fields it comes from until the user types their own.
 * Without `before` (a preset was just chosen, or values came from flags or a file), the preset's
 * suggestions fill the empty fields too. Nothing the user typed is replaced, except forced values.
 */
export function fillFromPreset(v: Values, before?: Values): Values {
  const preset = PRESETS[v.preset];
  const fields = { ...v.fields };
  const choosing = !before || before.preset !== v.preset;
  if (choosing)
    for (const [id, value] of Object.entries(preset.suggest ?? {}) as [FieldId, string][])
      if (isEmpty(fields[id])) fields[id] = value;
  for (const [id, derive] of Object.entries(preset.derive ?? {}) as [FieldId, Derive][]) {
    const next = derive({ ...v, fields });
    const previous = before && !choosing ? derive(before) : undefined;
    if (next !== undefined && (isEmpty(fields[id]) || fields[id] === previous)) fields[id] = next;
  }
  Object.assign(fields, preset.forced);
  const storage = choosing && preset.storage ? preset.storage : v.storage;
  const authType = preset.authTypes.includes(v.authType) ? v.authType : preset.authTypes[0]!;
  return { ...v, authType, storage, fields };
}
