import { describe, expect, it } from 'vitest';
import { valuesFromFlags } from '../../src/app/destination-flags.js';
import { emptyValues, type Values } from '../../src/destination/fields.js';
import { fillFromPreset, PRESET_IDS, PRESETS, type PresetId } from '../../src/destination/presets.js';
import { normalize, validate, validateField } from '../../src/destination/schema.js';

/** A preset's values with everything filled that it needs, built the way a user would get them. */
function complete(preset: PresetId): Values {
  const base = fillFromPreset({ ...emptyValues(), preset });
  const fields: Values['fields'] = {
    catalogUrl: 'http://localhost:8181/api/catalog',
    warehouse: PRESETS[preset].warehouse.example,
    region: 'us-east-1',
    token: 'tok-123',
    oauth2Uri: 'http://localhost:8181/api/catalog/v1/oauth/tokens',
    credential: 'id:secret',
    signingName: PRESETS[preset].forced?.signingName ?? 'glue',
    signingRegion: 'us-east-1',
    gcpServiceAccountJson: JSON.stringify({
      client_email: 'olake@proj.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
    }),
    s3Endpoint: 'http://localhost:9000',
  };
  return { ...base, fields: { ...base.fields, ...fields } };
}

describe('catalog presets', () => {
  it.each(PRESET_IDS)('%s: its own example values pass validation', (preset) => {
    const result = validate(complete(preset));
    expect(result.ok ? [] : result.issues.map((i) => i.message)).toEqual([]);
  });

  it('Region is required only where OLake’s spec requires aws_region', () => {
    const required = PRESET_IDS.filter((p) => {
      const v = complete(p);
      delete v.fields.region;
      return validateField(v, 'region') !== null;
    });
    expect(required.sort()).toEqual(['glue', 'nessie', 'open-catalog', 'polaris', 'r2', 'rest', 's3tables']);
  });

  it('each Warehouse has its catalog’s label, rule and example', () => {
    const cases: [PresetId, string, string, RegExp][] = [
      ['polaris', 'olake_catalog', 'two words', /^Polaris Catalog Name: must .+ \(e\.g\. olake_catalog\)$/],
      ['lakekeeper', '0190b1d2-7d0e-7a13-9c2f-5b6e8f7a9c00/demo', 'a b', /^Lakekeeper Warehouse: /],
      ['unity', 'main', 'my catalog', /^Unity Catalog Name: /],
      [
        'glue',
        '123456789012:s3tablescatalog/lake',
        'lake',
        /^Glue Catalog ID: must be a 12-digit AWS account id/,
      ],
      [
        's3tables',
        'arn:aws:s3tables:eu-west-1:123456789012:bucket/olake-lake',
        's3://olake-lake',
        /^S3 Table Bucket ARN: must be a table bucket ARN/,
      ],
      ['biglake', 'bq://projects/my-project-1', 's3://lake', /^BigLake Catalog Path: must be gs:\/\//],
      ['r2', '0123456789abcdef0123456789abcdef_lake', 'lake', /^R2 Warehouse: must be <account-id>_<bucket>/],
    ];
    for (const [preset, good, bad, message] of cases) {
      const v = complete(preset);
      v.fields.warehouse = good;
      expect(validateField(v, 'warehouse'), `${preset} ${good}`).toBeNull();
      v.fields.warehouse = bad;
      expect(validateField(v, 'warehouse')?.message, `${preset} ${bad}`).toMatch(message);
    }
  });

  it('offers only the authentication types the catalog has', () => {
    const v = complete('polaris');
    v.authType = 'sigv4';
    const result = validate(v);
    expect(result.ok ? '' : result.issues[0]?.message).toBe(
      'Authentication Type: must be one of oauth2, token for Apache Polaris (e.g. oauth2)',
    );
    expect(fillFromPreset({ ...emptyValues('token'), preset: 's3tables' }).authType).toBe('sigv4');
  });

  it('what OLake forces for a flavour is set, and a contradicting value is named', () => {
    const unity = complete('unity');
    expect(unity.fields.noIdentifierFields).toBe(true);
    unity.fields.noIdentifierFields = false;
    expect(validateField(unity, 'noIdentifierFields')?.message).toMatch(
      /^Disable Identifier Tables: must be on for Databricks Unity Catalog \(OLake forces it\)/,
    );
    const tables = complete('s3tables');
    delete tables.fields.signingName;
    expect(validate(tables).ok).toBe(true);
    expect(normalize(tables).fields.signingName).toBe('s3tables');
    tables.fields.signingName = 'glue';
    expect(validateField(tables, 'signingName')?.rule).toBe(
      'must be s3tables for Amazon S3 Tables (OLake forces it)',
    );
  });

  it('Google authentication needs OLake 0.9.0 or later', () => {
    const v = complete('biglake');
    v.targetVersion = '0.8.3';
    const result = validate(v);
    expect(result.ok ? '' : result.issues[0]?.message).toBe(
      'Target OLake Version: must be 0.9.0 or later for Google authentication (or latest) (e.g. 0.9.4)',
    );
    v.targetVersion = '0.9.0';
    expect(validate(v).ok).toBe(true);
  });
});

describe('suggested and derived values', () => {
  it('Polaris: the scope is suggested and the token URL follows the catalog URL until typed over', () => {
    let v = fillFromPreset({ ...emptyValues(), preset: 'polaris' });
    expect(v.authType).toBe('oauth2');
    expect(v.fields.scope).toBe('PRINCIPAL_ROLE:ALL');
    const edit = (values: Values, fields: Values['fields']) =>
      fillFromPreset({ ...values, fields: { ...values.fields, ...fields } }, values);
    v = edit(v, { catalogUrl: 'http://polaris:8181/api/catalog' });
    expect(v.fields.oauth2Uri).toBe('http://polaris:8181/api/catalog/v1/oauth/tokens');
    v = edit(v, { catalogUrl: 'https://polaris.example.com/api/catalog/' });
    expect(v.fields.oauth2Uri).toBe('https://polaris.example.com/api/catalog/v1/oauth/tokens');
    v = edit(v, { oauth2Uri: 'https://idp.example.com/token' });
    v = edit(v, { catalogUrl: 'https://other.example.com/api/catalog' });
    expect(v.fields.oauth2Uri).toBe('https://idp.example.com/token');
  });

  it('R2: warehouse, endpoint, data location and region come from the catalog URL', () => {
    const before = fillFromPreset({ ...emptyValues(), preset: 'r2' });
    const account = '0123456789abcdef0123456789abcdef';
    const v = fillFromPreset(
      {
        ...before,
        fields: { ...before.fields, catalogUrl: `https://catalog.cloudflarestorage.com/${account}/lake` },
      },
      before,
    );
    expect(v).toMatchObject({
      authType: 'token',
      storage: 's3-compatible',
      fields: {
        region: 'auto',
        warehouse: `${account}_lake`,
        s3Endpoint: `https://${account}.r2.cloudflarestorage.com`,
        dataLocation: 's3://lake',
      },
    });
  });

  it('flags: --preset fills the same, a given field implies its auth type, --s3-path is the old name of --warehouse', async () => {
    const v = await valuesFromFlags(
      {
        preset: 'glue',
        'catalog-url': 'https://glue.eu-west-1.amazonaws.com/iceberg',
        's3-path': '123456789012',
      },
      emptyValues(),
      {},
    );
    expect(v).toMatchObject({
      preset: 'glue',
      authType: 'sigv4',
      fields: {
        warehouse: '123456789012',
        signingName: 'glue',
        signingRegion: 'eu-west-1',
        region: 'eu-west-1',
      },
    });
    await expect(valuesFromFlags({ warehouse: 'a', 's3-path': 'b' }, emptyValues(), {})).rejects.toThrow(
      '--s3-path is another name for --warehouse: give one of them',
    );
    expect(
      (await valuesFromFlags({ preset: 'lakekeeper', 'oauth2-uri': 'http://idp/token' }, emptyValues(), {}))
        .authType,
    ).toBe('oauth2');
    expect((await valuesFromFlags({ 'signing-name': 'glue' }, emptyValues(), {})).authType).toBe('sigv4');
    expect(
      (await valuesFromFlags({ 'signing-name': 'glue', 'oauth2-uri': 'http://idp/token' }, emptyValues(), {}))
        .authType,
    ).toBe('none');
    expect(
      (await valuesFromFlags({ preset: 'polaris', 'signing-name': 'glue' }, emptyValues(), {})).authType,
    ).toBe('oauth2');
    await expect(valuesFromFlags({ preset: 'hive' }, emptyValues(), {})).rejects.toThrow(
      /--preset: "hive" is not one of rest, polaris/,
    );
  });
});
