// OLake's catalog flavours (catalog_type polaris, lakekeeper, nessie, unity, s3tables, biglake) both ways:
// named for OLake ≥ 0.9.1, `rest` with what OLake forces written out before; every documented file imports.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptyValues, type Values } from '../../src/destination/fields.js';
import { fromDestinationJson, toDestinationJson } from '../../src/destination/olake.js';
import { fillFromPreset, type PresetId } from '../../src/destination/presets.js';
import { validate } from '../../src/destination/schema.js';

function profile(preset: PresetId, targetVersion: string, fields: Values['fields']): Values {
  const chosen = fillFromPreset({ ...emptyValues(), preset });
  return fillFromPreset({ ...chosen, targetVersion, fields: { ...chosen.fields, ...fields } }, chosen);
}

const UNITY = {
  catalogUrl: 'https://dbc-1234abcd-5678.cloud.databricks.com/api/2.1/unity-catalog/iceberg-rest',
  warehouse: 'main',
  token: 'dapi-sentinel',
};
const S3TABLES = {
  catalogUrl: 'https://s3tables.us-east-1.amazonaws.com/iceberg',
  warehouse: 'arn:aws:s3tables:us-east-1:123456789012:bucket/olake',
  region: 'us-east-1',
  signingRegion: 'us-east-1',
};

function exported(v: Values) {
  const result = validate(v);
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('; '));
  return toDestinationJson(result.values).writer;
}

describe('export by target OLake version', () => {
  it('unity: catalog_type unity from 0.9.1, else rest; no_identifier_fields is true either way', () => {
    expect(exported(profile('unity', 'latest', UNITY))).toMatchObject({
      catalog_type: 'unity',
      no_identifier_fields: true,
      iceberg_s3_path: 'main',
    });
    expect(exported(profile('unity', '0.9.0', UNITY))).toMatchObject({
      catalog_type: 'rest',
      no_identifier_fields: true,
    });
    expect(exported(profile('unity', 'latest', UNITY)).aws_region).toBeUndefined();
  });

  it('s3tables: the signing name and SigV4 are written out for older OLake', () => {
    for (const [version, type] of [
      ['0.9.1', 's3tables'],
      ['0.8.2', 'rest'],
    ] as const)
      expect(exported(profile('s3tables', version, S3TABLES))).toMatchObject({
        catalog_type: type,
        rest_auth_type: 'sigv4',
        rest_signing_name: 's3tables',
        rest_signing_v_4: true,
      });
  });

  it('glue and r2 are plain rest for OLake; the Data Location never leaves floe', () => {
    const glue = exported(
      profile('glue', 'latest', {
        catalogUrl: 'https://glue.eu-west-1.amazonaws.com/iceberg',
        warehouse: '123456789012',
        dataLocation: 's3://lake/olake',
      }),
    );
    expect(glue).toMatchObject({ catalog_type: 'rest', rest_signing_name: 'glue', aws_region: 'eu-west-1' });
    expect(JSON.stringify(glue)).not.toContain('s3://lake/olake');
  });
});

describe('import of each flavour', () => {
  it('keeps the flavour and applies what OLake forces, naming what it replaced', () => {
    const imported = fromDestinationJson({
      type: 'ICEBERG',
      writer: {
        catalog_type: 'unity',
        rest_catalog_url: UNITY.catalogUrl,
        iceberg_s3_path: 'main',
        rest_auth_type: 'Personal Access Token (PAT)',
        token: 'dapi-x',
        no_identifier_fields: false,
      },
    });
    expect(imported.values).toMatchObject({
      preset: 'unity',
      authType: 'token',
      fields: { noIdentifierFields: true },
    });
    expect(imported.notes.join('\n')).toContain(
      'no_identifier_fields false is replaced by true: OLake forces it for catalog_type "unity"',
    );
    expect(validate(imported.values).ok).toBe(true);
  });

  it('s3tables without rest_signing_name or rest_signing_v_4 is still SigV4 with s3tables', () => {
    const { values } = fromDestinationJson({
      type: 'ICEBERG',
      writer: {
        catalog_type: 's3tables',
        rest_catalog_url: S3TABLES.catalogUrl,
        iceberg_s3_path: S3TABLES.warehouse,
        rest_signing_region: 'us-east-1',
        aws_region: 'us-east-1',
      },
    });
    expect(values).toMatchObject({
      preset: 's3tables',
      authType: 'sigv4',
      fields: { signingName: 's3tables' },
    });
    expect(validate(values).ok).toBe(true);
  });

  it('a rest file for Glue is recognised by its URL only when it already has what Glue needs', () => {
    const writer = {
      catalog_type: 'rest',
      rest_catalog_url: 'https://glue.us-east-1.amazonaws.com/iceberg',
      aws_region: 'us-east-1',
      rest_signing_v_4: true,
      rest_signing_name: 'glue',
      rest_signing_region: 'us-east-1',
    };
    expect(
      fromDestinationJson({ type: 'ICEBERG', writer: { ...writer, iceberg_s3_path: '123456789012' } }).values
        .preset,
    ).toBe('glue');
    expect(
      fromDestinationJson({ type: 'ICEBERG', writer: { ...writer, iceberg_s3_path: 's3://b' } }).values
        .preset,
    ).toBe('rest');
  });

  it('a file whose values hold control characters is refused, naming the field and the character', () => {
    const { values } = fromDestinationJson({
      type: 'ICEBERG',
      writer: {
        catalog_type: 'rest',
        rest_catalog_url: 'http://catalog\u001b]0;pwned\u0007:8181',
        iceberg_s3_path: 's3://lake',
        aws_region: 'us-east-1',
        token: 'tok\u001b[2J',
      },
    });
    const result = validate(values);
    expect(result.ok ? [] : result.issues.map((i) => i.message)).toEqual([
      'REST Catalog URL: must not contain control characters: U+001B at position 15 (e.g. http://localhost:8181)',
      'Token: must not contain control characters: U+001B at position 4 (e.g. dapi0123456789abcdef)',
    ]);
  });

  it('an OAuth2 file without oauth2_uri gets Iceberg’s own fallback, said in a note', () => {
    const imported = fromDestinationJson({
      type: 'ICEBERG',
      writer: {
        catalog_type: 'rest',
        rest_catalog_url: 'http://polaris:8181/api/catalog/',
        iceberg_s3_path: 's3://b',
        aws_region: 'us-east-1',
        credential: 'id:secret',
      },
    });
    expect(imported.values.fields.oauth2Uri).toBe('http://polaris:8181/api/catalog/v1/oauth/tokens');
    expect(imported.notes.join('\n')).toContain('the deprecated endpoint Iceberg falls back to');
  });
});

const DOCS = new URL('../fixtures/olake-docs/', import.meta.url);
const documented = readdirSync(DOCS).filter((f) => f.endsWith('.json'));

/** What a user types for each placeholder of the docs (test/fixtures/olake-docs/SOURCES.md). */
const PLACEHOLDERS: Record<string, string> = {
  ACCOUNT_ID: '123456789012',
  AUTH_SERVER: 'keycloak.example.com',
  AWS_ACCESS_KEY: 'AKIAIOSFODNN7EXAMPLE',
  S3_ACCESS_KEY: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  S3_SECRET_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  AWS_REGION: 'us-east-1',
  REGION: 'us-east-1',
  REST_SIGNING_REGION: 'us-east-1',
  S3_REGION: 'us-east-1',
  BUCKET_NAME: 'olake-lake',
  CATALOG_NAME: 'main',
  CLIENT_ID: 'olake-client',
  client_id: 'olake-client',
  olake_user_client_id: 'olake-client',
  CLIENT_SECRET: 's3cr3t',
  client_secret: 's3cr3t',
  olake_user_client_secret: 's3cr3t',
  DATABRICKS_OAUTH_URI: 'https://dbc-1234abcd-5678.cloud.databricks.com/oidc/v1/token',
  DATABRICK_FEDERATION_TOKEN: 'eyJfederated0123',
  DATABRICK_USER_OAUTH_TOKEN: 'eyJuser0123456789',
  DATABRICK_USER_PERSONAL_ACCESS_TOKEN: 'dapi0123456789abcdef',
  DATABRICK_WORKSPACE_URL: 'dbc-1234abcd-5678.cloud.databricks.com',
  LAKEKEEPER_ENDPOINT: 'lakekeeper.example.com',
  OAUTH2_SCOPES: 'lakekeeper',
  OAUTH2_SERVER_URI: 'https://keycloak.example.com/realms/iceberg/protocol/openid-connect/token',
  POLARIS_CATALOG_NAME: 'olake_catalog',
  REST_ENDPOINT: 'catalog.example.com',
  S3_ENDPOINT: 'minio.example.com',
  SCOPE: 'PRINCIPAL_ROLE:ALL',
  TOKEN: 'tok-0123456789',
  WAREHOUSE_NAME: 'demo',
  YOUR_MACHINE_IP: '192.0.2.10',
  'your-project_id': 'my-project-123',
};
const SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account',
  client_email: 'olake@my-project-123.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
});

/** The documented file as a user fills it in: placeholders replaced, the elided key JSON made whole. */
function filledIn(file: string): { writer: Record<string, unknown> } {
  const text = readFileSync(new URL(file, DOCS), 'utf8').replace(/<([^<>" ]+)>/g, (all, name: string) => {
    const value = PLACEHOLDERS[name];
    if (value === undefined) throw new Error(`${file}: no value for the placeholder ${all}`);
    return value;
  });
  const json = JSON.parse(text) as { writer: Record<string, unknown> };
  if (typeof json.writer.gcp_service_account_json === 'string')
    json.writer.gcp_service_account_json = SERVICE_ACCOUNT;
  return json;
}

describe("OLake's documented destination files", () => {
  it('are all here, one per flavour at least', () => {
    const flavours = new Set(documented.map((f) => f.replace(/(-.*)?\.json$/, '')));
    expect([...flavours].sort()).toEqual(
      expect.arrayContaining(['biglake', 'generic', 'lakekeeper', 'nessie', 'polaris', 's3tables', 'unity']),
    );
  });

  // OLake's README example has no aws_region, which its spec requires for `rest` and without which
  // Iceberg's S3 client fails unless AWS_REGION is set (docs: troubleshoot.mdx): floe names it.
  it('generic-readme.json (no aws_region) is refused, naming Region', () => {
    const result = validate(fromDestinationJson(filledIn('generic-readme.json')).values);
    expect(result.ok ? [] : result.issues.map((i) => i.message)).toEqual([
      'Region: is required (e.g. us-east-1)',
    ]);
  });

  it.each(documented.filter((f) => f !== 'generic-readme.json'))(
    '%s imports, validates and exports back with the same meaning',
    (file) => {
      const original = filledIn(file);
      const imported = fromDestinationJson(original);
      const result = validate(imported.values);
      expect(result.ok ? [] : result.issues.map((i) => i.message)).toEqual([]);
      if (!result.ok) return;
      const again = toDestinationJson(result.values).writer;
      const w = original.writer;
      const flavour = (type: unknown) =>
        typeof type === 'string' && type !== 'rest' ? type : (again.catalog_type as string);
      expect(again.catalog_type).toBe(flavour(w.catalog_type));
      for (const key of ['rest_catalog_url', 'iceberg_s3_path', 'token', 'credential', 'oauth2_uri', 'scope'])
        if (typeof w[key] === 'string' && w[key] !== '') expect(again[key], key).toBe(w[key]);
      for (const [alias, key] of Object.entries({
        rest_auth_uri: 'oauth2_uri',
        rest_credential: 'credential',
        rest_scope: 'scope',
      }))
        if (typeof w[alias] === 'string') expect(again[key], alias).toBe(w[alias]);
      for (const key of ['aws_region', 's3_endpoint', 'aws_access_key', 'aws_secret_key', 'iceberg_db'])
        if (typeof w[key] === 'string' && w[key] !== '') expect(again[key], key).toBe(w[key]);
      if (again.catalog_type === 'unity') expect(again.no_identifier_fields).toBe(true);
      if (again.catalog_type === 's3tables') expect(again).toMatchObject({ rest_signing_name: 's3tables' });
      const dropped = imported.ignored.map((i) => i.key);
      const aliases = ['rest_auth_uri', 'rest_credential', 'rest_scope'];
      for (const key of Object.keys(w))
        if (!(key in again) && w[key] !== '' && key !== 'rest_auth_type' && !aliases.includes(key))
          expect(dropped, `${key} is reported`).toContain(key);
    },
  );
});
