// OLake's destination.json, both ways: `{"type":"ICEBERG","writer":{…}}` with the writer keys of
// olake destination/iceberg/config.go (v0.9.4). The writer keys come from the field registry, the
// catalog flavours (`catalog_type`) and what OLake forces for each from the preset table.
import {
  type AuthType,
  applicableFields,
  DEFAULT_GCP_SCOPES,
  emptyValues,
  FIELDS,
  type FieldId,
  type Values,
  versionAtLeast,
} from './fields.js';
import {
  FLAVOUR_MIN_VERSION,
  OLAKE_FLAVOURS,
  type OlakeFlavour,
  PRESET_OF_FLAVOUR,
  PRESETS,
  type PresetId,
  presetFromUrl,
} from './presets.js';
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
 * The `catalog_type` written: the preset's named flavour for OLake ≥ 0.9.1 (which maps it to `rest`
 * and applies what it forces), else `rest`, with the forced values written out all the same.
 */
function exportedCatalogType(values: Values): OlakeFlavour {
  const { flavour } = PRESETS[values.preset];
  return versionAtLeast(values.targetVersion, FLAVOUR_MIN_VERSION) ? flavour : 'rest';
}

/**
 * Builds destination.json from validated values. `rest_signing_v_4` is always written: OLake passes it
 * on as `rest.sigv4-enabled`, and OLake v0.2.0–v0.9.0 UIs defaulted it to true. Fields without a
 * writer key (the Data Location) are floe's own and never written.
 */
export function toDestinationJson(input: Values, opts: { redact?: boolean } = {}): DestinationJson {
  const values = normalize(input);
  const writer: Record<string, string | boolean> = { catalog_type: exportedCatalogType(values) };
  writer.rest_auth_type = REST_AUTH_TYPE[values.authType];
  for (const def of applicableFields(values)) {
    let value = values.fields[def.id] ?? def.defaultValue;
    if (value === undefined || def.writerKey === undefined) continue;
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
  normalization: 'a per-stream setting (streams.json) since OLake PR #237, no longer a writer key',
  s3_path_style: 'forced on by OLake whenever an S3 Endpoint is set',
  s3_use_ssl: 'not offered for REST catalogs; the S3 Endpoint’s scheme decides',
  aws_session_token: 'temporary credentials are not stored; use the runtime environment',
  aws_profile: 'not stored; set AWS_PROFILE in the runtime environment',
  sink_jar_path: 'internal to OLake',
  sink_rpc_server_host: 'internal to OLake',
};

/**
 * Keys OLake does not read that its own Unity docs show (rest.mdx, "OAuth2 M2M"): read as the keys they
 * stand for, since OLake would silently ignore them and connect without credentials.
 */
const KEY_ALIASES: Record<string, string> = {
  rest_auth_uri: 'oauth2_uri',
  rest_credential: 'credential',
  rest_scope: 'scope',
};

export class ImportError extends Error {}

function inferAuthType(w: Record<string, unknown>, flavour: OlakeFlavour, notes: string[]): AuthType {
  const raw = typeof w.rest_auth_type === 'string' ? w.rest_auth_type.trim() : '';
  const lower = raw.toLowerCase();
  const has = (k: string) => typeof w[k] === 'string' && (w[k] as string) !== '';
  if (w.rest_signing_v_4 === true || lower === 'sigv4' || flavour === 's3tables') return 'sigv4';
  if (lower === 'google' || lower === 'gcp' || lower.endsWith('googleauthmanager') || flavour === 'biglake')
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
  const notes: string[] = [];
  const w = aliased(writer as Record<string, unknown>, notes);
  const catalogType = typeof w.catalog_type === 'string' && w.catalog_type ? w.catalog_type : 'glue';
  const flavour = OLAKE_FLAVOURS.find((f) => f === catalogType.toLowerCase());
  if (!flavour)
    throw new ImportError(
      `catalog_type is "${catalogType}", but floe handles only REST catalogs (${OLAKE_FLAVOURS.join(', ')})`,
    );
  const ignored: { key: string; why: string }[] = [];
  const values = emptyValues(inferAuthType(w, flavour, notes));
  if (typeof w.s3_endpoint === 'string' && w.s3_endpoint !== '') values.storage = 's3-compatible';
  // OLake's ResolvingFileIO sends gs:// to GCSFileIO, with the service-account key as its credentials.
  if (typeof w.iceberg_s3_path === 'string' && w.iceberg_s3_path.trim().startsWith('gs://'))
    values.storage = 'gcs';
  const byKey = new Map(FIELDS.map((f) => [f.writerKey, f]));
  for (const [key, value] of Object.entries(w)) {
    if (key === 'catalog_type' || key === 'rest_auth_type') continue;
    const def = byKey.get(key);
    if (!def) {
      ignored.push({
        key,
        why: Object.hasOwn(IGNORED_KEYS, key)
          ? (IGNORED_KEYS[key] as string)
          : 'not a key of the REST catalog destination',
      });
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
      ignored.push({
        key: def.writerKey ?? def.id,
        why: `not used with authentication type "${values.authType}"`,
      });
      delete values.fields[def.id as FieldId];
    }
  }
  values.preset = importedPreset(flavour, values);
  applyForced(values, notes);
  defaultTokenUrl(values, notes);
  return { values, ignored, notes };
}

/** The writer with KEY_ALIASES renamed (unless the real key is there too), each with a note. */
function aliased(writer: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  // No prototype: a "__proto__" or "constructor" key of the file is a key like any other.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(writer)) {
    const real = Object.hasOwn(KEY_ALIASES, key) ? KEY_ALIASES[key] : undefined;
    if (real && !Object.hasOwn(writer, real)) {
      out[real] = value;
      notes.push(`${key} is not a key OLake reads: read as ${real}, and exported as ${real}`);
    } else out[key] = value;
  }
  return out;
}

/**
 * The preset of a named flavour; for `rest`, one recognised by its URL when the file already has what
 * that preset needs and OLake forces for it (so importing never changes what the file means).
 */
function importedPreset(flavour: OlakeFlavour, values: Values): PresetId {
  if (flavour !== 'rest') return PRESET_OF_FLAVOUR[flavour];
  const url = values.fields.catalogUrl;
  const candidate = typeof url === 'string' ? presetFromUrl(url) : 'rest';
  const preset = PRESETS[candidate];
  const warehouse = values.fields.warehouse;
  const fits =
    preset.authTypes.includes(values.authType) &&
    typeof warehouse === 'string' &&
    preset.warehouse.rule(warehouse) === null &&
    Object.entries(preset.forced ?? {}).every(([id, v]) => values.fields[id as FieldId] === v);
  return fits ? candidate : 'rest';
}

/** What OLake forces for the flavour (config.go Validate) replaces what the file says, with a note. */
function applyForced(values: Values, notes: string[]): void {
  const preset = PRESETS[values.preset];
  for (const [id, forced] of Object.entries(preset.forced ?? {}) as [FieldId, string | boolean][]) {
    const had = values.fields[id];
    if (had !== undefined && had !== forced)
      notes.push(
        `${FIELDS.find((f) => f.id === id)?.writerKey} ${JSON.stringify(had)} is replaced by ${JSON.stringify(forced)}: OLake forces it for catalog_type "${preset.flavour}"`,
      );
    values.fields[id] = forced;
  }
}

/** Iceberg's own fallback for an OAuth2 client without a token URL, written out (it is deprecated). */
function defaultTokenUrl(values: Values, notes: string[]): void {
  const url = values.fields.catalogUrl;
  if (values.authType !== 'oauth2' || values.fields.oauth2Uri !== undefined || typeof url !== 'string')
    return;
  values.fields.oauth2Uri = `${url.replace(/\/+$/, '')}/v1/oauth/tokens`;
  notes.push(
    `oauth2_uri is empty: set to ${values.fields.oauth2Uri}, the deprecated endpoint Iceberg falls back to; prefer your identity provider's token endpoint`,
  );
}
