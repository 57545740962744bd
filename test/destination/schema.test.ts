import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUTH_TYPES,
  type AuthType,
  applicableFields,
  emptyValues,
  splitCredential,
  type Values,
} from '../../src/destination/fields.js';
import { validate, validateField } from '../../src/destination/schema.js';

const SA = JSON.stringify({
  type: 'service_account',
  client_email: 'olake@proj.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
});

function complete(authType: AuthType): Values {
  const v = emptyValues(authType);
  v.fields = { catalogUrl: 'http://localhost:8181', warehouse: 's3://warehouse', region: 'us-east-1' };
  if (authType === 'token') v.fields.token = 'tok-123';
  if (authType === 'oauth2')
    Object.assign(v.fields, { oauth2Uri: 'http://idp/token', credential: 'id:secret', scope: 'catalog' });
  if (authType === 'sigv4') Object.assign(v.fields, { signingName: 'glue', signingRegion: 'us-east-1' });
  if (authType === 'google') v.fields.gcpServiceAccountJson = SA;
  return v;
}

const REQUIRED: Record<AuthType, string[]> = {
  none: ['catalogUrl', 'warehouse', 'region'],
  token: ['catalogUrl', 'warehouse', 'region', 'token'],
  oauth2: ['catalogUrl', 'warehouse', 'region', 'oauth2Uri', 'credential'],
  sigv4: ['catalogUrl', 'warehouse', 'region', 'signingName', 'signingRegion'],
  google: ['catalogUrl', 'warehouse', 'region', 'gcpServiceAccountJson'],
};

describe('required fields per authentication type', () => {
  it.each(AUTH_TYPES)('%s: an empty form names exactly its required fields', (authType) => {
    const result = validate(emptyValues(authType));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.field).sort()).toEqual([...REQUIRED[authType]].sort());
    for (const issue of result.issues) expect(issue.message).toMatch(/^.+: is required \(e\.g\. .+\)$/);
  });

  it.each(AUTH_TYPES)('%s: a complete form passes and drops fields of other types', (authType) => {
    const v = complete(authType);
    v.fields.token = authType === 'token' ? 'tok-123' : 'left-over';
    const result = validate(v);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.values.fields.sigv4).toBe(authType === 'sigv4');
    if (authType !== 'token') expect(result.values.fields.token).toBeUndefined();
  });

  it('S3-compatible storage requires the S3 Endpoint; AWS does not', () => {
    const v = complete('none');
    expect(validate(v).ok).toBe(true);
    v.storage = 's3-compatible';
    const result = validate(v);
    expect(result.ok ? [] : result.issues.map((i) => i.field)).toEqual(['s3Endpoint']);
    v.fields.s3Endpoint = 'http://minio:9000';
    expect(validate(v).ok).toBe(true);
  });

  it('Access Key and Secret Key: both or neither', () => {
    const v = complete('none');
    v.fields.accessKey = 'AKIA1';
    const one = validate(v);
    expect(one.ok ? '' : one.issues[0]?.message).toMatch(/Secret Key: is required when the other key is set/);
    v.fields.secretKey = 'shh';
    expect(validate(v).ok).toBe(true);
    delete v.fields.accessKey;
    expect(validate(v).ok).toBe(false);
  });

  it('hides Catalog Name below OLake 0.3.5 and drops its value', () => {
    const v = complete('none');
    v.fields.catalogName = 'Bad Name';
    v.targetVersion = '0.3.4';
    expect(applicableFields(v).map((f) => f.id)).not.toContain('catalogName');
    const result = validate(v);
    expect(result.ok && result.values.fields.catalogName).toBe(undefined);
    v.targetVersion = '0.3.5';
    expect(validate(v).ok).toBe(false);
  });

  it('rejects an unknown authentication type with the allowed ones', () => {
    const result = validate({ ...complete('none'), authType: 'basic' as AuthType });
    expect(result.ok ? '' : result.issues[0]?.message).toMatch(
      /Authentication Type: must be one of none, token/,
    );
  });
});

describe('field rules (properties)', () => {
  const nameOf = (catalogName: string) => ({
    ...complete('none'),
    fields: { ...complete('none').fields, catalogName },
  });

  it('accepts every ^[a-z_]+$ catalog name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,40}$/), (name) => {
        expect(validateField(nameOf(name), 'catalogName')).toBeNull();
      }),
    );
  });

  it('rejects every other catalog name, naming the rule and a valid example', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => !/^[a-z_]+$/.test(s.trim()) && s.trim() !== ''),
        (name) => {
          const issue = validateField(nameOf(name), 'catalogName');
          expect(issue?.message).toBe(
            'Catalog Name: only lowercase letters a–z and underscores (_) are allowed (e.g. olake_iceberg)',
          );
        },
      ),
    );
  });

  it('splits a credential on the first colon only', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/),
        fc.string({ minLength: 1 }).filter((s) => s.trim() === s && s !== ''),
        (id, secret) => {
          expect(splitCredential(`${id}:${secret}`)).toEqual({ clientId: id, clientSecret: secret });
        },
      ),
    );
    expect(splitCredential('only-secret')).toEqual({ clientSecret: 'only-secret' });
  });

  it('REST Credential: id:secret or, as Iceberg allows, a bare secret; never an empty secret', () => {
    const v = complete('oauth2');
    for (const bad of ['id:', 'other-id:']) {
      v.fields.credential = bad;
      expect(validateField(v, 'credential')?.message).toMatch(
        /^REST Credential: must .+ \(e\.g\. olake-client:s3cr3t\)$/,
      );
    }
    for (const good of ['id:sec:with:colons', 'bare-secret', ':secret', 'id:a secret with spaces']) {
      v.fields.credential = good;
      expect(validateField(v, 'credential'), good).toBeNull();
    }
  });

  it('accepts http(s) catalog URLs with ports and base paths, rejects the rest', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.domain(),
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        fc.array(fc.stringMatching(/^[a-z0-9_-]{1,10}$/), { maxLength: 3 }),
        (scheme, host, port, segments) => {
          const url = `${scheme}://${host}${port ? `:${port}` : ''}${segments.map((s) => `/${s}`).join('')}`;
          const v = complete('none');
          v.fields.catalogUrl = url;
          expect(validateField(v, 'catalogUrl')).toBeNull();
        },
      ),
    );
    for (const bad of ['localhost:8181', 'ftp://host', 'http://host/p?x=1', 'http://u:p@host', 'not a url']) {
      const v = complete('none');
      v.fields.catalogUrl = bad;
      expect(validateField(v, 'catalogUrl')?.message, bad).toMatch(
        /^REST Catalog URL: .+ \(e\.g\. http:\/\/localhost:8181\)$/,
      );
    }
  });

  it('Data Location accepts s3://bucket[/prefix], rejects the rest', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{1,20}[a-z0-9]$/),
        fc.array(fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/), { maxLength: 3 }),
        (bucket, prefix) => {
          const v = complete('none');
          v.fields.dataLocation = `s3://${bucket}${prefix.map((p) => `/${p}`).join('')}`;
          expect(validateField(v, 'dataLocation')).toBeNull();
          v.fields.warehouse = v.fields.dataLocation;
          expect(validateField(v, 'warehouse')).toBeNull();
        },
      ),
    );
    for (const bad of [
      'warehouse',
      's3://',
      's3://ab',
      's3://Upper/x',
      'gs://bucket',
      's3://bucket with space',
    ]) {
      const v = complete('none');
      v.fields.dataLocation = bad;
      expect(validateField(v, 'dataLocation')?.message, bad).toMatch(
        /^Data Location: must be s3:\/\/bucket\[\/prefix\] .+ \(e\.g\. s3:\/\/warehouse\/olake\)$/,
      );
    }
  });

  it('a generic Warehouse is a name or a valid s3:// location', () => {
    const v = complete('none');
    for (const good of ['warehouse', 'olake_catalog', 's3://lake/olake', 'project-uuid/demo']) {
      v.fields.warehouse = good;
      expect(validateField(v, 'warehouse'), good).toBeNull();
    }
    for (const bad of ['s3://ab', 'two words']) {
      v.fields.warehouse = bad;
      expect(validateField(v, 'warehouse')?.message, bad).toMatch(
        /^Warehouse: must .+ \(e\.g\. s3:\/\/warehouse\)$/,
      );
    }
  });

  it('no text field takes control characters or bidi overrides; the JSON key may span lines', () => {
    for (const [bad, rule] of [
      ['http://host\x1b]0;pwned\x07', 'U+001B at position 12'],
      ['http://host/\x9b2J', 'U+009B at position 13'],
      ['http://ho\u202est', 'U+202E at position 10'],
    ]) {
      const v = complete('none');
      v.fields.catalogUrl = bad;
      expect(validateField(v, 'catalogUrl')?.rule).toBe(`must not contain control characters: ${rule}`);
    }
    const t = complete('token');
    t.fields.token = 'tok\x1b[2Jen';
    expect(validateField(t, 'token')?.field).toBe('token');
    const g = complete('google');
    g.fields.gcpServiceAccountJson = SA.replace('{', '{\n  ');
    expect(validateField(g, 'gcpServiceAccountJson')).toBeNull();
    g.fields.gcpServiceAccountJson = SA.replace('{', '{\x1b[2J');
    expect(validateField(g, 'gcpServiceAccountJson')?.rule).toMatch(/control characters/);
  });

  it('Google service-account JSON needs client_email and private_key', () => {
    const v = complete('google');
    v.fields.gcpServiceAccountJson = '{"client_email":"a@b"}';
    expect(validateField(v, 'gcpServiceAccountJson')?.rule).toBe('must contain a PEM "private_key"');
    v.fields.gcpServiceAccountJson = 'not json';
    expect(validateField(v, 'gcpServiceAccountJson')?.rule).toBe(
      'must be the JSON of a service-account key file',
    );
  });
});
