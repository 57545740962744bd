// Credentials the way the Java client handles them: the OAuth2 `credential` split, the Google
// service-account JWT assertion, and SigV4 signing with the profile's keys or the AWS default chain.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest as SignableRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import { lazy } from '../lazy.js';
import type { HttpRequest } from './http.js';

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const EMPTY_BODY_SHA256 = createHash('sha256').update('').digest('hex');

/** RFC 3986 query encoding (what SigV4 canonicalises), so the URL sent is the URL signed. */
export function encodeQuery(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .join('&');
}

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export class GoogleKeyError extends Error {}

export interface GoogleAssertion {
  assertion: string;
  tokenUri: string;
  clientEmail: string;
}

/** `text` as written, but for a user:password@ after its scheme. */
const withoutUserinfo = (text: string) => text.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#@]*@/i, '$1');

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** A signed RS256 JWT for the jwt-bearer grant. Throws GoogleKeyError for an unusable key file. */
export function googleAssertion(json: string, scopes: string[], nowMs = Date.now()): GoogleAssertion {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new GoogleKeyError('the service-account JSON does not parse');
  }
  const o = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof o.client_email !== 'string' || !o.client_email)
    throw new GoogleKeyError('the service-account JSON has no "client_email"');
  if (typeof o.private_key !== 'string')
    throw new GoogleKeyError('the service-account JSON has no "private_key"');
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(o.private_key);
  } catch {
    throw new GoogleKeyError('the "private_key" is not a readable PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new GoogleKeyError('the "private_key" is not an RSA key');
  const tokenUri = o.token_uri === undefined || o.token_uri === '' ? GOOGLE_TOKEN_URI : o.token_uri;
  if (typeof tokenUri !== 'string' || !/^https?:\/\/[^/?#]/i.test(tokenUri) || !URL.canParse(tokenUri))
    throw new GoogleKeyError(
      `its "token_uri" (${typeof tokenUri === 'string' ? JSON.stringify(withoutUserinfo(tokenUri.slice(0, 100))) : typeof tokenUri}) must be an absolute http(s) URL of the token endpoint, e.g. ${GOOGLE_TOKEN_URI}`,
    );
  const iat = Math.floor(nowMs / 1000);
  const header = {
    alg: 'RS256',
    typ: 'JWT',
    ...(typeof o.private_key_id === 'string' ? { kid: o.private_key_id } : {}),
  };
  const claims = { iss: o.client_email, scope: scopes.join(' '), aud: tokenUri, iat, exp: iat + 3600 };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), key);
  return { assertion: `${input}.${b64url(signature)}`, tokenUri, clientEmail: o.client_email };
}

class AwsCredentialsError extends Error {}

/** The profile's keys, else the AWS default credential chain (env, shared files, SSO, instance role). */
export async function resolveAwsCredentials(
  keys: { accessKeyId?: string; secretAccessKey?: string },
  signal: AbortSignal,
  timeoutMs: number,
): Promise<AwsCredentialIdentity> {
  if (keys.accessKeyId && keys.secretAccessKey)
    return { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey };
  const { defaultProvider } = await lazy.awsCredentials();
  const provider = defaultProvider({ timeout: timeoutMs, maxRetries: 0 });
  const timer = AbortSignal.timeout(timeoutMs);
  const stopped = AbortSignal.any([signal, timer]);
  let onStop = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onStop = () =>
      reject(
        new AwsCredentialsError(
          timer.aborted ? `the AWS credential chain did not answer within ${timeoutMs} ms` : 'cancelled',
        ),
      );
    if (stopped.aborted) onStop();
    stopped.addEventListener('abort', onStop, { once: true });
  });
  try {
    return await Promise.race([provider(), aborted]);
  } catch (error) {
    throw error instanceof AwsCredentialsError ? error : new AwsCredentialsError((error as Error).message);
  } finally {
    stopped.removeEventListener('abort', onStop);
  }
}

export interface SigV4Signer {
  /** `yyyymmdd/region/service/aws4_request` of the last signature. */
  scope(): string;
  sign(req: HttpRequest): Promise<void>;
}

export function sigV4Signer(
  service: string,
  region: string,
  credentials: AwsCredentialIdentity,
): SigV4Signer {
  const signer = new SignatureV4({ service, region, credentials, sha256: Sha256, uriEscapePath: true });
  let lastScope = `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}/${region}/${service}/aws4_request`;
  return {
    scope: () => lastScope,
    async sign(req) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        headers[name === 'authorization' ? 'original-authorization' : name] = value;
      }
      headers.host = req.url.host;
      headers['x-amz-content-sha256'] = req.body
        ? createHash('sha256').update(req.body).digest('hex')
        : EMPTY_BODY_SHA256;
      const query: Record<string, string> = {};
      for (const [k, v] of req.url.searchParams) query[k] = v;
      const signed = await signer.sign(
        new SignableRequest({
          method: req.method,
          protocol: req.url.protocol,
          hostname: req.url.hostname,
          ...(req.url.port ? { port: Number(req.url.port) } : {}),
          path: req.url.pathname,
          query,
          headers,
          ...(req.body ? { body: req.body } : {}),
        }),
      );
      const date = signed.headers['x-amz-date'] ?? '';
      lastScope = `${date.slice(0, 8)}/${region}/${service}/aws4_request`;
      req.headers = signed.headers as Record<string, string>;
    },
  };
}
