// The facts a storage diagnosis rests on: what the probe was doing (ProbeContext) and what the error
// says (errorFacts, read off any SDK or Node error), with the phrases the diagnosis table builds from.
// Pure functions over the error's shape; no SDK import.
import type { StorageKind } from '../destination/fields.js';

export const STORAGE_STEPS = {
  'storage.head': { operation: 'HeadBucket', title: 'Bucket exists (HeadBucket)' },
  'storage.list': { operation: 'ListObjectsV2', title: 'List objects under the path (ListObjectsV2)' },
  'storage.put': { operation: 'PutObject', title: 'Write a probe object (PutObject)' },
  'storage.get': { operation: 'GetObject', title: 'Read the probe back (GetObject)' },
  'storage.delete': { operation: 'DeleteObject', title: 'Delete the probe (DeleteObject)' },
} as const;

export type StorageStepId = keyof typeof STORAGE_STEPS;

/** What the probe was doing when a step failed. Nothing in here is a secret. */
export interface ProbeContext {
  /** A storage step, or a write-check step (floe test --write) with its `operation`. */
  step: StorageStepId | `write.${string}`;
  /** The S3 operation, when the step is not one of the storage check's. */
  operation?: 'HeadBucket' | 'ListObjectsV2' | 'PutObject' | 'GetObject' | 'DeleteObject';
  bucket: string;
  /** The object key, for put/get/delete. */
  key?: string;
  region: string;
  storage: StorageKind;
  /** The configured S3 endpoint, if any. */
  endpoint?: string;
  pathStyle: boolean;
  /** The failing request's URL, secrets removed. */
  url?: string;
  timeoutMs: number;
  /** Whether the per-request timeout (not the user) ended the request. */
  timedOut: boolean;
  /** Where the keys came from: the profile, or the SDK's default chain. */
  credentials: 'profile' | 'environment';
  /** The access key id masked (`••••` + last 4), for evidence. */
  accessKeyHint?: string;
  /** Extra evidence gathered by the caller, e.g. a follow-up request that named the error. */
  extra?: Record<string, string>;
  /** The proxy the failing request went through (HTTPS_PROXY / HTTP_PROXY), without credentials. */
  proxy?: string;
}

/** The facts a diagnosis rests on, read off any SDK or Node error. */
export interface ErrorFacts {
  name: string;
  message: string;
  /** S3 error code (`NoSuchBucket`) or Node error code (`ENOTFOUND`). */
  code?: string;
  status?: number;
  requestId?: string;
  bucketRegion?: string;
  location?: string;
  hostname?: string;
}

export const NETWORK_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
]);
const GENERIC_NAMES = new Set(['Error', 'Unknown', 'UnknownError', 'TypeError']);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
  const hit = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
  return hit ? str(hit[1]) : undefined;
}

export function errorFacts(error: unknown): ErrorFacts {
  const e = record(error);
  const metadata = record(e.$metadata);
  const response = record(e.$response);
  const headers = record(response.headers);
  const cause = record(e.cause);
  const name = str(e.name) ?? 'Error';
  const nodeCode = str(e.code) ?? str(cause.code);
  const s3Code = str(e.Code) ?? (GENERIC_NAMES.has(name) ? undefined : name);
  const status =
    typeof metadata.httpStatusCode === 'number'
      ? metadata.httpStatusCode
      : typeof response.statusCode === 'number'
        ? response.statusCode
        : undefined;
  return {
    name,
    message: str(e.message) ?? String(error),
    code: nodeCode && (NETWORK_CODES.has(nodeCode) || isTlsCode(nodeCode)) ? nodeCode : (s3Code ?? nodeCode),
    status,
    requestId: str(metadata.requestId) ?? header(headers, 'x-amz-request-id') ?? str(e.RequestId),
    bucketRegion: header(headers, 'x-amz-bucket-region') ?? str(e.Region),
    location: header(headers, 'location') ?? str(e.Endpoint),
    hostname: str(e.hostname) ?? str(cause.hostname),
  };
}

export function isTlsCode(code: string): boolean {
  return (
    code === 'EPROTO' ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('CERT_') ||
    code.includes('SELF_SIGNED') ||
    code.startsWith('UNABLE_TO_') ||
    code === 'HOSTNAME_MISMATCH'
  );
}

/** undici's ProxyAgent when the proxy answers CONNECT with anything but 200. */
export const PROXY_REFUSED = /Proxy response \((\d+)\) !== 200/;
export const ASSUME_ROLE = /User: (\S+) is not authorized to perform: sts:AssumeRole(?: on resource: (\S+))?/;

const READ_OPERATIONS: ReadonlySet<string> = new Set(['HeadBucket', 'ListObjectsV2', 'GetObject']);

export function operationOf(ctx: ProbeContext): string {
  return ctx.operation ?? STORAGE_STEPS[ctx.step as StorageStepId].operation;
}

export const isRead = (ctx: ProbeContext) => READ_OPERATIONS.has(operationOf(ctx));

export function where(ctx: ProbeContext): string {
  return ctx.endpoint ? `the S3 endpoint ${ctx.endpoint}` : `AWS S3 in ${ctx.region}`;
}

export function target(ctx: ProbeContext): string {
  return ctx.key ? `s3://${ctx.bucket}/${ctx.key}` : `bucket "${ctx.bucket}"`;
}

export function host(ctx: ProbeContext): string {
  if (!ctx.endpoint) return `s3.${ctx.region}.amazonaws.com`;
  try {
    return new URL(ctx.endpoint).host;
  } catch {
    return ctx.endpoint;
  }
}

export const KEYS_FROM = (ctx: ProbeContext) =>
  ctx.credentials === 'profile'
    ? 'the Access Key and Secret Key of this destination'
    : 'the keys the AWS SDK found in the environment (AWS_ACCESS_KEY_ID, ~/.aws/credentials, role)';
