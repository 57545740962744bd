// The one place floe imports a package lazily (only when a command needs it: the AWS SDK, the Parquet
// and Avro libraries, keytar, yaml, s3rver). A literal import() per package, so esbuild gives each its
// own chunk in dist/ and bundles it into the single executable. test/build/lazy-imports.test.ts fails on
// any other dynamic import of a package.
//
// A CommonJS package arrives in three shapes: Node's import() gives module.exports as `default` with
// the named exports it could detect beside it; esbuild's split ESM bundle (dist/) may give it only as
// `default`; the single executable's CommonJS bundle gives the namespace esbuild builds around it. So
// every package here is taken from whichever of the namespace and its `default` has what floe uses.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';

type AnyNamespace = { default?: unknown };

/** The exports of package `name` in `loaded` (the namespace or its default) for which `has` holds. */
export function exportsOf<T>(
  name: string,
  loaded: unknown,
  has: (candidate: Record<string, unknown>) => boolean,
): T {
  const candidates = [loaded, (loaded as AnyNamespace | null | undefined)?.default];
  for (const candidate of candidates)
    if ((typeof candidate === 'object' && candidate !== null) || typeof candidate === 'function')
      if (has(candidate as Record<string, unknown>)) return candidate as T;
  throw new Error(`the package ${name} loaded without the exports floe uses from it`);
}

const exporting =
  (...names: string[]) =>
  (candidate: Record<string, unknown>) =>
    names.every((n) => candidate[n] !== undefined);

export type S3Sdk = typeof import('@aws-sdk/client-s3');
export type CredentialProviderNode = typeof import('@aws-sdk/credential-provider-node');
export type HyparquetWriter = typeof import('hyparquet-writer');
export type Hyparquet = typeof import('hyparquet');
export type Avsc = typeof import('avsc');
export type YamlLib = typeof import('yaml');

/** keytar's calls floe makes (the package is optional; the single executable has its own, sea-keytar.ts). */
export interface KeytarLib {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** s3rver's class (it ships no types: src/sandbox/s3rver.d.ts). */
export type S3rverClass = new (
  options: Record<string, unknown>,
) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  /** Koa's request handler; s3rver's run() installs what this answers on its HTTP server. */
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  /** s3rver is a Koa application: 'error' carries what a request failed with, and its context. */
  on(
    event: 'error',
    listener: (error: Error & { status?: number }, ctx?: { req: IncomingMessage }) => void,
  ): void;
  httpServer?: Server;
};

/**
 * The AWS SDK writes its Node-version warning to stderr itself (process.emitWarning), past
 * src/cli/output.ts: off for every client floe and its sandbox make.
 */
function quietAwsSdk(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

/** Every lazily imported package, its exports as floe uses them. */
export const lazy = {
  s3: async (): Promise<S3Sdk> => {
    quietAwsSdk();
    const loaded = await import('@aws-sdk/client-s3');
    return exportsOf('@aws-sdk/client-s3', loaded, exporting('S3Client', 'PutObjectCommand'));
  },
  awsCredentials: async (): Promise<CredentialProviderNode> => {
    quietAwsSdk();
    const loaded = await import('@aws-sdk/credential-provider-node');
    return exportsOf('@aws-sdk/credential-provider-node', loaded, exporting('defaultProvider'));
  },
  hyparquetWriter: async (): Promise<HyparquetWriter> =>
    exportsOf('hyparquet-writer', await import('hyparquet-writer'), exporting('parquetWriteBuffer')),
  hyparquet: async (): Promise<Hyparquet> =>
    exportsOf('hyparquet', await import('hyparquet'), exporting('parquetMetadata', 'parquetReadObjects')),
  avsc: async (): Promise<Avsc> => exportsOf('avsc', await import('avsc'), exporting('streams')),
  yaml: async (): Promise<YamlLib> => exportsOf('yaml', await import('yaml'), exporting('Document')),
  keytar: async (): Promise<KeytarLib> =>
    exportsOf('keytar', await import('keytar'), exporting('getPassword', 'setPassword', 'deletePassword')),
  s3rver: async (): Promise<S3rverClass> =>
    exportsOf('s3rver', await import('s3rver'), (candidate) => typeof candidate === 'function'),
};
