// What every flavour file implements and the emulator calls: the operations and the privilege each
// needs, the context a flavour answers in, and the model (config, prefixes, table rules, refusals).
// Below the flavour files and the registry (index.ts), so neither imports the other back.
import type { Refusal } from '../http.js';

/** What a user can take away from the catalog's principal (emulator option `deny`). */
export const PRIVILEGES = [
  'create-namespace',
  'create-table',
  'write-data',
  'drop-table',
  'drop-namespace',
  'read',
  'update-namespace',
] as const;
export type Privilege = (typeof PRIVILEGES)[number];

/** The catalog operations the emulator serves. */
export type Operation =
  | 'list-namespaces'
  | 'create-namespace'
  | 'load-namespace'
  | 'namespace-exists'
  | 'drop-namespace'
  | 'list-tables'
  | 'create-table'
  | 'load-table'
  | 'table-exists'
  | 'update-table'
  | 'drop-table'
  | 'update-namespace-properties'
  | 'rename-table';

/**
 * The privileges each operation needs (the first one denied is the refusal's). A rename needs both
 * dropping the source and creating the destination, as apache/polaris RbacOperationSemantics registers
 * RENAME_TABLE (TABLE_DROP on the table, TABLE_CREATE on the namespace) and lakekeeper's rename_table
 * checks CanRename on the table, then CanCreateTable on the namespace.
 */
export const PRIVILEGES_OF: Record<Operation, readonly Privilege[]> = {
  'list-namespaces': ['read'],
  'create-namespace': ['create-namespace'],
  'load-namespace': ['read'],
  'namespace-exists': ['read'],
  'drop-namespace': ['drop-namespace'],
  'list-tables': ['read'],
  'create-table': ['create-table'],
  'load-table': ['read'],
  'table-exists': ['read'],
  'update-table': ['write-data'],
  'drop-table': ['drop-table'],
  'update-namespace-properties': ['update-namespace'],
  'rename-table': ['drop-table', 'create-table'],
};

/** An Iceberg error the flavour answers with (`{"error":{message,type,code}}`). */
export interface FlavourError {
  status: number;
  type: string;
  message: string;
}

export interface ConfigAnswer {
  defaults: Record<string, string>;
  overrides: Record<string, string>;
}

export interface FlavourContext {
  /** Known warehouses: catalog names (Polaris, Unity), warehouse names (Lakekeeper, Nessie), account ids (Glue), bucket ARNs (S3 Tables). */
  warehouses: string[];
  /** The storage location the catalog reports (Polaris default-base-location, Nessie warehouse). */
  dataLocation: string;
  /** The catalog's own base URL as the request reached it (scheme, host, base path; no trailing slash). */
  baseUrl: string;
  /** The AWS account of the signing key (Glue without a warehouse). */
  callerAccount: string;
  /** Polaris: the catalog's properties beyond default-base-location (reported in config defaults). */
  catalogProperties: Record<string, string>;
  /** BigLake: the Google Cloud project whose catalogs the prefix names. */
  project: string;
}

/**
 * A request's path prefix: how many segments it takes and the warehouse it names (catalog name,
 * Lakekeeper warehouse id, account id, bucket ARN), the server's error, or nothing this flavour serves.
 */
export type PrefixMatch = { consumed: number; warehouse: string } | { error: FlavourError } | null;

/** An operation refused for a denied privilege: what the flavour's answer names. */
export interface Denial {
  operation: Operation;
  privilege: Privilege;
  namespace: string[];
  table?: string;
  /** The table's uuid when it exists (S3 Tables' table ARN). */
  tableUuid?: string;
  purge: boolean;
  /** The caller as the server names it (Polaris principal, Nessie role). */
  principal: string;
  /** The matched prefix's warehouse (PrefixMatch.warehouse). */
  warehouse: string;
  /** The IAM identity of a SigV4 caller. */
  callerArn: string;
  region: string;
  account: string;
  /** X-Iceberg-Access-Delegation was sent (Polaris's *_WITH_*_DELEGATION ops). */
  delegation: boolean;
  /** rename-table: where the table was to go. */
  destination?: { namespace: string[]; table: string };
}

/** Where a table without a requested location goes. */
export interface TablePlace {
  /** default-base-location / the warehouse location, or the emulator's tableLocationBase. */
  base: string;
  namespace: string[];
  /** Each level's properties, outermost first (a `location` property moves what is below it). */
  namespaceProperties: Record<string, string>[];
  /** The direct namespace's uuid (Lakekeeper's layout). */
  namespaceUuid: string;
  table: string;
  tableUuid: string;
}

/** A failed object-store write, as the S3 client reported it. */
export interface StorageFailure {
  status: number | undefined;
  code: string;
  message: string;
}

/** Error texts that differ between servers; ns and table are dotted names. */
export interface Messages {
  namespaceExists(ns: string): string;
  parentMissing(ns: string): string;
  namespaceNotEmpty(ns: string, tables: number): string;
  namespaceMissing(ns: string): string;
  tableNamespaceMissing(table: string, ns: string): string;
  tableExists(table: string): string;
  tableMissing(table: string): string;
}

/** How a flavour treats namespaces and tables. */
export interface TableRules {
  tableLocation(place: TablePlace): string;
  deny(denial: Denial): Refusal;
  storageFailure(failure: StorageFailure): FlavourError;
  messages: Messages;
  /** A refusal of `purgeRequested=true` before anything is dropped (Polaris's feature flag). */
  purgeRefusal?(table: string, ctx: FlavourContext): FlavourError | null;
}

export interface FlavourModel extends TableRules {
  /** GET /v1/config?warehouse=… (warehouse null when the parameter is absent). */
  config(warehouse: string | null, ctx: FlavourContext): ConfigAnswer | FlavourError;
  /** Matches the decoded path segments after `/v1/` against the prefixes this flavour serves. */
  matchPrefix(segments: string[], ctx: FlavourContext): PrefixMatch;
  /** What `{basePath}/v1/oauth/tokens` is: Polaris's own endpoint, Nessie's 501, or not a route. */
  legacyToken: 'polaris' | 'not-implemented' | 'absent';
  /** Endpoints of the emulator's set the real server does not serve: not advertised, answered 406. */
  unserved?: readonly string[];
}
