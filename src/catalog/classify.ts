// Turns a failed exchange into a diagnosis: network failures by kind, HTTP answers by status, by
// body shape (Iceberg error, OAuthError, AWS {"message"}, HTML, garbage) and by the server's clock.
import { STATUS_CODES } from 'node:http';
import { type SecretScrubber, safeUrl } from '../check/scrub.js';
import type { Diagnosis } from '../check/types.js';
import { type CatalogDiagnosisCode, diagnosis } from './diagnoses.js';
import type { HttpRequest, HttpResponse, NetworkFailure } from './http.js';

/** What a request was for; decides how a 404 or an OAuth error is read. */
/** `write`: the namespace and table calls of the write check. */
export type Route = 'config' | 'namespaces' | 'token' | 'write';

export interface ClassifyContext {
  step: string;
  route: Route;
  scrubber: SecretScrubber;
  /** SigV4 credential scope used (`date/region/service/aws4_request`), shown on signature errors. */
  signingScope?: string;
  /** The Warehouse as the preset names it, for a remedy that fits the catalog. */
  warehouse?: { label: string; example: string; value: string; catalog: string };
  now?: () => number;
}

/** SigV4 allows 5 minutes; OAuth2 JWTs are usually checked with a similar leeway. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

const MAX_MESSAGE = 300;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE ? `${oneLine.slice(0, MAX_MESSAGE)}…` : oneLine;
}

function requestLine(req: HttpRequest): string {
  return `${req.method} ${req.url.origin}${req.url.pathname}`;
}

function statusText(status: number): string {
  const reason = status === 419 ? 'Authentication Timeout' : STATUS_CODES[status];
  return `${status} ${reason ?? ''}`.trim();
}

export function isJsonType(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]*\+)?json\b|^application\/x-amz-json/i.test(contentType ?? '');
}

function isHtml(res: HttpResponse): boolean {
  return (
    /^text\/html|^application\/xhtml/i.test(res.headers['content-type'] ?? '') ||
    /^\s*<(!doctype html|html|head|body)\b/i.test(res.body)
  );
}

/** The error fields of any known JSON error shape. */
interface ErrorInfo {
  code?: string;
  message?: string;
}

function errorInfo(res: HttpResponse): ErrorInfo {
  if (!/^\s*\{/.test(res.body)) return {};
  let value: unknown;
  try {
    value = JSON.parse(res.body);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const o = value as Record<string, unknown>;
  if (typeof o.error === 'object' && o.error !== null) {
    const e = o.error as Record<string, unknown>;
    return {
      code: typeof e.type === 'string' ? e.type : undefined,
      message: typeof e.message === 'string' ? e.message : undefined,
    };
  }
  if (typeof o.error === 'string') {
    return {
      code: o.error,
      message: typeof o.error_description === 'string' ? o.error_description : undefined,
    };
  }
  const message = o.message ?? o.Message;
  // AWS (`__type`, x-amzn-errortype) and Databricks (`error_code`) name the error beside the message.
  const type = o.__type ?? o.error_code ?? res.headers['x-amzn-errortype'];
  return {
    code: typeof type === 'string' ? type.split(':')[0] : undefined,
    message: typeof message === 'string' ? message : undefined,
  };
}

function requestId(res: HttpResponse): string | undefined {
  const h = res.headers;
  return h['x-request-id'] ?? h['x-amzn-requestid'] ?? h['x-amz-request-id'] ?? h['request-id'];
}

function evidenceOf(
  req: HttpRequest,
  res: HttpResponse,
  ctx: ClassifyContext,
  info: ErrorInfo,
  extra: Record<string, string> = {},
): Diagnosis['evidence'] {
  const id = requestId(res);
  const all: Record<string, string> = { ...extra };
  if (info.message) all.message = ctx.scrubber.scrub(clip(info.message));
  if (res.headers['content-type']) all.contentType = res.headers['content-type'];
  return {
    status: res.status,
    ...(info.code ? { errorCode: ctx.scrubber.scrub(clip(info.code)) } : {}),
    ...(id ? { requestId: id } : {}),
    url: safeUrl(req.url, ctx.scrubber),
    ...(Object.keys(all).length ? { extra: all } : {}),
  };
}

/** A network failure (no HTTP response) as a diagnosis; null for a cancellation. */
export function diagnoseFailure(
  step: string,
  req: { method: string; url: URL },
  failure: NetworkFailure,
  scrubber: SecretScrubber,
  timeoutMs: number,
): Diagnosis | null {
  const host = req.url.host;
  const evidence: Diagnosis['evidence'] = {
    errorCode: failure.code,
    url: safeUrl(req.url, scrubber),
    extra: { error: scrubber.scrub(clip(failure.message)) },
  };
  const table: Record<Exclude<NetworkFailure['kind'], 'cancelled'>, [CatalogDiagnosisCode, string]> = {
    dns: ['CATALOG_DNS', `The host name ${req.url.hostname} does not resolve`],
    refused: ['CATALOG_CONNECTION_REFUSED', `Connection to ${host} was refused`],
    'tls-untrusted': ['CATALOG_TLS_UNTRUSTED', `The TLS certificate of ${host} is not trusted`],
    'tls-hostname': ['CATALOG_TLS_HOSTNAME', `The TLS certificate of ${host} is for another host name`],
    tls: ['CATALOG_TLS', `The TLS handshake with ${host} failed`],
    timeout: [
      'CATALOG_TIMEOUT',
      req.method === 'CONNECT'
        ? `Connecting to ${host} took longer than ${timeoutMs} ms`
        : `${req.method} ${safeUrl(req.url, scrubber)} got no answer in ${timeoutMs} ms`,
    ],
    network: ['CATALOG_NETWORK', `The connection to ${host} failed`],
    'proxy-unreachable': [
      'CATALOG_PROXY_UNREACHABLE',
      `The proxy ${failure.proxy ?? ''} could not be reached`,
    ],
    'proxy-connect': [
      'CATALOG_PROXY_CONNECT',
      `The proxy ${failure.proxy ?? ''} refused the tunnel to ${host}`,
    ],
    'bad-header': [
      'CATALOG_SECRET_UNSENDABLE',
      `${req.method} ${safeUrl(req.url, scrubber)} was not sent: ${/authorization/i.test(failure.message) ? 'the token or credential' : 'a header value'} holds characters an HTTP header cannot carry`,
    ],
  };
  if (failure.kind === 'cancelled') return null;
  const [code, what] = table[failure.kind];
  if (failure.proxy) evidence.extra = { ...evidence.extra, proxy: failure.proxy };
  const through =
    failure.proxy && !failure.kind.startsWith('proxy-') ? ` (through proxy ${failure.proxy})` : '';
  return diagnosis(code, step, { what: `${what}${through}`, evidence });
}

function clockSkew(res: HttpResponse, now: number): number | null {
  const date = Date.parse(res.headers.date ?? '');
  if (Number.isNaN(date)) return null;
  const skew = date - now;
  return Math.abs(skew) > MAX_CLOCK_SKEW_MS ? skew : null;
}

const OAUTH_CODES: Record<string, CatalogDiagnosisCode> = {
  invalid_client: 'CATALOG_OAUTH_INVALID_CLIENT',
  unauthorized_client: 'CATALOG_OAUTH_UNAUTHORIZED_CLIENT',
  invalid_scope: 'CATALOG_OAUTH_INVALID_SCOPE',
};

/** A non-2xx (or unusable 2xx) answer as a diagnosis. */
export function diagnoseResponse(req: HttpRequest, res: HttpResponse, ctx: ClassifyContext): Diagnosis {
  const info = errorInfo(res);
  const line = requestLine(req);
  const answered = `${line} answered ${statusText(res.status)}`;
  const make = (code: CatalogDiagnosisCode, what: string, extra?: Record<string, string>, cause?: string) =>
    diagnosis(code, ctx.step, {
      what,
      ...(cause ? { cause } : {}),
      evidence: evidenceOf(req, res, ctx, info, extra),
    });
  const message = info.message ?? '';

  if (res.status >= 300 && res.status < 400) {
    const location = res.headers.location;
    const target = location ? safeUrl(new URL(location, req.url), ctx.scrubber) : undefined;
    return make(
      'CATALOG_REDIRECT',
      target ? `${answered}, redirecting to ${target}` : answered,
      target ? { location: target } : {},
    );
  }
  if (res.truncated) return make('CATALOG_BODY_TOO_LARGE', `${line} answered more than 1 MiB`);

  const scope = ctx.signingScope ? { credentialScope: ctx.signingScope } : undefined;
  const skew = res.status >= 400 && res.status < 500 ? clockSkew(res, (ctx.now ?? Date.now)()) : null;
  if (skew !== null || /signature expired|signature not yet current|RequestTimeTooSkewed/i.test(message)) {
    const extra: Record<string, string> = {};
    if (res.headers.date) extra.serverDate = res.headers.date;
    extra.localDate = new Date((ctx.now ?? Date.now)()).toUTCString();
    if (skew !== null) extra.skewSeconds = String(Math.round(skew / 1000));
    return make('CATALOG_CLOCK_SKEW', `${answered}: the clocks differ`, extra);
  }

  // API Gateway answers a signed request for a path it has no resource for with the same 403 as an
  // unsigned one: once floe signs, it means a wrong base path or prefix, not a missing signature.
  if (/^missing authentication token/i.test(message))
    return ctx.signingScope
      ? make(
          'CATALOG_SIGV4_PATH_NOT_FOUND',
          `${answered}: Missing Authentication Token for a signed request`,
          scope,
        )
      : make('CATALOG_SIGV4_NOT_ENABLED', `${answered}: Missing Authentication Token`);
  if (/signature we calculated does not match|credential should be scoped/i.test(message))
    return make('CATALOG_SIGV4_SIGNATURE_MISMATCH', `${answered}: the signature does not match`, scope);
  if (
    /security token included in the request is invalid|access key id you provided does not exist/i.test(
      message,
    ) ||
    /UnrecognizedClient|InvalidAccessKeyId|InvalidClientTokenId/.test(info.code ?? '')
  )
    return make('CATALOG_SIGV4_UNKNOWN_KEY', `${answered}: unknown access key`, scope);
  if (/is not authorized to perform: sts:AssumeRole/i.test(message))
    return make('CATALOG_ASSUME_ROLE_DENIED', `${answered}: sts:AssumeRole denied`);

  if (ctx.route === 'token') {
    const oauthCode = info.code && OAUTH_CODES[info.code];
    if (oauthCode === 'CATALOG_OAUTH_UNAUTHORIZED_CLIENT' && res.status === 401)
      return make(oauthCode, `${answered} unauthorized_client: wrong client id or secret`);
    if (oauthCode) return make(oauthCode, `The token endpoint answered ${info.code}`);
    if (res.status === 404 || res.status === 405)
      return make('CATALOG_TOKEN_URL_NOT_FOUND', `${answered}: no token endpoint there`);
    // Nessie answers 501 NotImplemented: it has no token endpoint of its own (IcebergApiV1ResourceBase).
    if (res.status === 501 || /^NotImplemented/i.test(info.code ?? ''))
      return make(
        'CATALOG_TOKEN_URL_NOT_FOUND',
        `${answered}: this server has no token endpoint`,
        {},
        'The server does not issue tokens (Nessie answers 501 NotImplemented): tokens come from an external identity provider.',
      );
    if (info.code && res.status >= 400 && res.status < 500 && !isHtml(res))
      return make('CATALOG_OAUTH_ERROR', `The token endpoint answered ${info.code}`);
  }

  const htmlNote = isHtml(res) ? ' (an HTML page)' : '';
  const warehouseRefused =
    ctx.route === 'config' &&
    res.status >= 400 &&
    ![401, 403, 419, 503].includes(res.status) &&
    /warehouse/i.test(`${info.code ?? ''} ${message}`);
  if (warehouseRefused || (res.status === 404 && /warehouse/i.test(`${info.code ?? ''} ${message}`)))
    return warehouseDiagnosis(make, answered, res.status, ctx);
  if (res.status === 503) {
    const retry = res.headers['retry-after'];
    return make(
      'CATALOG_UNAVAILABLE',
      `${answered}${htmlNote}${retry && req.method === 'GET' ? ` again after one retry (Retry-After: ${retry})` : ''}`,
      retry ? { retryAfter: retry } : {},
    );
  }
  if (res.status >= 500) return make('CATALOG_SERVER_ERROR', `${answered}${htmlNote}`);
  if (res.status === 401 || res.status === 419) {
    const cause =
      res.status === 419
        ? 'The token has expired (419 Authentication Timeout).'
        : ctx.route === 'token'
          ? 'The token endpoint rejected the client credentials.'
          : undefined;
    return make('CATALOG_UNAUTHORIZED', `${answered}${htmlNote}`, {}, cause);
  }
  if (res.status === 403) return make('CATALOG_FORBIDDEN', `${answered}${htmlNote}`);
  if (res.status === 404) {
    if (ctx.route === 'config') return make('CATALOG_CONFIG_NOT_FOUND', `${answered}${htmlNote}`);
    if (ctx.route === 'namespaces') return make('CATALOG_PREFIX_NOT_FOUND', `${answered}${htmlNote}`);
  }
  if (res.status >= 400) return make('CATALOG_HTTP_ERROR', `${answered}${htmlNote}`);
  if (isHtml(res)) return make('CATALOG_HTML_RESPONSE', `${answered} with an HTML page instead of JSON`);
  return make(
    'CATALOG_NOT_JSON',
    `${answered} with ${res.headers['content-type'] ?? 'no content type'} instead of JSON`,
    { bodyStart: ctx.scrubber.scrub(clip(res.body.slice(0, 80))) },
  );
}

type Make = (
  code: CatalogDiagnosisCode,
  what: string,
  extra?: Record<string, string>,
  cause?: string,
) => Diagnosis;

/** A refused warehouse, with a remedy in the catalog's own terms (a name, an ARN, a location…). */
function warehouseDiagnosis(make: Make, answered: string, status: number, ctx: ClassifyContext): Diagnosis {
  const wh = ctx.warehouse;
  const d = make(
    'CATALOG_WAREHOUSE_NOT_FOUND',
    `${answered}: ${status === 404 ? 'unknown warehouse' : 'the warehouse was refused'}`,
    wh ? { warehouse: ctx.scrubber.scrub(wh.value) || '(empty)' } : {},
  );
  if (!wh) return d;
  return {
    ...d,
    cause: `${wh.catalog} does not serve the ${wh.label} “${ctx.scrubber.scrub(wh.value) || '(empty)'}”.`,
    remedy: `Set ${wh.label} to one that exists in the catalog, e.g. ${wh.example} (floe setup --warehouse …), or create it there.`,
  };
}

/** The JSON body of a 2xx answer (read with `parse`), or the diagnosis of why it is unusable. */
export function readJson(
  req: HttpRequest,
  res: HttpResponse,
  ctx: ClassifyContext,
  parse: (text: string) => unknown = JSON.parse,
): { value: unknown } | { diagnosis: Diagnosis } {
  if (res.status < 200 || res.status >= 300 || res.truncated || !isJsonType(res.headers['content-type']))
    return { diagnosis: diagnoseResponse(req, res, ctx) };
  try {
    return { value: parse(res.body) };
  } catch (error) {
    return {
      diagnosis: diagnosis('CATALOG_NOT_JSON', ctx.step, {
        what: `${requestLine(req)} answered ${statusText(res.status)} with a body that is not valid JSON`,
        evidence: evidenceOf(req, res, ctx, {}, { parseError: (error as Error).message }),
      }),
    };
  }
}

/** A diagnosis for a 2xx JSON answer of the wrong shape. */
export function badShape(
  code: 'CATALOG_BAD_CONFIG' | 'CATALOG_BAD_RESPONSE' | 'CATALOG_TOKEN_UNUSABLE',
  req: HttpRequest,
  res: HttpResponse,
  ctx: ClassifyContext,
  problem: string,
): Diagnosis {
  return diagnosis(code, ctx.step, {
    what: `${requestLine(req)} answered JSON that ${problem}`,
    evidence: evidenceOf(req, res, ctx, {}),
  });
}

/**
 * What keeps `value` out of an HTTP header, or undefined when it can go in one: undici refuses all but
 * tab, 0x20-0x7e and 0x80-0xff (lib/core/util.js headerCharRegex). Says the kind, never the character.
 */
export function headerProblem(value: string): string | undefined {
  const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(value)?.[0];
  if (bad === undefined) return undefined;
  if (bad === '\r' || bad === '\n') return 'a line break';
  return bad.charCodeAt(0) > 0xff ? 'a character outside Latin-1' : 'a control character';
}
