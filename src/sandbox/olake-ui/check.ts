// A stand-in for `olake check` on an Iceberg destination, used by the OLake UI emulator: olake v0.9.4
// `destination/iceberg/config.go` Validate, then what `Check` (destination/iceberg/iceberg.go) asks the
// Java writer to do — GET_OR_CREATE the table test_olake in the namespace test_olake with OLake's raw
// schema (IcebergUtil.createIcebergTable: namespace created if missing, format v2, Parquet), then one
// record written to the table's location with the writer's S3 settings. Nothing is committed and the
// table stays, as with OLake. Errors read as the Java writer reports them (Iceberg's ErrorHandlers
// exception texts inside the gRPC error), loopback only; SigV4 and Google auth are not signed.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { lazy } from '../../lazy.js';
import { olakeRawSchema, writeDataFile } from '../../write/files.js';

export interface ConnectionCheck {
  status: 'SUCCEEDED' | 'FAILED';
  message: string;
}

/** `constants.RESTCatalogs` (olake v0.9.1+): all of them become `rest` after defaults are applied. */
const REST_CATALOGS = ['rest', 'lakekeeper', 'nessie', 's3tables', 'unity', 'polaris', 'biglake'];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host);
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** Iceberg's OAuth2 manager: a static `token`, or `credential` exchanged at the token endpoint. */
async function bearerFor(
  writer: Record<string, unknown>,
  uri: string,
): Promise<string | { error: string } | undefined> {
  const token = text(writer.token);
  const credential = text(writer.credential);
  if (token || !credential) return token;
  const endpoint = new URL(text(writer.oauth2_uri) ?? `${uri.replace(/\/+$/, '')}/v1/oauth/tokens`);
  if (!isLoopback(endpoint.hostname))
    return { error: `the emulator only reaches loopback token endpoints, not ${endpoint.host}` };
  const split = credential.indexOf(':');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: text(writer.scope) ?? 'catalog',
  });
  if (split >= 0) form.set('client_id', credential.slice(0, split));
  form.set('client_secret', split >= 0 ? credential.slice(split + 1) : credential);
  const res = await request(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await res.body.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
  if (res.statusCode === 200 && typeof body.access_token === 'string') return body.access_token;
  return {
    error: `org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: ${typeof body.error === 'string' ? body.error : `HTTP ${res.statusCode}`}`,
  };
}

/**
 * A stand-in for `olake check`: OLake's own config validation, then what Iceberg's RESTCatalog does
 * first, GET <uri>/v1/config (with the bearer token, or one from the OAuth2 client-credentials
 * exchange), on loopback only. SigV4 and Google auth are not signed.
 */
export async function checkIcebergConfig(config: unknown): Promise<ConnectionCheck> {
  const prefix =
    'failed to initialize destination: failed to start iceberg server: failed to validate config: ';
  const writer = isObject(config) && isObject(config.writer) ? config.writer : undefined;
  if (!writer) return { status: 'FAILED', message: 'no connector config or destination config provided' };
  if (!writer.iceberg_s3_path) return { status: 'FAILED', message: `${prefix}s3_path is required` };
  const catalog =
    typeof writer.catalog_type === 'string' && writer.catalog_type ? writer.catalog_type : 'glue';
  if (catalog === 'glue' || catalog === 'jdbc' || catalog === 'hive')
    return {
      status: 'FAILED',
      message: `failed to test destination: the emulator cannot reach ${catalog} catalogs, only REST ones`,
    };
  if (!REST_CATALOGS.includes(catalog))
    return { status: 'FAILED', message: `${prefix}unsupported catalog_type: ${catalog}` };
  const uri = typeof writer.rest_catalog_url === 'string' ? writer.rest_catalog_url : '';
  if (!uri)
    return { status: 'FAILED', message: `${prefix}rest_catalog_url is required when using REST catalog` };
  let target: URL;
  try {
    target = new URL(`${uri.replace(/\/+$/, '')}/v1/config`);
  } catch {
    return { status: 'FAILED', message: `${prefix}invalid rest_catalog_url: ${uri}` };
  }
  const fail = (why: string): ConnectionCheck => ({
    status: 'FAILED',
    message: `failed to test destination: failed to create or get table: rpc error: code = Internal desc = Failed to process request: ${why}`,
  });
  if (!isLoopback(target.hostname))
    return fail(`the emulator only reaches loopback catalogs, not ${target.host}`);
  target.searchParams.set('warehouse', String(writer.iceberg_s3_path));
  const headers: Record<string, string> = {};
  try {
    const bearer = await bearerFor(writer, uri);
    if (typeof bearer === 'object') return fail(bearer.error);
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const res = await request(target, { headers, signal: AbortSignal.timeout(5000) });
    const body = await res.body.text();
    if (res.statusCode !== 200) return fail(javaException(res.statusCode, body));
    const config = parse(body);
    const merged = isObject(config)
      ? {
          ...(isObject(config.defaults) ? config.defaults : {}),
          ...(isObject(config.overrides) ? config.overrides : {}),
        }
      : {};
    const base = text(merged.uri)?.replace(/\/+$/, '') ?? uri.replace(/\/+$/, '');
    const prefix = text(merged.prefix);
    const namespaces = `${base}/v1/${prefix ? `${prefix}/` : ''}namespaces`;
    const created = await getOrCreateTable(namespaces, headers);
    if ('error' in created) return fail(created.error);
    const written = await writeRecord(writer, created.location);
    if (written)
      return {
        status: 'FAILED',
        message: `failed to test destination: failed to insert request: rpc error: code = Internal desc = Failed to process request: ${written}`,
      };
    return { status: 'SUCCEEDED', message: '' };
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).name;
    return fail(`java.net.ConnectException: ${code} connecting to ${target.host}`);
  }
}

const NAMESPACE = 'test_olake';
const TABLE = 'test_olake';

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Iceberg Java's ErrorHandlers: the exception and its text for a catalog's error answer. */
function javaException(status: number, body: string): string {
  const parsed = parse(body);
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : {};
  const message =
    text(error.message) ?? text(isObject(parsed) ? parsed.message : undefined) ?? `HTTP ${status}`;
  const type = text(error.type) ?? 'RESTException';
  const e = 'org.apache.iceberg.exceptions';
  if (status === 401) return `${e}.NotAuthorizedException: Not authorized: ${message}`;
  if (status === 403) return `${e}.ForbiddenException: Forbidden: ${message}`;
  if (status === 400) return `${e}.BadRequestException: Malformed request: ${message}`;
  if (status === 404)
    return /^NoSuch\w+Exception$/.test(type)
      ? `${e}.${type}: ${message}`
      : `${e}.RESTException: Unable to process: ${message}`;
  if (status === 409) return `${e}.AlreadyExistsException: ${message}`;
  if (status >= 500) return `${e}.ServiceFailureException: Server error: ${type}: ${message}`;
  return `${e}.RESTException: Unable to process: ${message}`;
}

async function call(url: string, headers: Record<string, string>, method: 'GET' | 'POST', body?: unknown) {
  const res = await request(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.statusCode, body: await res.body.text() };
}

/** The Java writer's GET_OR_CREATE_TABLE: load test_olake.test_olake, else create it (and the namespace). */
async function getOrCreateTable(
  namespaces: string,
  headers: Record<string, string>,
): Promise<{ location: string } | { error: string }> {
  const tableUrl = `${namespaces}/${NAMESPACE}/tables/${TABLE}`;
  let res = await call(tableUrl, headers, 'GET');
  if (res.status === 404) {
    const ns = await call(namespaces, headers, 'POST', { namespace: [NAMESPACE], properties: {} });
    if (ns.status !== 200 && ns.status !== 409) return { error: javaException(ns.status, ns.body) };
    res = await call(`${namespaces}/${NAMESPACE}/tables`, headers, 'POST', {
      name: TABLE,
      schema: olakeRawSchema(true),
      properties: { 'format-version': '2', 'write.format.default': 'parquet' },
    });
  }
  if (res.status !== 200) return { error: javaException(res.status, res.body) };
  const answer = parse(res.body);
  const location = isObject(answer) && isObject(answer.metadata) ? text(answer.metadata.location) : undefined;
  return location
    ? { location }
    : { error: 'org.apache.iceberg.exceptions.RESTException: no table location' };
}

/** One record as a Parquet data file under the table's location, with the writer's S3 settings; an error's text, or null. */
async function writeRecord(writer: Record<string, unknown>, location: string): Promise<string | null> {
  const match = /^s3a?:\/\/([^/]+)\/?(.*)$/.exec(location);
  if (!match)
    return `org.apache.iceberg.exceptions.ValidationException: the emulator writes s3:// locations only, not ${location}`;
  const { S3Client, PutObjectCommand } = await lazy.s3();
  const endpoint = text(writer.s3_endpoint);
  const key = text(writer.aws_access_key);
  const secret = text(writer.aws_secret_key);
  const client = new S3Client({
    region: text(writer.aws_region) ?? 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: writer.s3_path_style !== false } : {}),
    ...(key && secret ? { credentials: { accessKeyId: key, secretAccessKey: secret } } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  const now = new Date();
  const file = await writeDataFile(olakeRawSchema(true), [
    {
      _olake_id: 'olake',
      _olake_timestamp: now,
      _op_type: 'r',
      _cdc_timestamp: now,
      data: '{"name":"olake"}',
    },
  ]);
  const prefix = match[2] ? `${match[2].replace(/\/+$/, '')}/` : '';
  try {
    await client.send(
      new PutObjectCommand({
        Bucket: match[1],
        Key: `${prefix}data/00000-0-${randomUUID()}-00001.parquet`,
        Body: file.bytes,
      }),
      { abortSignal: AbortSignal.timeout(5000) },
    );
    return null;
  } catch (error) {
    const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    return `software.amazon.awssdk.services.s3.model.S3Exception: ${e.message ?? e.name} (Service: S3, Status Code: ${e.$metadata?.httpStatusCode ?? 0})`;
  } finally {
    client.destroy();
  }
}
