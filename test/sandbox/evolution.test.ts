// Issue 29, item 4: what OLake sends when a source gains a column, and what other clients send to
// organise a catalog, through iceberg-js against every sandbox flavour: add-schema + set-current-schema
// (with their requirements), add-sort-order + set-default-sort-order, namespace property updates and
// a table rename; each advertised in /v1/config's endpoints, and refused as apache/iceberg refuses it
// (TableMetadata.Builder, CatalogHandlers, JdbcCatalog at apache-iceberg-1.10.0). Unity's
// IcebergRestCatalogService serves neither property updates nor renames: not advertised, 406.
import { IcebergError } from 'iceberg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_FLAVOURS, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { authHeaders, client, RAW_SCHEMA } from './support.js';

const PROPERTIES = 'POST /v1/{prefix}/namespaces/{namespace}/properties';
const RENAME = 'POST /v1/{prefix}/tables/rename';

/** What OLake's writer commits when the source gains a column: the raw schema plus one field. */
function evolved(lastColumnId: number) {
  return {
    type: 'struct' as const,
    'schema-id': 1,
    fields: [
      { id: 1, name: '_olake_id', type: 'string', required: true },
      { id: 2, name: '_olake_timestamp', type: 'timestamptz', required: true },
      { id: 3, name: '_op_type', type: 'string', required: true },
      { id: 4, name: '_cdc_timestamp', type: 'timestamptz', required: false },
      { id: 5, name: 'data', type: 'string', required: false },
      { id: lastColumnId + 1, name: 'email', type: 'string', required: false },
    ],
    'identifier-field-ids': [1],
  };
}

const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IcebergError);
  const { status, icebergType, message } = error as IcebergError;
  return { status, type: icebergType, message };
};

describe.each(CATALOG_FLAVOURS)(
  'floe sandbox --catalog %s: schema, sort order, properties, rename',
  (flavour) => {
    let sandbox: Sandbox;
    let catalog: ReturnType<typeof client>;
    const ns = ['evolve'];
    beforeAll(async () => {
      sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 0, catalog: flavour });
      catalog = client(sandbox, flavour, await authHeaders(sandbox, flavour));
      await catalog.createNamespace({ namespace: ns }, { properties: { owner: 'floe' } });
    });
    afterAll(async () => {
      await sandbox.stop();
    });

    it('/v1/config advertises the routes the real server serves', async () => {
      const { endpoints } = await catalog.loadConfig();
      expect(endpoints).toEqual(
        expect.arrayContaining(['POST /v1/{prefix}/namespaces/{namespace}/tables/{table}']),
      );
      const served = flavour !== 'unity';
      expect(endpoints?.includes(PROPERTIES)).toBe(served);
      expect(endpoints?.includes(RENAME)).toBe(served);
    });

    it('add-schema + set-current-schema: a new column becomes current; a stale requirement is a 409', async () => {
      const table = await catalog.createTable({ namespace: ns }, { name: 'users', schema: RAW_SCHEMA });
      const id = { namespace: ns, name: 'users' };
      const committed = await catalog.updateTable(id, {
        requirements: [
          { type: 'assert-table-uuid', uuid: String(table['table-uuid']) },
          { type: 'assert-current-schema-id', 'current-schema-id': 0 },
          { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 5 },
        ],
        updates: [
          { action: 'add-schema', schema: evolved(5), 'last-column-id': 6 },
          { action: 'set-current-schema', 'schema-id': -1 },
        ],
      });
      const metadata = committed.metadata;
      expect(metadata['current-schema-id']).toBe(1);
      expect(metadata['last-column-id']).toBe(6);
      expect(metadata.schemas.map((s) => s['schema-id'])).toEqual([0, 1]);
      expect(metadata.schemas[1]?.fields.at(-1)).toMatchObject({ id: 6, name: 'email' });
      const loaded = await catalog.loadTable(id);
      expect(loaded['current-schema-id']).toBe(1);
      // The same schema again is no change; the requirement now fails as a concurrent writer's would.
      expect(
        await rejection(
          catalog.updateTable(id, {
            requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }],
            updates: [{ action: 'add-schema', schema: evolved(5) }],
          }),
        ),
      ).toEqual({
        status: 409,
        type: 'CommitFailedException',
        message: 'Requirement failed: current schema changed: expected id 0 != 1',
      });
      expect(
        await rejection(
          catalog.updateTable(id, {
            requirements: [],
            updates: [{ action: 'set-current-schema', 'schema-id': 7 }],
          }),
        ),
      ).toEqual({
        status: 400,
        type: 'BadRequestException',
        message: 'Cannot set current schema to unknown schema: 7',
      });
      expect(
        await rejection(
          catalog.updateTable(id, {
            requirements: [],
            updates: [{ action: 'set-current-schema', 'schema-id': -1 }],
          }),
        ),
      ).toEqual({
        status: 400,
        type: 'ValidationException',
        message: 'Cannot set last added schema: no schema has been added',
      });
    });

    it('add-sort-order + set-default-sort-order: OLake’s _olake_id ascending becomes the default', async () => {
      await catalog.createTable({ namespace: ns }, { name: 'sorted', schema: RAW_SCHEMA });
      const id = { namespace: ns, name: 'sorted' };
      const order = {
        'order-id': 1,
        fields: [
          {
            transform: 'identity',
            'source-id': 1,
            direction: 'asc' as const,
            'null-order': 'nulls-first' as const,
          },
        ],
      };
      const committed = await catalog.updateTable(id, {
        requirements: [{ type: 'assert-default-sort-order-id', 'default-sort-order-id': 0 }],
        updates: [
          { action: 'add-sort-order', 'sort-order': order },
          { action: 'set-default-sort-order', 'sort-order-id': -1 },
        ],
      });
      expect(committed.metadata['default-sort-order-id']).toBe(1);
      expect(committed.metadata['sort-orders']).toEqual([{ 'order-id': 0, fields: [] }, order]);
      const missing = { ...order, fields: [{ ...order.fields[0]!, 'source-id': 99 }] };
      expect(
        await rejection(
          catalog.updateTable(id, {
            requirements: [],
            updates: [{ action: 'add-sort-order', 'sort-order': missing }],
          }),
        ),
      ).toEqual({
        status: 400,
        type: 'ValidationException',
        message: 'Cannot find source column for sort field: identity(99) ASC NULLS_FIRST',
      });
    });

    it('namespace properties and rename: served as Iceberg serves them, or 406 where the server has no route', async () => {
      await catalog.createTable({ namespace: ns }, { name: 'old_name', schema: RAW_SCHEMA });
      if (flavour === 'unity') {
        const update = await rejection(
          catalog.updateNamespaceProperties({ namespace: ns }, { updates: { a: '1' }, removals: [] }),
        );
        expect(update.status).toBe(406);
        const renamed = await rejection(
          catalog.renameTable({
            source: { namespace: ns, name: 'old_name' },
            destination: { namespace: ns, name: 'x' },
          }),
        );
        expect(renamed.status).toBe(406);
        return;
      }
      expect(
        await catalog.updateNamespaceProperties(
          { namespace: ns },
          { updates: { comment: 'evolving' }, removals: ['owner', 'absent'] },
        ),
      ).toEqual({ updated: ['comment'], removed: ['owner'], missing: ['absent'] });
      expect((await catalog.loadNamespaceMetadata({ namespace: ns })).properties).toEqual({
        comment: 'evolving',
      });
      expect(
        await rejection(
          catalog.updateNamespaceProperties(
            { namespace: ns },
            { updates: { comment: 'x' }, removals: ['comment'] },
          ),
        ),
      ).toMatchObject({
        status: 422,
        message: 'Invalid namespace update, cannot simultaneously set and remove keys: [comment]',
      });

      const before = await catalog.loadTable({ namespace: ns, name: 'old_name' });
      await catalog.renameTable({
        source: { namespace: ns, name: 'old_name' },
        destination: { namespace: ns, name: 'new_name' },
      });
      expect(await catalog.tableExists({ namespace: ns, name: 'old_name' })).toBe(false);
      const after = await catalog.loadTable({ namespace: ns, name: 'new_name' });
      expect(after.location).toBe(before.location);
      expect(after['table-uuid']).toBe(before['table-uuid']);
      expect(
        await rejection(
          catalog.renameTable({
            source: { namespace: ns, name: 'old_name' },
            destination: { namespace: ns, name: 'x' },
          }),
        ),
      ).toMatchObject({ status: 404, type: 'NoSuchTableException' });
      expect(
        await rejection(
          catalog.renameTable({
            source: { namespace: ns, name: 'new_name' },
            destination: { namespace: ns, name: 'users' },
          }),
        ),
      ).toMatchObject({ status: 409, type: 'AlreadyExistsException' });
    });
  },
);
