// A stand-in for `olake check` on an Iceberg destination (olake v0.9.4 `destination/iceberg/config.go`
// Validate, then the Java writer's first catalog call), used by the OLake UI emulator.
import { request } from 'undici';

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
    await res.body.dump();
    if (res.statusCode === 200) return { status: 'SUCCEEDED', message: '' };
    if (res.statusCode === 401 || res.statusCode === 403)
      return fail(
        `org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: HTTP ${res.statusCode}`,
      );
    return fail(`org.apache.iceberg.exceptions.RESTException: Unable to process: HTTP ${res.statusCode}`);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).name;
    return fail(`java.net.ConnectException: ${code} connecting to ${target.host}`);
  }
}
