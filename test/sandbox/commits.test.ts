// Table commits checked as apache/iceberg checks them (UpdateRequirement, TableMetadata.Builder,
// CatalogHandlers.commit), namespace and table errors with each flavour's texts, table locations
// per flavour, Polaris's purge switch, and a failed metadata write answered as each server would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  lakekeeperWarehouseId,
  POLARIS_PURGE_PROPERTY,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { type S3Server, startS3Server } from '../../src/sandbox/s3.js';
import { type Answer, errorOf, send } from './support.js';

const started: CatalogEmulator[] = [];
afterAll(() => Promise.all(started.map((e) => e.close())));

async function start(options: CatalogEmulatorOptions = {}): Promise<CatalogEmulator> {
  const emulator = await startCatalogEmulator({ namespaces: [['db']], ...options });
  started.push(emulator);
  return emulator;
}

const SCHEMA = {
  type: 'struct',
  fields: [
    { id: 1, name: 'id', type: 'long', required: true },
    {
      id: 2,
      name: 'tags',
      type: { type: 'list', 'element-id': 3, element: 'string', 'element-required': false },
      required: false,
    },
    {
      id: 4,
      name: 'point',
      type: { type: 'struct', fields: [{ id: 5, name: 'x', type: 'double', required: true }] },
      required: false,
    },
  ],
};

const post = (url: string, body: unknown) =>
  send('POST', url, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Table {
  url: string;
  uuid: string;
  location: string;
  metadata: Record<string, unknown>;
}

async function createTable(
  emu: CatalogEmulator,
  name: string,
  extra: Record<string, unknown> = {},
  ns = 'db',
  prefix = 'main',
): Promise<Table> {
  const answer = await post(`${emu.url}/v1/${prefix}/namespaces/${ns}/tables`, {
    name,
    schema: SCHEMA,
    ...extra,
  });
  expect(answer.status, answer.text).toBe(200);
  const metadata = (answer.body as { metadata: Record<string, unknown> }).metadata;
  return {
    url: `${emu.url}/v1/${prefix}/namespaces/${ns}/tables/${name}`,
    uuid: String(metadata['table-uuid']),
    location: String(metadata.location),
    metadata,
  };
}

const snapshot = (id: number, sequence: number, extra: Record<string, unknown> = {}) => ({
  action: 'add-snapshot',
  snapshot: {
    'snapshot-id': id,
    'sequence-number': sequence,
    'timestamp-ms': 1_700_000_000_000,
    'manifest-list': `s3://warehouse/db/t/metadata/snap-${id}.avro`,
    summary: { operation: 'append' },
    'schema-id': 0,
    ...extra,
  },
});
const setMain = (id: number, type = 'branch') => ({
  action: 'set-snapshot-ref',
  'ref-name': 'main',
  type,
  'snapshot-id': id,
});

describe('a new table', () => {
  it('gets fresh field ids (a struct’s fields first, then nested), its uuid, v2 metadata and zstd', async () => {
    const emu = await start();
    const table = await createTable(emu, 't', {
      'partition-spec': { fields: [{ 'source-id': 1, transform: 'bucket[4]', name: 'id_bucket' }] },
      properties: { owner: 'floe' },
    });
    const schema = (table.metadata.schemas as { fields: unknown[] }[])[0];
    expect(schema?.fields).toEqual([
      { id: 1, name: 'id', type: 'long', required: true },
      {
        id: 2,
        name: 'tags',
        type: { type: 'list', 'element-id': 4, element: 'string', 'element-required': false },
        required: false,
      },
      {
        id: 3,
        name: 'point',
        type: { type: 'struct', fields: [{ id: 5, name: 'x', type: 'double', required: true }] },
        required: false,
      },
    ]);
    expect(table.metadata).toMatchObject({
      'format-version': 2,
      'last-column-id': 5,
      'last-sequence-number': 0,
      'current-snapshot-id': -1,
      'partition-specs': [
        { 'spec-id': 0, fields: [{ 'source-id': 1, 'field-id': 1000, name: 'id_bucket' }] },
      ],
      'last-partition-id': 1000,
      properties: { owner: 'floe', 'write.parquet.compression-codec': 'zstd' },
      location: 's3://warehouse/db/t',
    });
    expect(table.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a requested location is taken as given; stage-create and other format versions are 406 (not modelled)', async () => {
    const emu = await start();
    expect((await createTable(emu, 'here', { location: 's3://other/place/' })).location).toBe(
      's3://other/place',
    );
    const url = `${emu.url}/v1/main/namespaces/db/tables`;
    expect(errorOf(await post(url, { name: 's', schema: SCHEMA, 'stage-create': true })).status).toBe(406);
    expect(
      errorOf(await post(url, { name: 'v3', schema: SCHEMA, properties: { 'format-version': '3' } })).status,
    ).toBe(406);
  });

  it('errors: a missing namespace 404, an existing table 409, no schema 400, a missing table 404', async () => {
    const emu = await start();
    await createTable(emu, 'dup');
    expect(
      errorOf(await post(`${emu.url}/v1/main/namespaces/nope/tables`, { name: 'x', schema: SCHEMA })),
    ).toEqual({
      status: 404,
      type: 'NoSuchNamespaceException',
      message: 'Namespace does not exist: nope',
    });
    expect(
      errorOf(await post(`${emu.url}/v1/main/namespaces/db/tables`, { name: 'dup', schema: SCHEMA })),
    ).toEqual({
      status: 409,
      type: 'AlreadyExistsException',
      message: 'Table already exists: db.dup',
    });
    expect(errorOf(await post(`${emu.url}/v1/main/namespaces/db/tables`, { name: 'x' })).status).toBe(400);
    expect(errorOf(await send('GET', `${emu.url}/v1/main/namespaces/db/tables/none`))).toEqual({
      status: 404,
      type: 'NoSuchTableException',
      message: 'Table does not exist: db.none',
    });
    const head = await send('HEAD', `${emu.url}/v1/main/namespaces/db/tables/none`);
    expect([head.status, head.text]).toEqual([404, '']);
    expect((await send('DELETE', `${emu.url}/v1/main/namespaces/db/tables/none`)).status).toBe(404);
  });
});

describe('commit requirements (UpdateRequirement.java): each failure is 409 CommitFailedException', () => {
  let emu: CatalogEmulator;
  let table: Table;
  beforeAll(async () => {
    emu = await start();
    table = await createTable(emu, 't');
    const first = await post(table.url, { requirements: [], updates: [snapshot(1, 1), setMain(1)] });
    expect(first.status, first.text).toBe(200);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['assert-create', { type: 'assert-create' }, 'Requirement failed: table already exists'],
    [
      'assert-table-uuid',
      { type: 'assert-table-uuid', uuid: '00000000-0000-0000-0000-000000000000' },
      'Requirement failed: UUID does not match: expected %UUID% != 00000000-0000-0000-0000-000000000000',
    ],
    [
      'assert-ref-snapshot-id (null: must not exist)',
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null },
      'Requirement failed: branch main was created concurrently',
    ],
    [
      'assert-ref-snapshot-id (changed)',
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': 99 },
      'Requirement failed: branch main has changed: expected id 99 != 1',
    ],
    [
      'assert-ref-snapshot-id (missing ref)',
      { type: 'assert-ref-snapshot-id', ref: 'dev', 'snapshot-id': 1 },
      'Requirement failed: branch or tag dev is missing, expected 1',
    ],
    [
      'assert-current-schema-id',
      { type: 'assert-current-schema-id', 'current-schema-id': 3 },
      'Requirement failed: current schema changed: expected id 3 != 0',
    ],
    [
      'assert-last-assigned-field-id',
      { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 9 },
      'Requirement failed: last assigned field id changed: expected id 9 != 5',
    ],
    [
      'assert-last-assigned-partition-id',
      { type: 'assert-last-assigned-partition-id', 'last-assigned-partition-id': 1005 },
      'Requirement failed: last assigned partition id changed: expected id 1005 != 999',
    ],
    [
      'assert-default-spec-id',
      { type: 'assert-default-spec-id', 'default-spec-id': 2 },
      'Requirement failed: default partition spec changed: expected id 2 != 0',
    ],
    [
      'assert-default-sort-order-id',
      { type: 'assert-default-sort-order-id', 'default-sort-order-id': 4 },
      'Requirement failed: default sort order changed: expected id 4 != 0',
    ],
  ];
  for (const [name, requirement, message] of cases)
    it(name, async () => {
      const answer = await post(table.url, {
        requirements: [requirement],
        updates: [snapshot(50, 50), setMain(50)],
      });
      expect(errorOf(answer)).toEqual({
        status: 409,
        type: 'CommitFailedException',
        message: message.replace('%UUID%', table.uuid),
      });
    });

  it('the right requirements pass, and nothing was committed by the failed ones', async () => {
    const answer = await post(table.url, {
      requirements: [
        { type: 'assert-table-uuid', uuid: table.uuid.toUpperCase() },
        { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': 1 },
        { type: 'assert-current-schema-id', 'current-schema-id': 0 },
        { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 5 },
        { type: 'assert-default-spec-id', 'default-spec-id': 0 },
      ],
      updates: [snapshot(2, 2, { 'parent-snapshot-id': 1 }), setMain(2)],
    });
    expect(answer.status, answer.text).toBe(200);
    const metadata = (answer.body as { metadata: Record<string, unknown> }).metadata;
    expect(metadata).toMatchObject({ 'current-snapshot-id': 2, 'last-sequence-number': 2 });
    expect(metadata['snapshot-log']).toEqual([
      { 'timestamp-ms': 1_700_000_000_000, 'snapshot-id': 1 },
      { 'timestamp-ms': 1_700_000_000_000, 'snapshot-id': 2 },
    ]);
    expect((metadata['metadata-log'] as unknown[]).length).toBe(2);
  });
});

describe('commit updates (TableMetadata.Builder)', () => {
  const refused: [string, unknown[], number, string, string | RegExp][] = [
    [
      'a sequence number not above last-sequence-number',
      [snapshot(3, 1)],
      409,
      'CommitFailedException',
      'Validation failed, please retry: Cannot add snapshot with sequence number 1 older than last sequence number 1',
    ],
    [
      'a snapshot id that exists',
      [snapshot(1, 5)],
      400,
      'ValidationException',
      'Snapshot already exists for id: 1',
    ],
    [
      'an unknown schema id',
      [snapshot(4, 5, { 'schema-id': 7 })],
      400,
      'ValidationException',
      'Cannot add snapshot with unknown schema id: 7',
    ],
    [
      'no manifest-list',
      [snapshot(4, 5, { 'manifest-list': undefined })],
      400,
      'BadRequestException',
      /manifest-list/,
    ],
    [
      'no summary.operation',
      [snapshot(4, 5, { summary: {} })],
      400,
      'BadRequestException',
      /summary\.operation/,
    ],
    [
      'a ref to an unknown snapshot',
      [setMain(404)],
      400,
      'ValidationException',
      'Cannot set main to unknown snapshot: 404',
    ],
    [
      'main as a tag',
      [setMain(1, 'tag')],
      400,
      'ValidationException',
      'Cannot set main to a tag, it must be a branch',
    ],
    [
      'another uuid',
      [{ action: 'assign-uuid', uuid: '00000000-0000-0000-0000-000000000001' }],
      400,
      'ValidationException',
      /Cannot reassign uuid/,
    ],
    [
      'an action the emulator does not serve',
      [{ action: 'add-spec', spec: { 'spec-id': 1, fields: [] } }],
      400,
      'BadRequestException',
      /Unsupported metadata update action: add-spec/,
    ],
    [
      'a schema a v2 table cannot hold (Schema.checkCompatibility)',
      [
        {
          action: 'add-schema',
          schema: {
            ...SCHEMA,
            fields: [...SCHEMA.fields, { id: 90, name: 'v', type: 'variant', required: false }],
          },
        },
      ],
      400,
      'ValidationException',
      /^Invalid schema for v2:\n- Invalid type for v: variant is not supported until v3$/,
    ],
    ['an id beyond 2^53', [snapshot(2 ** 60, 5)], 406, 'UnsupportedOperationException', /beyond 2\^53/],
  ];
  for (const [name, updates, status, type, message] of refused)
    it(`refuses ${name}`, async () => {
      const emu = await start();
      const table = await createTable(emu, 't');
      expect(
        (await post(table.url, { requirements: [], updates: [snapshot(1, 1), setMain(1)] })).status,
      ).toBe(200);
      const answer = errorOf(await post(table.url, { requirements: [], updates }));
      expect([answer.status, answer.type]).toEqual([status, type]);
      expect(answer.message).toMatch(message);
    });

  it('set-properties, remove-properties and the same uuid; a commit without changes writes no new metadata', async () => {
    const emu = await start();
    const table = await createTable(emu, 't');
    const same = await post(table.url, { updates: [{ action: 'assign-uuid', uuid: table.uuid }] });
    expect((same.body as { 'metadata-location': string })['metadata-location']).toMatch(/\/00000-/);
    const props = await post(table.url, {
      updates: [
        { action: 'set-properties', updates: { a: '1', b: '2' } },
        { action: 'remove-properties', removals: ['b'] },
      ],
    });
    const body = props.body as {
      'metadata-location': string;
      metadata: { properties: Record<string, string> };
    };
    expect(body['metadata-location']).toMatch(/\/00001-/);
    expect(body.metadata.properties).toMatchObject({ a: '1' });
    expect(body.metadata.properties).not.toHaveProperty('b');
  });
});

describe('namespaces', () => {
  it('create (200, 409), nested needs its parent (404), drop of a non-empty one 409, of a missing one 404', async () => {
    const emu = await start();
    const url = `${emu.url}/v1/main/namespaces`;
    const made = await post(url, { namespace: ['a'], properties: { k: 'v' } });
    expect([made.status, made.body]).toEqual([200, { namespace: ['a'], properties: { k: 'v' } }]);
    expect(errorOf(await post(url, { namespace: ['a'] }))).toEqual({
      status: 409,
      type: 'AlreadyExistsException',
      message: 'Namespace already exists: a',
    });
    expect(errorOf(await post(url, { namespace: ['x', 'y'] }))).toMatchObject({
      status: 404,
      type: 'NoSuchNamespaceException',
    });
    expect((await post(url, { namespace: ['a', 'b'] })).status).toBe(200);
    expect((await send('GET', `${url}/a%1Fb`)).body).toEqual({ namespace: ['a', 'b'], properties: {} });
    expect(errorOf(await send('DELETE', `${url}/a`))).toMatchObject({
      status: 409,
      type: 'NamespaceNotEmptyException',
    });
    await createTable(emu, 't', {}, 'a%1Fb');
    expect(errorOf(await send('DELETE', `${url}/a%1Fb`))).toEqual({
      status: 409,
      type: 'NamespaceNotEmptyException',
      message: 'Namespace a.b is not empty. 1 tables exist.',
    });
    expect((await send('DELETE', `${url}/a%1Fb/tables/t`)).status).toBe(204);
    expect((await send('DELETE', `${url}/a%1Fb`)).status).toBe(204);
    expect(errorOf(await send('DELETE', `${url}/a%1Fb`))).toMatchObject({
      status: 404,
      type: 'NoSuchNamespaceException',
    });
  });

  it('tables are listed in pages like namespaces', async () => {
    const emu = await start();
    for (const name of ['t1', 't2', 't3']) await createTable(emu, name);
    const first = await send('GET', `${emu.url}/v1/main/namespaces/db/tables?pageToken=&pageSize=2`);
    const body = first.body as { identifiers: unknown[]; 'next-page-token': string };
    expect(body.identifiers).toEqual([
      { namespace: ['db'], name: 't1' },
      { namespace: ['db'], name: 't2' },
    ]);
    const second = await send(
      'GET',
      `${emu.url}/v1/main/namespaces/db/tables?pageToken=${body['next-page-token']}&pageSize=2`,
    );
    expect(second.body).toEqual({
      identifiers: [{ namespace: ['db'], name: 't3' }],
      'next-page-token': null,
    });
  });
});

describe('flavour rules', () => {
  it('polaris: <default-base-location>/<namespaces>/<table>, a namespace location moves it; its own texts', async () => {
    const emu = await start({ flavour: 'polaris', warehouses: ['cat'], dataLocation: 's3://lake/base/' });
    const url = `${emu.url}/v1/cat/namespaces`;
    await post(url, { namespace: ['a'] });
    await post(url, { namespace: ['a', 'b'] });
    await post(url, { namespace: ['a', 'b', 'c'], properties: { location: 's3://elsewhere/c/' } });
    await post(url, { namespace: ['a', 'b', 'c', 'd'] });
    expect((await createTable(emu, 't', {}, 'a%1Fb', 'cat')).location).toBe('s3://lake/base/a/b/t');
    expect((await createTable(emu, 't', {}, 'a%1Fb%1Fc%1Fd', 'cat')).location).toBe('s3://elsewhere/c/d/t');
    expect(errorOf(await post(url, { namespace: ['a'] })).message).toBe(
      'Cannot create namespace a. Namespace already exists',
    );
    expect(errorOf(await post(`${url}/nope/tables`, { name: 't', schema: SCHEMA })).message).toBe(
      "Cannot create table 'nope.t'. Namespace does not exist: 'nope'",
    );
  });

  it('polaris: purge is refused (403) unless the catalog allows it; /v1/config reports the property', async () => {
    const off = await start({ flavour: 'polaris', warehouses: ['cat'] });
    await post(`${off.url}/v1/cat/namespaces`, { namespace: ['a'] });
    const table = await createTable(off, 't', {}, 'a', 'cat');
    expect(errorOf(await send('DELETE', `${table.url}?purgeRequested=true`))).toEqual({
      status: 403,
      type: 'ForbiddenException',
      message: `Unable to purge entity: t. To enable this feature, set the Polaris configuration DROP_WITH_PURGE_ENABLED or the catalog configuration ${POLARIS_PURGE_PROPERTY}`,
    });
    expect((await send('DELETE', table.url)).status).toBe(204);
    const on = await start({
      flavour: 'polaris',
      warehouses: ['cat'],
      catalogProperties: { [POLARIS_PURGE_PROPERTY]: 'true' },
    });
    const config = await send('GET', `${on.url}/v1/config?warehouse=cat`);
    expect(config.body).toMatchObject({ defaults: { [POLARIS_PURGE_PROPERTY]: 'true' } });
    await post(`${on.url}/v1/cat/namespaces`, { namespace: ['a'] });
    const purged = await createTable(on, 't', {}, 'a', 'cat');
    expect((await send('DELETE', `${purged.url}?purgeRequested=true`)).status).toBe(204);
  });

  it('lakekeeper: <base>/<namespace uuid>/<table uuid>; tableLocationBase replaces the base', async () => {
    const emu = await start({
      flavour: 'lakekeeper',
      warehouses: ['demo'],
      tableLocationBase: 's3://tables/root',
    });
    const prefix = lakekeeperWarehouseId('demo');
    await post(`${emu.url}/v1/${prefix}/namespaces`, { namespace: ['a'] });
    const table = await createTable(emu, 't', {}, 'a', prefix);
    expect(table.location).toMatch(new RegExp(`^s3://tables/root/[0-9a-f-]{36}/${table.uuid}$`));
  });
});

describe('a failed metadata write', () => {
  let s3: S3Server;
  let directory: string;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'floe-commits-'));
    s3 = await startS3Server({ bucket: 'warehouse', directory });
  });
  afterAll(async () => {
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const cases: [CatalogEmulatorOptions['flavour'], string, number, string][] = [
    ['rest', 'main', 500, 'S3Exception'],
    ['polaris', 'cat', 400, 'S3Exception'],
    ['nessie', 'main', 400, 'IllegalArgumentException'],
  ];
  for (const [flavour, prefix, status, type] of cases)
    it(`${flavour}: S3's NoSuchBucket answers ${status} ${type}, and no table is left`, async () => {
      const emu = await start({
        flavour,
        warehouses: flavour === 'polaris' ? ['cat'] : flavour === 'nessie' ? ['warehouse'] : undefined,
        tableLocationBase: 's3://no-such-bucket/base',
        objectStore: {
          endpoint: s3.url,
          region: 'us-east-1',
          accessKeyId: s3.accessKey,
          secretAccessKey: s3.secretKey,
        },
      });
      const answer: Answer = await post(`${emu.url}/v1/${prefix}/namespaces/db/tables`, {
        name: 't',
        schema: SCHEMA,
      });
      expect(errorOf(answer)).toMatchObject({ status, type });
      expect(errorOf(answer).message).toMatch(/NoSuchBucket/);
      expect((await send('GET', `${emu.url}/v1/${prefix}/namespaces/db/tables/t`)).status).toBe(404);
    });
});

describe('faults on the table routes', () => {
  it('a tables fault hits table routes only; a commit feels commit, then tables, then any', async () => {
    const emu = await start();
    const table = await createTable(emu, 't');
    emu.setFault({ kind: 'unavailable', times: 1 }, 'tables');
    expect((await send('GET', `${emu.url}/v1/main/namespaces/db`)).status).toBe(200);
    expect((await send('GET', table.url)).status).toBe(503);
    expect((await send('GET', table.url)).status).toBe(200);
    emu.setFault({ kind: 'server-error' }, 'commit');
    expect((await post(table.url, { updates: [] })).status).toBe(500);
    expect((await send('GET', table.url)).status).toBe(200);
    emu.setFault(null, 'commit');
    emu.setFault({ kind: 'json', status: 418, body: { teapot: true } }, 'any');
    expect((await post(table.url, { updates: [] })).status).toBe(418);
    emu.setFault(null, 'any');
    emu.setFault({ kind: 'commit-conflict' }, 'any');
    expect(errorOf(await send('GET', table.url)).status).toBe(200);
    expect(errorOf(await post(table.url, { updates: [] })).status).toBe(409);
    expect(errorOf(await post(table.url, { updates: [] })).status).toBe(409);
    emu.setFault(null, 'any');
    expect((await post(table.url, { updates: [] })).status).toBe(200);
  });
});

describe('create transactions', () => {
  it('a commit with assert-create on a missing table is 406 (not modelled); on an existing one 409', async () => {
    const emu = await start();
    const missing = await post(`${emu.url}/v1/main/namespaces/db/tables/new`, {
      requirements: [{ type: 'assert-create' }],
      updates: [],
    });
    expect(errorOf(missing)).toMatchObject({ status: 406, type: 'UnsupportedOperationException' });
    const table = await createTable(emu, 'old');
    expect(
      errorOf(await post(table.url, { requirements: [{ type: 'assert-create' }], updates: [] })),
    ).toEqual({
      status: 409,
      type: 'CommitFailedException',
      message: 'Requirement failed: table already exists',
    });
  });
});
