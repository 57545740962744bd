// Requests to a catalog emulator as a client sends them: plain, with a bearer token, or SigV4-signed.

import { readFileSync } from 'node:fs';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { IcebergRestCatalog } from 'iceberg-js';
import { expect } from 'vitest';
import { googleAssertion, JWT_BEARER_GRANT } from '../../src/catalog/auth.js';
import { type CatalogFlavour, SANDBOX, SANDBOX_CATALOGS, type Sandbox } from '../../src/sandbox/index.js';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY } from '../../src/sandbox/s3.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface SigningKey {
  accessKeyId: string;
  secretAccessKey: string;
  service: string;
  region: string;
}

/** Sends `method url`; with `sign`, SigV4-signs it as AWS SDKs do (path sent exactly as given). */
export async function send(
  method: string,
  url: string,
  options: {
    headers?: Record<string, string>;
    form?: Record<string, string>;
    /** A raw body (e.g. JSON; set its content-type in headers). */
    body?: string;
    sign?: SigningKey;
  } = {},
): Promise<Answer> {
  const target = new URL(url);
  const headers: Record<string, string> = { ...options.headers };
  const body = options.form ? new URLSearchParams(options.form).toString() : options.body;
  if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (options.sign) {
    const query: Record<string, string> = {};
    for (const [k, v] of target.searchParams) query[k] = v;
    const signer = new SignatureV4({
      service: options.sign.service,
      region: options.sign.region,
      credentials: { accessKeyId: options.sign.accessKeyId, secretAccessKey: options.sign.secretAccessKey },
      sha256: Sha256,
      uriEscapePath: true,
    });
    const signed = await signer.sign(
      new HttpRequest({
        method,
        protocol: 'https:',
        hostname: target.hostname,
        path: target.pathname,
        query,
        headers: { ...headers, host: target.host },
        body,
      }),
    );
    Object.assign(headers, signed.headers);
    delete headers.host;
  }
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The Iceberg error's status, type and message, or the OAuth error's code and description. */
export function errorOf(answer: Answer): { status: number; type?: string; message?: string } {
  const body = answer.body as { error?: unknown; error_description?: string; message?: string } | undefined;
  if (body && typeof body.error === 'object' && body.error !== null) {
    const error = body.error as { type?: string; message?: string };
    return { status: answer.status, type: error.type, message: error.message };
  }
  if (body && typeof body.error === 'string')
    return { status: answer.status, type: body.error, message: body.error_description };
  return {
    status: answer.status,
    type: answer.headers.get('x-amzn-errortype') ?? undefined,
    message: body?.message,
  };
}

/** A fetch that SigV4-signs every request as AWS SDKs do (for iceberg-js against Glue and S3 Tables). */
export function signedFetch(key: SigningKey): typeof fetch {
  const signer = new SignatureV4({
    service: key.service,
    region: key.region,
    credentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey },
    sha256: Sha256,
    uriEscapePath: true,
  });
  return async (input, init = {}) => {
    const target = new URL(String(input));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const query: Record<string, string> = {};
    for (const [k, v] of target.searchParams) query[k] = v;
    const body = typeof init.body === 'string' ? init.body : undefined;
    const signed = await signer.sign(
      new HttpRequest({
        method: init.method ?? 'GET',
        protocol: 'https:',
        hostname: target.hostname,
        path: target.pathname,
        query,
        headers: { ...headers, host: target.host },
        body,
      }),
    );
    const sent = { ...signed.headers };
    delete sent.host;
    return fetch(input, { ...init, headers: sent });
  };
}

/** OLake's raw schema (types.GetIcebergRawSchema), with request-side ids the server replaces. */
export const RAW_SCHEMA = {
  type: 'struct' as const,
  fields: [
    { id: 11, name: '_olake_id', type: 'string', required: true },
    { id: 12, name: '_olake_timestamp', type: 'timestamptz', required: true },
    { id: 13, name: '_op_type', type: 'string', required: true },
    { id: 14, name: '_cdc_timestamp', type: 'timestamptz', required: false },
    { id: 15, name: 'data', type: 'string', required: false },
  ],
};
/** The headers a request to the flavour's catalog carries (a token for OAuth2 and bearer flavours). */
export async function authHeaders(
  sandbox: Sandbox,
  flavour: CatalogFlavour,
): Promise<Record<string, string>> {
  const facts = SANDBOX_CATALOGS[flavour];
  if (facts.auth === 'token') return { authorization: `Bearer ${SANDBOX.token}` };
  if (facts.auth === 'google') {
    // Google's jwt-bearer grant with the sandbox's key file, at the token endpoint it names.
    const signed = googleAssertion(readFileSync(String(sandbox.catalog.serviceAccountFile), 'utf8'), [
      'https://www.googleapis.com/auth/cloud-platform',
    ]);
    const answer = await send('POST', signed.tokenUri, {
      form: { grant_type: JWT_BEARER_GRANT, assertion: signed.assertion },
    });
    expect(answer.status, answer.text).toBe(200);
    return { authorization: `Bearer ${(answer.body as { access_token: string }).access_token}` };
  }
  if (facts.auth !== 'oauth2') return {};
  const answer = await send('POST', sandbox.catalog.tokenUrl, {
    form: {
      grant_type: 'client_credentials',
      client_id: SANDBOX.oauth.clientId,
      client_secret: SANDBOX.oauth.clientSecret,
      scope: String(facts.scope),
    },
  });
  expect(answer.status, answer.text).toBe(200);
  return { authorization: `Bearer ${(answer.body as { access_token: string }).access_token}` };
}

export const signingKey = (flavour: CatalogFlavour) => ({
  accessKeyId: S3RVER_ACCESS_KEY,
  secretAccessKey: S3RVER_SECRET_KEY,
  service: String(SANDBOX_CATALOGS[flavour].signingName),
  region: SANDBOX.region,
});

export function client(sandbox: Sandbox, flavour: CatalogFlavour, headers: Record<string, string>) {
  const sigv4 = SANDBOX_CATALOGS[flavour].auth === 'sigv4';
  return new IcebergRestCatalog({
    baseUrl: sandbox.catalog.url,
    warehouse: SANDBOX_CATALOGS[flavour].warehouse,
    auth: sigv4 ? { type: 'none' } : { type: 'custom', getHeaders: () => headers },
    ...(sigv4 ? { fetch: signedFetch(signingKey(flavour)) } : {}),
  });
}
