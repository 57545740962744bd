// The write path through the sandbox in every catalog flavour, with iceberg-js as the outside
// client (bearer tokens; a SigV4-signing fetch for Glue and S3 Tables): create a namespace and a
// table, load it, commit an append (add-snapshot + set-snapshot-ref), load it back with the
// snapshot current, drop it with purge; the metadata files appear in s3rver and go with the purge.
// BigLake's metadata files go to the sandbox's Cloud Storage emulator instead, through its JSON API.
// Then each denied privilege answered in the flavour's real shape (the namespace-property and rename
// routes too), and the commit-conflict fault.
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { IcebergError } from 'iceberg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATALOG_FLAVOURS,
  type CatalogFlavour,
  type Privilege,
  SANDBOX,
  SANDBOX_CATALOGS,
  type Sandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY } from '../../src/sandbox/s3.js';
import { type Answer, authHeaders, client, errorOf, RAW_SCHEMA, send, signingKey } from './support.js';

const NS = ['test_olake'];

/** The sandbox bucket where the flavour's data goes: s3rver's, or (BigLake) the Cloud Storage emulator's. */
interface Bucket {
  scheme: 's3' | 'gs';
  keys(prefix: string): Promise<string[]>;
  put(key: string, body: string): Promise<void>;
  close(): void;
}

function bucketOf(sandbox: Sandbox): Bucket {
  const { gcs } = sandbox;
  if (gcs)
    return {
      scheme: 'gs',
      keys: async (prefix) =>
        [...gcs.objects(SANDBOX.bucket).keys()].filter((k) => k.startsWith(prefix)).sort(),
      put: async (key, body) => gcs.seed(SANDBOX.bucket, key, body),
      close: () => {},
    };
  const client = new S3Client({
    endpoint: sandbox.s3.url,
    region: SANDBOX.region,
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_ACCESS_KEY, secretAccessKey: S3RVER_SECRET_KEY },
  });
  return {
    scheme: 's3',
    async keys(prefix) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: SANDBOX.bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    async put(key, body) {
      await client.send(new PutObjectCommand({ Bucket: SANDBOX.bucket, Key: key, Body: body }));
    },
    close: () => client.destroy(),
  };
}

const keyOf = (uri: string) => uri.replace(/^(s3|gs):\/\/[^/]+\//, '');

/** An append: the requirements and updates Java's SnapshotProducer sends for a first commit. */
function append(uuid: string, location: string, parent: number | null, sequence: number, id: number) {
  return {
    requirements: [
      { type: 'assert-table-uuid', uuid },
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': parent },
    ],
    updates: [
      {
        action: 'add-snapshot',
        snapshot: {
          'snapshot-id': id,
          ...(parent === null ? {} : { 'parent-snapshot-id': parent }),
          'sequence-number': sequence,
          'timestamp-ms': Date.now(),
          'manifest-list': `${location}/metadata/snap-${id}-1-manifest-list.avro`,
          summary: { operation: 'append', 'added-records': '1' },
          'schema-id': 0,
        },
      },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': id },
    ],
  };
}

describe.each(CATALOG_FLAVOURS)('floe sandbox --catalog %s: the write path', (flavour) => {
  let sandbox: Sandbox;
  let headers: Record<string, string>;
  let bucket: Bucket;
  beforeAll(async () => {
    sandbox = await startSandbox({
      ports: { catalog: 0, olake: 0, s3: 0, gcs: 0 },
      jobs: 0,
      catalog: flavour,
    });
    headers = await authHeaders(sandbox, flavour);
    bucket = bucketOf(sandbox);
  });
  afterAll(async () => {
    bucket.close();
    await sandbox.stop();
  });

  /** The sandbox's catalog emulator that answers this flavour's auth type. */
  const emulator = () =>
    SANDBOX_CATALOGS[flavour].auth === 'sigv4' ? sandbox.catalog.sigv4 : sandbox.catalog.bearer;

  it('creates, loads, commits an append, loads it back and drops with purge; metadata files come and go', async () => {
    const catalog = client(sandbox, flavour, headers);
    await catalog.createNamespace({ namespace: NS }, { properties: { owner: 'floe' } });
    expect(await catalog.namespaceExists({ namespace: NS })).toBe(true);
    await expect(catalog.createNamespace({ namespace: NS })).rejects.toMatchObject({ status: 409 });
    const created = await catalog.createTableResult(
      { namespace: NS },
      { name: 'test_olake', schema: RAW_SCHEMA },
    );
    const metadata = created.metadata;
    const location = String(metadata.location);
    expect(metadata['format-version']).toBe(2);
    expect(metadata.schemas[0]?.fields.map((f) => f.id)).toEqual([1, 2, 3, 4, 5]);
    expect(metadata['last-column-id']).toBe(5);
    expect(location.startsWith(`${bucket.scheme}://${SANDBOX.bucket}/`)).toBe(true);
    const first = String(created['metadata-location']);
    expect(first).toMatch(new RegExp(`^${location}/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json$`));
    const metadataDir = `${keyOf(location)}/metadata/`;
    expect(await bucket.keys(metadataDir)).toEqual([keyOf(first)]);
    expect((await catalog.listTables({ namespace: NS })).identifiers).toEqual([
      { namespace: NS, name: 'test_olake' },
    ]);

    const id = { namespace: NS, name: 'test_olake' };
    const loaded = await catalog.loadTableResult(id);
    expect(loaded?.['metadata-location']).toBe(first);
    const uuid = metadata['table-uuid'];
    const snapshotId = 4242424242;
    const commit = append(String(uuid), location, null, 1, snapshotId);
    const manifestList = String(commit.updates[0]?.snapshot?.['manifest-list']);
    await bucket.put(keyOf(manifestList), 'avro');
    const committed = await catalog.commitTable(id, commit as never);
    expect(committed['metadata-location']).toMatch(/\/metadata\/00001-[0-9a-f-]{36}\.metadata\.json$/);

    const after = await catalog.loadTable(id);
    expect(after?.['current-snapshot-id']).toBe(snapshotId);
    expect(after?.['last-sequence-number']).toBe(1);
    expect(after?.refs?.main).toEqual({ 'snapshot-id': snapshotId, type: 'branch' });
    expect(after?.['snapshot-log']).toHaveLength(1);
    expect(after?.['metadata-log']).toEqual([
      { 'timestamp-ms': metadata['last-updated-ms'], 'metadata-file': first },
    ]);
    expect(await bucket.keys(metadataDir)).toEqual(
      [keyOf(first), keyOf(committed['metadata-location']), keyOf(manifestList)].sort(),
    );

    await catalog.dropTable(id, { purge: true });
    expect(await bucket.keys(metadataDir)).toEqual([]);
    expect(await catalog.tableExists(id)).toBe(false);
    await catalog.dropNamespace({ namespace: NS });
    expect(await catalog.namespaceExists({ namespace: NS })).toBe(false);
  });

  it('a commit-conflict fault answers 409 CommitFailedException twice, then the retried commit lands', async () => {
    const catalog = client(sandbox, flavour, headers);
    await catalog.createNamespace({ namespace: ['conflict'] });
    const table = await catalog.createTable({ namespace: ['conflict'] }, { name: 't', schema: RAW_SCHEMA });
    const id = { namespace: ['conflict'], name: 't' };
    emulator().setFault({ kind: 'commit-conflict', times: 2 }, 'commit');
    const commit = append(String(table['table-uuid']), String(table.location), null, 1, 7);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await catalog.commitTable(id, commit as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IcebergError);
      expect(error).toMatchObject({
        status: 409,
        icebergType: 'CommitFailedException',
        message: 'Requirement failed: branch main was created concurrently',
      });
    }
    const landed = await catalog.commitTable(id, commit as never);
    expect(landed.metadata['current-snapshot-id']).toBe(7);
    await catalog.dropTable(id, { purge: true });
    await catalog.dropNamespace({ namespace: ['conflict'] });
  });

  it('each denied privilege is refused in the real server’s shape', async () => {
    const catalog = client(sandbox, flavour, headers);
    await catalog.createNamespace({ namespace: ['guarded'] });
    const table = await catalog.createTable({ namespace: ['guarded'] }, { name: 't', schema: RAW_SCHEMA });
    const sign = SANDBOX_CATALOGS[flavour].auth === 'sigv4' ? signingKey(flavour) : undefined;
    const prefix = await catalog.loadConfig().then((c) => c.overrides?.prefix ?? c.defaults?.prefix);
    const base = `${sandbox.catalog.url}/v1/${prefix}/namespaces`;
    const json = { 'content-type': 'application/json' };
    const call = (method: string, url: string, body?: unknown): Promise<Answer> =>
      send(method, url, {
        headers: { ...headers, ...(body === undefined ? {} : json) },
        ...(sign ? { sign } : {}),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const attempts: [Exclude<Privilege, 'update-namespace'>, () => Promise<Answer>][] = [
      ['create-namespace', () => call('POST', base, { namespace: ['other'] })],
      ['create-table', () => call('POST', `${base}/guarded/tables`, { name: 'u', schema: RAW_SCHEMA })],
      [
        'write-data',
        () =>
          call(
            'POST',
            `${base}/guarded/tables/t`,
            append(String(table['table-uuid']), String(table.location), null, 1, 9),
          ),
      ],
      ['drop-table', () => call('DELETE', `${base}/guarded/tables/t?purgeRequested=true`)],
      ['drop-namespace', () => call('DELETE', `${base}/guarded`)],
      ['read', () => call('GET', `${base}/guarded/tables/t`)],
    ];
    try {
      for (const [privilege, attempt] of attempts) {
        emulator().setDeny([privilege]);
        const answer = await attempt();
        expect(answer.status, `${privilege}: ${answer.text}`).toBe(403);
        expect(refusal(flavour, answer), privilege).toMatch(EXPECTED_REFUSAL[flavour][privilege]);
      }
    } finally {
      emulator().setDeny([]);
    }
    await catalog.dropTable({ namespace: ['guarded'], name: 't' }, { purge: true });
    await catalog.dropNamespace({ namespace: ['guarded'] });
  });

  it('namespace-property updates and renames are refused as the real server refuses them, and go through once allowed', async () => {
    const catalog = client(sandbox, flavour, headers);
    await catalog.createNamespace({ namespace: ['fenced'] });
    await catalog.createTable({ namespace: ['fenced'] }, { name: 't', schema: RAW_SCHEMA });
    const sign = SANDBOX_CATALOGS[flavour].auth === 'sigv4' ? signingKey(flavour) : undefined;
    const prefix = await catalog.loadConfig().then((c) => c.overrides?.prefix ?? c.defaults?.prefix);
    const base = `${sandbox.catalog.url}/v1/${prefix}`;
    const post = (path: string, body: unknown): Promise<Answer> =>
      send('POST', `${base}${path}`, {
        headers: { ...headers, 'content-type': 'application/json' },
        ...(sign ? { sign } : {}),
        body: JSON.stringify(body),
      });
    const properties = () => post('/namespaces/fenced/properties', { updates: { owner: 'olake' } });
    const rename = () =>
      post('/tables/rename', {
        source: { namespace: ['fenced'], name: 't' },
        destination: { namespace: ['fenced'], name: 'renamed' },
      });
    const attempts: [Privilege, 'properties' | 'renameDrop' | 'renameCreate', () => Promise<Answer>][] = [
      ['update-namespace', 'properties', properties],
      ['drop-table', 'renameDrop', rename],
      ['create-table', 'renameCreate', rename],
    ];
    try {
      for (const [privilege, which, attempt] of attempts) {
        emulator().setDeny([privilege]);
        const answer = await attempt();
        if (flavour === 'unity') {
          // Unity serves neither route: 406 whatever is granted.
          expect([answer.status, errorOf(answer).type], answer.text).toEqual([
            406,
            'UnsupportedOperationException',
          ]);
          continue;
        }
        expect(answer.status, `${privilege}: ${answer.text}`).toBe(403);
        expect(refusal(flavour, answer), `${privilege} (${which})`).toMatch(EXPECTED_MORE[flavour][which]);
      }
    } finally {
      emulator().setDeny([]);
    }
    if (flavour !== 'unity') {
      expect((await properties()).status).toBe(200);
      expect((await rename()).status).toBe(204);
      expect((await catalog.loadNamespaceMetadata({ namespace: ['fenced'] })).properties).toEqual({
        owner: 'olake',
      });
      expect(await catalog.tableExists({ namespace: ['fenced'], name: 'renamed' })).toBe(true);
    }
    const left = flavour === 'unity' ? 't' : 'renamed';
    await catalog.dropTable({ namespace: ['fenced'], name: left }, { purge: true });
    await catalog.dropNamespace({ namespace: ['fenced'] });
  });
});

/** The refusal as one line: the AWS error type and message, or the Iceberg error's type and message. */
function refusal(flavour: CatalogFlavour, answer: Answer): string {
  const body = answer.body as { message?: string; error?: { type: string; message: string; code: number } };
  if (flavour === 'glue' || flavour === 's3tables')
    return `${answer.headers.get('x-amzn-errortype')}: ${body.message}`;
  expect(body.error?.code).toBe(403);
  return `${body.error?.type}: ${body.error?.message}`;
}

const POLARIS = (op: string) =>
  new RegExp(
    `^ForbiddenException: Principal 'floe-sandbox' with activated PrincipalRoles '\\[\\]' and activated grants via '\\[service_admin, catalog_admin\\]' is not authorized for op ${op}$`,
  );
const aws = (action: string, resource: string) =>
  new RegExp(
    `^AccessDeniedException: User: arn:aws:iam::123456789012:user/olake is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action$`,
  );
const GLUE = 'arn:aws:glue:us-east-1:123456789012';
const BUCKET = 'arn:aws:s3tables:us-east-1:123456789012:bucket/warehouse';

const BIGLAKE = (permission: string, resource: string) =>
  new RegExp(
    `^PERMISSION_DENIED: Permission '${permission.replaceAll('.', '\\.')}' denied on resource '//biglake\\.googleapis\\.com/projects/sandbox-project/catalogs/warehouse${resource.replaceAll('.', '\\.')}' \\(or it may not exist\\)\\.$`,
  );

const EXPECTED_REFUSAL: Record<CatalogFlavour, Record<Exclude<Privilege, 'update-namespace'>, RegExp>> = {
  rest: {
    'create-namespace': /^ForbiddenException: Forbidden: floe-sandbox may not create-namespace other/,
    'create-table': /^ForbiddenException: Forbidden: floe-sandbox may not create-table guarded\.u/,
    'write-data': /^ForbiddenException: Forbidden: floe-sandbox may not update-table guarded\.t/,
    'drop-table': /^ForbiddenException: Forbidden: floe-sandbox may not drop-table guarded\.t/,
    'drop-namespace': /^ForbiddenException: Forbidden: floe-sandbox may not drop-namespace guarded/,
    read: /^ForbiddenException: Forbidden: floe-sandbox may not load-table guarded\.t \(read denied\)/,
  },
  polaris: {
    'create-namespace': POLARIS('CREATE_NAMESPACE'),
    'create-table': POLARIS('CREATE_TABLE_DIRECT'),
    'write-data': POLARIS('UPDATE_TABLE'),
    'drop-table': POLARIS('DROP_TABLE_WITH_PURGE'),
    'drop-namespace': POLARIS('DROP_NAMESPACE'),
    read: POLARIS('LOAD_TABLE'),
  },
  lakekeeper: {
    'create-namespace':
      /^WarehouseActionForbidden: Warehouse action `create_namespace\(name=other\)` forbidden on warehouse `[0-9a-f-]{36}`$/,
    'create-table':
      /^NamespaceActionForbidden: Namespace action `create_table\(name=u\)` forbidden on namespace with name 'guarded' in warehouse `[0-9a-f-]{36}`$/,
    'write-data':
      /^TableActionForbidden: Table action `commit` forbidden on table name 'guarded\.t' in warehouse/,
    'drop-table': /^TableActionForbidden: Table action `drop\(purge=true\)` forbidden on table/,
    'drop-namespace':
      /^NamespaceActionForbidden: Namespace action `delete` forbidden on namespace with name 'guarded'/,
    read: /^TableActionForbidden: Table action `get_metadata` forbidden/,
  },
  nessie: {
    'create-namespace':
      /^NotAuthorizedException: 'CREATE_ENTITY' is not allowed for role 'floe-sandbox' on content 'other'$/,
    'create-table':
      /^NotAuthorizedException: 'CREATE_ENTITY' is not allowed for role 'floe-sandbox' on content 'guarded\.u'$/,
    'write-data':
      /^NotAuthorizedException: 'UPDATE_ENTITY' is not allowed for role 'floe-sandbox' on content 'guarded\.t'$/,
    'drop-table': /^NotAuthorizedException: 'DELETE_ENTITY' is not allowed .* on content 'guarded\.t'$/,
    'drop-namespace': /^NotAuthorizedException: 'DELETE_ENTITY' is not allowed .* on content 'guarded'$/,
    read: /^NotAuthorizedException: 'READ_ENTITY_VALUE' is not allowed .* on content 'guarded\.t'$/,
  },
  unity: {
    'create-namespace':
      /^BaseException: PERMISSION_DENIED: User does not have CREATE SCHEMA on Catalog 'unity'\.$/,
    'create-table':
      /^BaseException: PERMISSION_DENIED: User does not have CREATE TABLE on Schema 'unity\.guarded'\.$/,
    'write-data':
      /^BaseException: PERMISSION_DENIED: User does not have MODIFY on Table 'unity\.guarded\.t'\.$/,
    'drop-table':
      /^BaseException: PERMISSION_DENIED: User does not have MANAGE on Table 'unity\.guarded\.t'\.$/,
    'drop-namespace':
      /^BaseException: PERMISSION_DENIED: User does not have MANAGE on Schema 'unity\.guarded'\.$/,
    read: /^BaseException: PERMISSION_DENIED: User does not have SELECT on Table 'unity\.guarded\.t'\.$/,
  },
  glue: {
    'create-namespace': aws('glue:CreateDatabase', `${GLUE}:database/other`),
    'create-table': aws('glue:CreateTable', `${GLUE}:table/guarded/u`),
    'write-data': aws('glue:UpdateTable', `${GLUE}:table/guarded/t`),
    'drop-table': aws('glue:DeleteTable', `${GLUE}:table/guarded/t`),
    'drop-namespace': aws('glue:DeleteDatabase', `${GLUE}:database/guarded`),
    read: aws('glue:GetTable', `${GLUE}:table/guarded/t`),
  },
  s3tables: {
    'create-namespace': aws('s3tables:CreateNamespace', BUCKET),
    'create-table': aws('s3tables:CreateTable', BUCKET),
    'write-data': aws('s3tables:UpdateTableMetadataLocation', `${BUCKET}/table/[0-9a-f-]{36}`),
    'drop-table': aws('s3tables:DeleteTable', `${BUCKET}/table/[0-9a-f-]{36}`),
    'drop-namespace': aws('s3tables:DeleteNamespace', BUCKET),
    read: aws('s3tables:GetTableMetadataLocation', `${BUCKET}/table/[0-9a-f-]{36}`),
  },
  biglake: {
    'create-namespace': BIGLAKE('biglake.namespaces.create', '/namespaces/other'),
    'create-table': BIGLAKE('biglake.tables.create', '/namespaces/guarded/tables/u'),
    'write-data': BIGLAKE('biglake.tables.update', '/namespaces/guarded/tables/t'),
    'drop-table': BIGLAKE('biglake.tables.delete', '/namespaces/guarded/tables/t'),
    'drop-namespace': BIGLAKE('biglake.namespaces.delete', '/namespaces/guarded'),
    read: BIGLAKE('biglake.tables.get', '/namespaces/guarded/tables/t'),
  },
};

/**
 * The refusals of a namespace-property update and of a rename without dropping the source or without
 * creating the destination. Polaris: PolarisAuthorizerImpl.java line 949 (apache/polaris 4b42186), the
 * ops UPDATE_NAMESPACE_PROPERTIES and RENAME_TABLE (PolarisAuthorizableOperation.java lines 28, 48).
 */
const EXPECTED_MORE: Record<
  Exclude<CatalogFlavour, 'unity'>,
  Record<'properties' | 'renameDrop' | 'renameCreate', RegExp>
> = {
  rest: {
    properties:
      /^ForbiddenException: Forbidden: floe-sandbox may not update-namespace-properties fenced \(update-namespace denied\)$/,
    renameDrop:
      /^ForbiddenException: Forbidden: floe-sandbox may not rename-table fenced\.t \(drop-table denied\)$/,
    renameCreate:
      /^ForbiddenException: Forbidden: floe-sandbox may not rename-table fenced\.t \(create-table denied\)$/,
  },
  polaris: {
    properties: POLARIS('UPDATE_NAMESPACE_PROPERTIES'),
    renameDrop: POLARIS('RENAME_TABLE'),
    renameCreate: POLARIS('RENAME_TABLE'),
  },
  lakekeeper: {
    properties:
      /^NamespaceActionForbidden: Namespace action `update_properties` forbidden on namespace with name 'fenced' in warehouse `[0-9a-f-]{36}`$/,
    renameDrop:
      /^TableActionForbidden: Table action `rename` forbidden on table name 'fenced\.t' in warehouse `[0-9a-f-]{36}`$/,
    renameCreate:
      /^NamespaceActionForbidden: Namespace action `create_table\(name=renamed\)` forbidden on namespace with name 'fenced'/,
  },
  nessie: {
    properties:
      /^NotAuthorizedException: 'UPDATE_ENTITY' is not allowed for role 'floe-sandbox' on content 'fenced'$/,
    renameDrop:
      /^NotAuthorizedException: 'DELETE_ENTITY' is not allowed for role 'floe-sandbox' on content 'fenced\.t'$/,
    renameCreate:
      /^NotAuthorizedException: 'CREATE_ENTITY' is not allowed for role 'floe-sandbox' on content 'fenced\.renamed'$/,
  },
  glue: {
    properties: aws('glue:UpdateDatabase', `${GLUE}:database/fenced`),
    renameDrop: aws('glue:DeleteTable', `${GLUE}:table/fenced/t`),
    renameCreate: aws('glue:CreateTable', `${GLUE}:table/fenced/renamed`),
  },
  s3tables: {
    properties: aws('s3tables:CreateNamespace', BUCKET),
    renameDrop: aws('s3tables:RenameTable', `${BUCKET}/table/[0-9a-f-]{36}`),
    renameCreate: aws('s3tables:RenameTable', `${BUCKET}/table/[0-9a-f-]{36}`),
  },
  biglake: {
    properties: BIGLAKE('biglake.namespaces.update', '/namespaces/fenced'),
    renameDrop: BIGLAKE('biglake.tables.delete', '/namespaces/fenced/tables/t'),
    renameCreate: BIGLAKE('biglake.tables.create', '/namespaces/fenced/tables/renamed'),
  },
};

describe('the Polaris token endpoint in the sandbox is Polaris’s, not the identity provider’s', () => {
  it('no scope and a wrong secret: 400 invalid_scope (TokenRequestValidator first); a wrong secret: 401 unauthorized_client', async () => {
    const sandbox = await startSandbox({
      ports: { catalog: 0, olake: 0, s3: 0 },
      jobs: 0,
      catalog: 'polaris',
    });
    try {
      const form = {
        grant_type: 'client_credentials',
        client_id: SANDBOX.oauth.clientId,
        client_secret: 'wrong',
      };
      const noScope = await send('POST', sandbox.catalog.tokenUrl, { form });
      expect([noScope.status, noScope.body]).toEqual([
        400,
        { error: 'invalid_scope', error_description: 'The scope is invalid' },
      ]);
      const wrong = await send('POST', sandbox.catalog.tokenUrl, {
        form: { ...form, scope: 'PRINCIPAL_ROLE:ALL' },
      });
      expect([wrong.status, wrong.body]).toEqual([
        401,
        { error: 'unauthorized_client', error_description: 'The client is not authorized' },
      ]);
    } finally {
      await sandbox.stop();
    }
  });
});
