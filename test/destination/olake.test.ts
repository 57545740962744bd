import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUTH_TYPES } from '../../src/destination/fields.js';
import {
  fromDestinationJson,
  ImportError,
  REDACTED,
  serializeDestination,
  toDestinationJson,
} from '../../src/destination/olake.js';
import { validate } from '../../src/destination/schema.js';
import { sample } from '../fixtures/samples.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

describe('destination.json export', () => {
  it.each(AUTH_TYPES)('%s matches its golden file', (authType) => {
    const result = validate(sample(authType));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(serializeDestination(toDestinationJson(result.values))).toBe(fixture(`golden/${authType}.json`));
  });

  it('exports a bearer token as rest_auth_type "oauth2" with the token (Iceberg\'s "none" drops tokens)', () => {
    const { writer } = toDestinationJson(sample('token'));
    expect(writer).toMatchObject({
      catalog_type: 'rest',
      rest_auth_type: 'oauth2',
      token: 'dapi-sentinel-token',
    });
    expect(writer.credential).toBeUndefined();
  });

  it('uses rest_signing_v_4 (not rest_signing_v4), always written', () => {
    expect(toDestinationJson(sample('sigv4')).writer.rest_signing_v_4).toBe(true);
    expect(toDestinationJson(sample('none')).writer.rest_signing_v_4).toBe(false);
    expect(JSON.stringify(toDestinationJson(sample('sigv4')))).not.toContain('rest_signing_v4');
  });

  it('--redact replaces every secret and nothing else', () => {
    for (const authType of AUTH_TYPES) {
      const text = serializeDestination(toDestinationJson(sample(authType), { redact: true }));
      for (const secret of [
        'minio-secret',
        'dapi-sentinel-token',
        's3cr3t',
        'wJalrX',
        'BEGIN PRIVATE',
        'minioadmin',
      ])
        expect(text).not.toContain(secret);
      expect(text).toContain(String(sample(authType).fields.catalogUrl));
    }
    expect(toDestinationJson(sample('oauth2'), { redact: true }).writer.credential).toBe(REDACTED);
  });
});

describe('destination.json import', () => {
  it.each(AUTH_TYPES)('%s round-trips through export and import', (authType) => {
    const result = validate(sample(authType));
    if (!result.ok) throw new Error('sample invalid');
    const imported = fromDestinationJson(JSON.parse(serializeDestination(toDestinationJson(result.values))));
    expect(imported.ignored).toEqual([]);
    const again = validate(imported.values);
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(toDestinationJson(again.values)).toEqual(toDestinationJson(result.values));
    expect(again.values.authType).toBe(authType);
  });

  it('reads the older form: free-text auth type, iceberg_db, writer-level normalization', () => {
    const imported = fromDestinationJson(JSON.parse(fixture('import/older-form.json')));
    expect(imported.values.authType).toBe('oauth2');
    expect(imported.values.storage).toBe('s3-compatible');
    expect(imported.ignored.map((i) => i.key)).toEqual(['normalization']);
    expect(imported.values.fields.icebergDb).toBe(
      JSON.parse(fixture('import/older-form.json')).writer.iceberg_db,
    );
    expect(imported.ignored.find((i) => i.key === 'normalization')?.why).toMatch(/per-stream/);
    expect(imported.notes.join('\n')).toMatch(/"OAuth2"/);
    expect(validate(imported.values).ok).toBe(true);
  });

  it('reads the docs example (no rest_auth_type, s3 endpoint, keys)', () => {
    const imported = fromDestinationJson(JSON.parse(fixture('import/docs-example.json')));
    expect(imported.values.authType).toBe('none');
    expect(imported.values.fields).toMatchObject({
      accessKey: 'admin',
      secretKey: 'password',
      s3Endpoint: 'http://localhost:9090',
    });
  });

  it('infers token auth from an "oauth2" type with a token and no credential, and sigv4 from rest_signing_v_4', () => {
    const w = {
      catalog_type: 'rest',
      rest_catalog_url: 'http://c',
      iceberg_s3_path: 's3://b',
      aws_region: 'r',
    };
    expect(
      fromDestinationJson({ type: 'ICEBERG', writer: { ...w, rest_auth_type: 'oauth2', token: 't' } }).values
        .authType,
    ).toBe('token');
    expect(
      fromDestinationJson({ type: 'ICEBERG', writer: { ...w, rest_signing_v_4: true } }).values.authType,
    ).toBe('sigv4');
    expect(
      fromDestinationJson({
        type: 'ICEBERG',
        writer: { ...w, rest_auth_type: 'org.apache.iceberg.gcp.auth.GoogleAuthManager' },
      }).values.authType,
    ).toBe('google');
  });

  it('rejects non-REST catalogs and malformed files with the reason', () => {
    expect(() => fromDestinationJson({ type: 'ICEBERG', writer: { catalog_type: 'glue' } })).toThrow(
      /only REST catalogs/,
    );
    expect(() => fromDestinationJson({ type: 'PARQUET', writer: {} })).toThrow(ImportError);
    expect(() => fromDestinationJson({ writer: 'x' })).toThrow(/"writer" object is missing/);
    expect(() =>
      fromDestinationJson({ type: 'ICEBERG', writer: { catalog_type: 'rest', arrow_writes: 'yes' } }),
    ).toThrow(/arrow_writes must be true or false/);
  });
});
