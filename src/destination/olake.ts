// OLake's destination.json, both ways: `{"type":"ICEBERG","writer":{…}}` with the writer keys of
// olake destination/iceberg/config.go (v0.9.4). The writer keys come from the field registry.
import {
  type AuthType,
  applicableFields,
  DEFAULT_GCP_SCOPES,
  emptyValues,
  FIELDS,
  type FieldId,
  type Values,
} from './fields.js';
import { normalize } from './schema.js';

export interface DestinationJson {
  type: 'ICEBERG';
  writer: Record<string, string | boolean>;
}

/**
 * Iceberg's `rest.auth.type` for each floe auth type. A bearer token is exported as `oauth2`:
 * Iceberg's `none` auth manager (NoopAuthManager) ignores `token`, while the OAuth2 manager sends a
 * configured `token` as-is as "Authorization: Bearer" without contacting any token endpoint.
 */
const REST_AUTH_TYPE: Record<AuthType, string> = {
  none: 'none',
  token: 'oauth2',
  oauth2: 'oauth2',
  sigv4: 'sigv4',
  google: 'google',
};

export const REDACTED = '<redacted>';

/**
 * Builds destination.json from validated values. `rest_signing_v_4` is always written: OLake passes it
 * on as `rest.sigv4-enabled`, and OLake v0.2.0–v0.9.0 UIs defaulted it to true.
 */
export function toDestinationJson(input: Values, opts: { redact?: boolean } = {}): DestinationJson {
  const values = normalize(input);
  const writer: Record<string, string | boolean> = { catalog_type: 'rest' };
  writer.rest_auth_type = REST_AUTH_TYPE[values.authType];
  for (const def of applicableFields(values)) {
    let value = values.fields[def.id] ?? def.defaultValue;
    if (value === undefined) continue;
    if (def.secret && opts.redact && typeof value === 'string') value = REDACTED;
    writer[def.writerKey] = value;
  }
  writer.rest_signing_v_4 = values.authType === 'sigv4';
  if (values.authType === 'google' && writer.gcp_auth_scopes === undefined)
    writer.gcp_auth_scopes = DEFAULT_GCP_SCOPES;
  return { type: 'ICEBERG', writer };
}

export function serializeDestination(json: DestinationJson): string {
  return `${JSON.stringify(json, null, 2)}\n`;
}

export interface ImportResult {
  values: Values;
  /** Keys present in the file that floe does not use, with the reason. */
  ignored: { key: string; why: string }[];
  /** Notes about interpretation (e.g. an old free-text auth type). */
  notes: string[];
}

const IGNORED_KEYS: Record<string, string> = {
  iceberg_db: 'dropped from OLake’s spec after v0.2.0; streams set their own destination database',
  normalization: 'a per-stream setting (streams.json) since OLake PR #237, no longer a writer key',
  s3_path_style: 'forced on by OLake whenever an S3 Endpoint is set',
  s3_use_ssl: 'not offered for REST catalogs; the S3 Endpoint’s scheme decides',
  aws_session_token: 'temporary credentials are not stored; use the runtime environment',
  aws_profile: 'not stored; set AWS_PROFILE in the runtime environment',
  sink_jar_path: 'internal to OLake',
  sink_rpc_server_host: 'internal to OLake',
};

const REST_FLAVOURS = ['rest', 'lakekeeper', 'nessie', 's3tables', 'unity', 'polaris', 'biglake'];

export class ImportError extends Error {}

function inferAuthType(w: Record<string, unknown>, notes: string[]): AuthType {
  const raw = typeof w.rest_auth_type === 'string' ? w.rest_auth_type.trim() : '';
  const lower = raw.toLowerCase();
  const has = (k: string) => typeof w[k] === 'string' && (w[k] as string) !== '';
  if (w.rest_signing_v_4 === true || lower === 'sigv4') return 'sigv4';
  if (
    lower === 'google' ||
    lower === 'gcp' ||
    lower.endsWith('googleauthmanager') ||
    w.catalog_type === 'biglake'
  )
    return 'google';
  let type: AuthType;
  if (has('credential')) type = 'oauth2';
  else if (has('token')) type = 'token';
  else type = 'none';
  if (raw && raw !== REST_AUTH_TYPE[type]) {
    notes.push(
      `rest_auth_type "${raw}" read as ${type} (from the keys present); exported as "${REST_AUTH_TYPE[type]}"`,
    );
  } else if (raw === '' && type !== 'none') {
    notes.push(
      `rest_auth_type is empty; Iceberg infers OAuth2 from "${type === 'token' ? 'token' : 'credential'}"`,
    );
  }
  return type;
}

/** Reads an OLake destination.json (also the older form) into floe values. Validation is the caller's. */
export function fromDestinationJson(input: unknown): ImportResult {
  if (typeof input !== 'object' || input === null) throw new ImportError('the file must hold a JSON object');
  const root = input as Record<string, unknown>;
  const writer = root.writer;
  if (typeof writer !== 'object' || writer === null || Array.isArray(writer))
    throw new ImportError('the "writer" object is missing: expected {"type":"ICEBERG","writer":{…}}');
  if (root.type !== undefined && root.type !== 'ICEBERG')
    throw new ImportError(`"type" is "${String(root.type)}", but floe handles only ICEBERG destinations`);
  const w = writer as Record<string, unknown>;
  const catalogType = typeof w.catalog_type === 'string' ? w.catalog_type : 'glue';
  if (!REST_FLAVOURS.includes(catalogType))
    throw new ImportError(
      `catalog_type is "${catalogType}", but floe handles only REST catalogs (${REST_FLAVOURS.join(', ')})`,
    );
  const notes: string[] = [];
  const ignored: { key: string; why: string }[] = [];
  if (catalogType !== 'rest')
    notes.push(`catalog_type "${catalogType}" is a REST flavour; exported again as "rest"`);
  const values = emptyValues(inferAuthType(w, notes));
  if (typeof w.s3_endpoint === 'string' && w.s3_endpoint !== '') values.storage = 's3-compatible';
  const byKey = new Map(FIELDS.map((f) => [f.writerKey, f]));
  for (const [key, value] of Object.entries(w)) {
    if (key === 'catalog_type' || key === 'rest_auth_type') continue;
    const def = byKey.get(key);
    if (!def) {
      ignored.push({ key, why: IGNORED_KEYS[key] ?? 'not a key of the REST catalog destination' });
      continue;
    }
    if (def.type === 'boolean') {
      if (typeof value === 'boolean') values.fields[def.id] = value;
      else if (value === 'true' || value === 'false') values.fields[def.id] = value === 'true';
      else throw new ImportError(`${key} must be true or false, not ${JSON.stringify(value)}`);
    } else if (typeof value === 'string') {
      if (value !== '') values.fields[def.id] = value;
    } else throw new ImportError(`${key} must be a string, not ${JSON.stringify(value)}`);
  }
  for (const def of FIELDS) {
    if (values.fields[def.id] !== undefined && !def.applies(values) && def.id !== 'sigv4') {
      ignored.push({ key: def.writerKey, why: `not used with authentication type "${values.authType}"` });
      delete values.fields[def.id as FieldId];
    }
  }
  return { values, ignored, notes };
}
