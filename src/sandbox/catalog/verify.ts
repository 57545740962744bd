// What the emulator checks the way real servers do: SigV4 signatures recomputed with
// @smithy/signature-v4 (AWS-style 403 bodies on failure) and RS256 JWT-bearer assertions.
import { createHash, createPublicKey, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest as SignableRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AccessKey {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** The IAM ARN reported in errors, e.g. arn:aws:iam::123456789012:user/olake. */
  arn?: string;
}

/** An AWS-style rejection: status, `x-amzn-errortype` and `{"message": …}`. */
export interface AwsRejection {
  status: number;
  errorType: string;
  message: string;
}

const FIVE_MINUTES = 5 * 60 * 1000;

function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function parseAmzDate(value: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

export interface SigV4Config {
  service: string;
  region: string;
  keys: Map<string, AccessKey>;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

type SignedRequest = { method: string; rawUrl: string; headers: IncomingHttpHeaders; body: Buffer };

/** The Authorization header's key, scope and signed headers, or the rejection AWS would send. */
function credentialOf(
  req: SignedRequest,
  config: SigV4Config,
): { key: AccessKey; fields: Record<string, string>; signedHeaders: string[] } | AwsRejection {
  const auth = headerValue(req.headers, 'authorization') ?? '';
  if (!auth.startsWith('AWS4-HMAC-SHA256 '))
    return {
      status: 403,
      errorType: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    };
  const fields = Object.fromEntries(
    auth
      .slice('AWS4-HMAC-SHA256 '.length)
      .split(',')
      .map((part) => {
        const i = part.indexOf('=');
        return [part.slice(0, i).trim(), part.slice(i + 1).trim()];
      }),
  );
  const [keyId, , region, service] = (fields.Credential ?? '').split('/');
  const signedHeaders = (fields.SignedHeaders ?? '').split(';').filter(Boolean);
  const key = keyId ? config.keys.get(keyId) : undefined;
  if (!key)
    return {
      status: 403,
      errorType: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  if (region !== config.region)
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message: `Credential should be scoped to a valid region, not '${region}'. `,
    };
  if (service !== config.service)
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message: `Credential should be scoped to correct service: '${config.service}'. `,
    };
  return { key, fields, signedHeaders };
}

/** X-Amz-Date, within five minutes of now, or the rejection AWS would send. */
function dateOf(req: SignedRequest, now: Date): Date | AwsRejection {
  const dateText = headerValue(req.headers, 'x-amz-date') ?? '';
  const date = parseAmzDate(dateText);
  if (!date)
    return {
      status: 403,
      errorType: 'IncompleteSignatureException',
      message: 'Missing or malformed X-Amz-Date.',
    };
  const skew = date.getTime() - now.getTime();
  if (skew < -FIVE_MINUTES)
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message: `Signature expired: ${dateText} is now earlier than ${amzDate(new Date(now.getTime() - FIVE_MINUTES))} (${amzDate(now)} - 5 min.)`,
    };
  if (skew > FIVE_MINUTES)
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message: `Signature not yet current: ${dateText} is still later than ${amzDate(new Date(now.getTime() + FIVE_MINUTES))} (${amzDate(now)} + 5 min.)`,
    };
  return date;
}

/** The signature the request should carry, computed with the caller's key. */
async function signatureOf(
  req: SignedRequest,
  config: SigV4Config,
  key: AccessKey,
  date: Date,
  signedHeaders: string[],
): Promise<string | undefined> {
  const url = new URL(req.rawUrl, 'http://emulator');
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) headers[name] = headerValue(req.headers, name) ?? '';
  const signer = new SignatureV4({
    service: config.service,
    region: config.region,
    credentials: {
      accessKeyId: key.accessKeyId,
      secretAccessKey: key.secretAccessKey,
      ...(key.sessionToken ? { sessionToken: key.sessionToken } : {}),
    },
    sha256: Sha256,
    uriEscapePath: true,
  });
  const expected = await signer.sign(
    new SignableRequest({
      method: req.method,
      protocol: 'https:',
      hostname: (headers.host ?? '').replace(/:\d+$/, ''),
      path: url.pathname,
      query,
      headers,
      body: req.body.length ? req.body.toString('utf8') : undefined,
    }),
    { signingDate: date, signableHeaders: new Set(signedHeaders) },
  );
  return /Signature=([0-9a-f]+)/.exec(String(expected.headers.authorization))?.[1];
}

/** Verifies a SigV4-signed request; returns the caller's key or the rejection AWS would send. */
export async function verifySigV4(
  req: SignedRequest,
  config: SigV4Config,
  now: Date,
): Promise<AccessKey | AwsRejection> {
  const credential = credentialOf(req, config);
  if ('status' in credential) return credential;
  const { key, fields, signedHeaders } = credential;
  const date = dateOf(req, now);
  if (!(date instanceof Date)) return date;
  const bodyHash = createHash('sha256').update(req.body).digest('hex');
  const claimedHash = headerValue(req.headers, 'x-amz-content-sha256');
  if (claimedHash !== undefined && claimedHash !== bodyHash)
    return {
      status: 400,
      errorType: 'InvalidSignatureException',
      message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
    };
  if (key.sessionToken && headerValue(req.headers, 'x-amz-security-token') !== key.sessionToken)
    return {
      status: 403,
      errorType: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  const expectedSignature = await signatureOf(req, config, key, date, signedHeaders);
  if (expectedSignature !== fields.Signature)
    return {
      status: 403,
      errorType: 'InvalidSignatureException',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    };
  return key;
}

export interface ServiceAccount {
  clientEmail: string;
  /** PEM of the service account's public key. */
  publicKey: string;
}

/** An OAuth2 error as Google's token endpoint answers it. */
export interface GrantRejection {
  error: string;
  description: string;
}

/** Verifies a jwt-bearer assertion posted to `audience`; returns the service account's email. */
export function verifyJwtAssertion(
  assertion: string,
  accounts: ServiceAccount[],
  audience: string,
  nowMs: number,
): { email: string; scope: string } | GrantRejection {
  const parts = assertion.split('.');
  if (parts.length !== 3) return { error: 'invalid_grant', description: 'Invalid JWT: malformed assertion.' };
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return { error: 'invalid_grant', description: 'Invalid JWT: undecodable header or claims.' };
  }
  if (header.alg !== 'RS256')
    return { error: 'invalid_grant', description: 'Invalid JWT: alg must be RS256.' };
  const account = accounts.find((a) => a.clientEmail === claims.iss);
  if (!account) return { error: 'invalid_grant', description: 'Invalid grant: account not found' };
  const valid = verify(
    'sha256',
    Buffer.from(`${parts[0]}.${parts[1]}`),
    createPublicKey(account.publicKey),
    Buffer.from(parts[2]!, 'base64url'),
  );
  if (!valid) return { error: 'invalid_grant', description: 'Invalid JWT Signature.' };
  if (claims.aud !== audience)
    return { error: 'invalid_grant', description: `Invalid JWT: audience must be ${audience}` };
  const now = Math.floor(nowMs / 1000);
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!(iat <= now + 60 && exp > now && exp - iat <= 3600))
    return {
      error: 'invalid_grant',
      description:
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
    };
  if (typeof claims.scope !== 'string' || !claims.scope)
    return { error: 'invalid_scope', description: 'Empty or missing scope not allowed.' };
  return { email: account.clientEmail, scope: claims.scope };
}
