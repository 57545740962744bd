// Requests to a catalog emulator as a client sends them: plain, with a bearer token, or SigV4-signed.
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

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
