// How each real REST catalog answers /v1/config and which prefixes it routes, modelled on the
// servers' own source (named beside each behaviour). The emulator (emulator.ts) asks the flavour;
// `rest` is the generic fixture and keeps the emulator's own options (prefix, warehouses, …).
import { createHash } from 'node:crypto';

export const CATALOG_FLAVOURS = [
  'rest',
  'polaris',
  'lakekeeper',
  'nessie',
  'unity',
  'glue',
  's3tables',
] as const;
export type CatalogFlavour = (typeof CATALOG_FLAVOURS)[number];

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
}

/** A request's path prefix: how many segments it takes, the server's error, or nothing this flavour serves. */
export type PrefixMatch = { consumed: number } | { error: FlavourError } | null;

export interface FlavourModel {
  /** GET /v1/config?warehouse=… (warehouse null when the parameter is absent). */
  config(warehouse: string | null, ctx: FlavourContext): ConfigAnswer | FlavourError;
  /** Matches the decoded path segments after `/v1/` against the prefixes this flavour serves. */
  matchPrefix(segments: string[], ctx: FlavourContext): PrefixMatch;
  /** What `{basePath}/v1/oauth/tokens` is: Polaris's own endpoint, Nessie's 501, or not a route. */
  legacyToken: 'polaris' | 'not-implemented' | 'absent';
}

/** The path segment after the prefix that starts a route of the spec (namespaces, tables/rename, …). */
export const isRouteHead = (segment: string | undefined) =>
  segment === 'namespaces' || segment === 'tables' || segment === 'views' || segment === 'transactions';

const notFound = (type: string, message: string): FlavourError => ({ status: 404, type, message });
const badRequest = (type: string, message: string): FlavourError => ({ status: 400, type, message });

/** java.net.URLEncoder.encode(s, UTF_8): spaces as `+`, `*` kept, `~ ! ' ( )` encoded. */
export function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2A/g, '*');
}

/** Lakekeeper identifies a warehouse by a UUID; the emulator derives a stable one from the name. */
export function lakekeeperWarehouseId(name: string): string {
  const h = createHash('sha256').update(`lakekeeper:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Lakekeeper takes `<name>` or `<project-uuid>/<name>` as the warehouse; before a first `/` that is
 * not a UUID the whole argument is the name (server/config.rs parse_warehouse_arg).
 */
function lakekeeperName(arg: string): string {
  const slash = arg.indexOf('/');
  return slash >= 0 && UUID.test(arg.slice(0, slash)) ? arg.slice(slash + 1) : arg;
}

const stripSlash = (text: string) => text.replace(/\/+$/, '');

/** Nessie resolves a warehouse by name, else by exact location (trailing `/` ignored). */
function nessieWarehouse(given: string, ctx: FlavourContext): string | undefined {
  if (ctx.warehouses.includes(given)) return given;
  if (stripSlash(given) === stripSlash(ctx.dataLocation)) return ctx.warehouses[0];
  return undefined;
}

const NESSIE_BRANCH = 'main';

export const FLAVOURS: Record<Exclude<CatalogFlavour, 'rest'>, FlavourModel> = {
  polaris: {
    // polaris IcebergCatalogAdapter.getConfig: `if (warehouse == null) throw new BadRequestException(…)`;
    // CatalogConfigHandler.getConfig: unknown catalog → NotFoundException "Unable to find warehouse %s",
    // defaults = the catalog's properties (default-base-location), overrides = prefix (the catalog
    // name) and namespace-separator %1F.
    config(warehouse, ctx) {
      if (warehouse === null) return badRequest('BadRequestException', 'Please specify a warehouse');
      if (!ctx.warehouses.includes(warehouse))
        return notFound('NotFoundException', `Unable to find warehouse ${warehouse}`);
      return {
        defaults: { 'default-base-location': ctx.dataLocation },
        overrides: { prefix: warehouse, 'namespace-separator': '%1F' },
      };
    },
    // polaris CatalogPrefixParser: the prefix is the catalog name; an unknown one does not resolve
    // (answered as the config route answers it; the namespace route's own text is not pinned here).
    matchPrefix(segments, ctx) {
      const name = segments[0];
      if (name === undefined || !isRouteHead(segments[1])) return null;
      if (!ctx.warehouses.includes(name))
        return { error: notFound('NotFoundException', `Unable to find warehouse ${name}`) };
      return { consumed: 1 };
    },
    legacyToken: 'polaris',
  },
  lakekeeper: {
    // lakekeeper server/config.rs get_config: no warehouse → 400 GetConfigNoWarehouseProvided; an
    // unknown name → 404 NoSuchWarehouseException (WarehouseNameNotFound); the prefix (the warehouse
    // id) and rest-page-size go in defaults; overrides.uri is request_metadata.rs base_uri_catalog().
    config(warehouse, ctx) {
      if (warehouse === null)
        return badRequest(
          'GetConfigNoWarehouseProvided',
          "No warehouse specified. Please specify the 'warehouse' parameter in the GET /config request.",
        );
      const name = lakekeeperName(warehouse);
      if (!ctx.warehouses.includes(name))
        return notFound('NoSuchWarehouseException', `A warehouse '${name}' does not exist`);
      return {
        defaults: { prefix: lakekeeperWarehouseId(name), 'rest-page-size': '100' },
        overrides: { uri: ctx.baseUrl },
      };
    },
    matchPrefix(segments, ctx) {
      const id = segments[0];
      if (id === undefined || !isRouteHead(segments[1])) return null;
      const name = ctx.warehouses.find((w) => lakekeeperWarehouseId(w) === id);
      if (name === undefined)
        return { error: notFound('NoSuchWarehouseException', `Warehouse ${id} not found`) };
      return { consumed: 1 };
    },
    legacyToken: 'absent',
  },
  nessie: {
    // nessie IcebergConfigurer.icebergWarehouseConfig: defaults warehouse (the location),
    // rest-page-size 200 and prefix URLEncoder.encode("main|<warehouse as given>"), or just "main"
    // without a warehouse (the default warehouse); overrides uri = the Iceberg base URI with a
    // trailing slash (ExternalBaseUri) and nessie.* markers. An unknown warehouse is an
    // IllegalStateException "Warehouse '…' is not known" (CatalogConfig.getWarehouse), which
    // IcebergErrorMapper answers as 500 with the exception's simple name as the type.
    config(warehouse, ctx) {
      const hasWarehouse = warehouse !== null && warehouse !== '';
      const resolved = hasWarehouse ? nessieWarehouse(warehouse, ctx) : ctx.warehouses[0];
      if (resolved === undefined)
        return {
          status: 500,
          type: 'IllegalStateException',
          message: `Warehouse '${warehouse}' is not known`,
        };
      return {
        defaults: {
          'rest-metrics-reporting-enabled': 'false',
          warehouse: ctx.dataLocation,
          'rest-page-size': '200',
          prefix: javaUrlEncode(hasWarehouse ? `${NESSIE_BRANCH}|${warehouse}` : NESSIE_BRANCH),
        },
        overrides: {
          'nessie.iceberg-base-uri': `${ctx.baseUrl}/`,
          uri: `${ctx.baseUrl}/`,
          'nessie.is-nessie-catalog': 'true',
          'nessie.prefix-pattern': '{ref}|{warehouse}',
        },
      };
    },
    // nessie IcebergApiResource decodePrefix: "<ref>|<warehouse>" or "<ref>" (the default warehouse).
    matchPrefix(segments, ctx) {
      const prefix = segments[0];
      if (prefix === undefined || !isRouteHead(segments[1])) return null;
      const bar = prefix.indexOf('|');
      const ref = bar < 0 ? prefix : prefix.slice(0, bar);
      const given = bar < 0 ? '' : prefix.slice(bar + 1);
      if (ref !== NESSIE_BRANCH)
        return { error: notFound('NoSuchReferenceException', `Named reference '${ref}' not found`) };
      const resolved = given ? nessieWarehouse(given, ctx) : ctx.warehouses[0];
      if (resolved === undefined)
        return {
          error: { status: 500, type: 'IllegalStateException', message: `Warehouse '${given}' is not known` },
        };
      return { consumed: 1 };
    },
    legacyToken: 'not-implemented',
  },
  unity: {
    // unitycatalog IcebergRestCatalogService.config: no warehouse → BadRequestException; any
    // warehouse → 200 with overrides.prefix "catalogs/<warehouse>" ("TODO: check catalog exists").
    config(warehouse) {
      if (warehouse === null)
        return badRequest('BadRequestException', 'Must supply a proper catalog in warehouse property.');
      return { defaults: {}, overrides: { prefix: `catalogs/${warehouse}` } };
    },
    // unitycatalog IcebergRestCatalogService.listNamespaces → SchemaService.listSchemas: an unknown
    // catalog fails there, "Catalog not found: <name>" (CatalogRepository; 404).
    matchPrefix(segments, ctx) {
      if (segments[0] !== 'catalogs' || segments[1] === undefined || !isRouteHead(segments[2])) return null;
      if (!ctx.warehouses.includes(segments[1]))
        return { error: notFound('NotFoundException', `Catalog not found: ${segments[1]}`) };
      return { consumed: 2 };
    },
    legacyToken: 'absent',
  },
  glue: {
    // AWS Glue Iceberg REST (docs: "GetConfig"): the warehouse is a catalog id (the account id), the
    // prefix is overrides.prefix "catalogs/<id>". Without a warehouse Glue uses the caller's account
    // catalog. An id that is not this account's catalog answers 404 (no public source; inferred
    // from iceberg-python#1449).
    config(warehouse, ctx) {
      const id = warehouse === null || warehouse === '' ? ctx.callerAccount : warehouse;
      if (!ctx.warehouses.includes(id)) return notFound('NoSuchCatalogException', `Catalog not found: ${id}`);
      return { defaults: {}, overrides: { prefix: `catalogs/${id}` } };
    },
    matchPrefix(segments, ctx) {
      if (segments[0] !== 'catalogs' || segments[1] === undefined || !isRouteHead(segments[2])) return null;
      if (!ctx.warehouses.includes(segments[1]))
        return { error: notFound('NoSuchCatalogException', `Catalog not found: ${segments[1]}`) };
      return { consumed: 2 };
    },
    legacyToken: 'absent',
  },
  s3tables: {
    // Amazon S3 Tables Iceberg REST (AWS docs; floe's reference notes): the warehouse is the table
    // bucket ARN and comes back percent-encoded as defaults.prefix. A missing or unknown ARN is
    // refused (statuses inferred: 400 / 404).
    config(warehouse, ctx) {
      if (warehouse === null || warehouse === '')
        return badRequest('BadRequestException', 'The warehouse (table bucket ARN) is required');
      if (!ctx.warehouses.includes(warehouse))
        return notFound('NoSuchWarehouseException', `Table bucket not found: ${warehouse}`);
      return { defaults: { prefix: encodeURIComponent(warehouse) }, overrides: {} };
    },
    matchPrefix(segments, ctx) {
      const arn = segments[0];
      if (arn === undefined || !isRouteHead(segments[1])) return null;
      if (!ctx.warehouses.includes(arn))
        return { error: notFound('NoSuchWarehouseException', `Table bucket not found: ${arn}`) };
      return { consumed: 1 };
    },
    legacyToken: 'absent',
  },
};

/** The warehouse a flavour's sandbox and tests use when none is given. */
export const DEFAULT_WAREHOUSES: Record<Exclude<CatalogFlavour, 'rest'>, string> = {
  polaris: 'olake_catalog',
  lakekeeper: 'demo',
  nessie: 'warehouse',
  unity: 'unity',
  glue: '123456789012',
  s3tables: 'arn:aws:s3tables:us-east-1:123456789012:bucket/warehouse',
};
