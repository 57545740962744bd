// Lakekeeper, as lakekeeper/lakekeeper has it: server/config.rs (config), service/storage
// (locations), service/authz/{warehouse,namespace,table}.rs (refusals).
import type { Denial, FlavourModel } from './model.js';
import {
  badRequest,
  genericStorageFailure,
  ICEBERG_MESSAGES,
  icebergRefusal,
  isRouteHead,
  lakekeeperWarehouseId,
  notFound,
  stripSlash,
} from './shared.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Lakekeeper takes `<name>` or `<project-uuid>/<name>` as the warehouse; before a first `/` that is
 * not a UUID the whole argument is the name (server/config.rs parse_warehouse_arg).
 */
function lakekeeperName(arg: string): string {
  const slash = arg.indexOf('/');
  return slash >= 0 && UUID.test(arg.slice(0, slash)) ? arg.slice(slash + 1) : arg;
}

/**
 * service/authz: AuthZWarehouseActionForbidden, AuthZNamespaceActionForbidden and
 * AuthZTableActionForbidden answer 403 with type WarehouseActionForbidden / NamespaceActionForbidden
 * / TableActionForbidden; the action is ActionDescriptor.log_string (`name(key=value, …)`). The
 * commit action's context (updated-properties, target-refs, update-kinds) is left out here.
 */
function deny(denial: Denial) {
  const warehouse = `\`${denial.warehouse}\``;
  const ns = denial.namespace.join('.');
  const parent = denial.namespace.slice(0, -1);
  const onNamespace = (action: string, name: string) =>
    icebergRefusal(
      403,
      'NamespaceActionForbidden',
      `Namespace action \`${action}\` forbidden on namespace with name '${name}' in warehouse ${warehouse}`,
    );
  const onWarehouse = (action: string) =>
    icebergRefusal(
      403,
      'WarehouseActionForbidden',
      `Warehouse action \`${action}\` forbidden on warehouse ${warehouse}`,
    );
  const onTable = (action: string) =>
    icebergRefusal(
      403,
      'TableActionForbidden',
      `Table action \`${action}\` forbidden on table name '${ns}.${denial.table}' in warehouse ${warehouse}`,
    );
  switch (denial.operation) {
    case 'list-namespaces':
      return onWarehouse('list_namespaces');
    case 'create-namespace': {
      const action = `create_namespace(name=${denial.namespace.at(-1)})`;
      return parent.length ? onNamespace(action, parent.join('.')) : onWarehouse(action);
    }
    case 'load-namespace':
    case 'namespace-exists':
      return onNamespace('get_metadata', ns);
    case 'drop-namespace':
      return onNamespace('delete', ns);
    case 'list-tables':
      return onNamespace('list_tables', ns);
    case 'create-table':
      return onNamespace(`create_table(name=${denial.table})`, ns);
    case 'load-table':
    case 'table-exists':
      return onTable('get_metadata');
    case 'update-table':
      return onTable('commit');
    case 'drop-table':
      return onTable(denial.purge ? 'drop(purge=true)' : 'drop');
    // catalog_rest namespace update_namespace_properties: CatalogNamespaceAction::CanUpdateProperties.
    case 'update-namespace-properties':
      return onNamespace('update_properties', ns);
    // catalog_rest tables.rs rename_table: CanRename on the source table, then CanCreateTable on the
    // source's namespace ("We need to be allowed to delete the old table and create the new one").
    case 'rename-table':
      return denial.privilege === 'drop-table'
        ? onTable('rename')
        : onNamespace(`create_table(name=${denial.destination?.table})`, ns);
  }
}

export const lakekeeper: FlavourModel = {
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
    return { consumed: 1, warehouse: id };
  },
  legacyToken: 'absent',
  // server/tabular.rs determine_tabular_location: the namespace's own `location` property, else
  // StorageProfile.default_namespace_location (base + the DEFAULT_LAYOUT's `{uuid}` of the direct
  // namespace, storage_layout.rs); then the table's segment, its `{uuid}`.
  tableLocation(place) {
    const own = place.namespaceProperties.at(-1)?.location;
    const namespace =
      own !== undefined ? stripSlash(own) : `${stripSlash(place.base)}/${place.namespaceUuid}`;
    return `${namespace}/${place.tableUuid}`;
  },
  deny,
  // Not checked against lakekeeper's storage errors: answered as apache/iceberg's adapter does.
  storageFailure: genericStorageFailure,
  messages: ICEBERG_MESSAGES,
};
