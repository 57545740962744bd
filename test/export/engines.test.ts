import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Values } from '../../src/destination/fields.js';
import { validate } from '../../src/destination/schema.js';
import {
  ENGINE_FORMATS,
  type EngineFormat,
  pyicebergEnvCatalog,
  renderEngine,
  UnsupportedError,
} from '../../src/export/engines.js';
import { ENGINES, KNOWN_PROPERTIES, ROWS } from '../../src/export/table.js';
import { sample } from '../fixtures/samples.js';
import { cases, EXT } from './cases.js';

const SECRETS = [
  'minioadmin',
  'minio-secret',
  'dapi-sentinel-token',
  's3cr3t',
  'olake-client',
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrX',
  'PRIVATE KEY',
];

function valid(values: Values): Values {
  const r = validate(values);
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('; '));
  return r.values;
}

const golden = (format: EngineFormat, id: string, secrets: boolean) =>
  readFileSync(
    new URL(
      `../fixtures/engines/${format}/${id}${secrets ? '.secrets' : ''}.${EXT[format]}`,
      import.meta.url,
    ),
    'utf8',
  );

/** Where an engine cannot express the profile (checked separately below). */
const CANNOT = new Set(['pyiceberg-env/google', 'duckdb/google']);

describe('engine exports match their golden files', () => {
  for (const format of ENGINE_FORMATS)
    for (const [id, values] of cases()) {
      if (CANNOT.has(`${format}/${id}`)) continue;
      it(`${format} × ${id}`, () => {
        const v = valid(values);
        expect(renderEngine(format, v, { includeSecrets: false }).text).toBe(golden(format, id, false));
        expect(renderEngine(format, v, { includeSecrets: true }).text).toBe(golden(format, id, true));
      });
    }
});

describe('what an engine cannot express fails, saying why', () => {
  it('DuckDB has no Google service-account sign-in', () => {
    expect(() => renderEngine('duckdb', valid(sample('google')), { includeSecrets: true })).toThrow(
      /DuckDB cannot sign in with a Google service-account key/,
    );
  });

  it('PYICEBERG_… variables cannot carry the nested auth: block', () => {
    expect(() => renderEngine('pyiceberg-env', valid(sample('google')), { includeSecrets: false })).toThrow(
      /only as a nested block of \.pyiceberg\.yaml.*--format pyiceberg/,
    );
  });

  it('Trino and DuckDB sign with the storage region, so a different signing region is refused', () => {
    const v = sample('sigv4');
    v.fields.signingRegion = 'eu-west-1';
    for (const format of ['trino', 'duckdb'] as const)
      expect(() => renderEngine(format, valid(v), { includeSecrets: false })).toThrow(UnsupportedError);
    expect(renderEngine('spark', valid(v), { includeSecrets: false }).text).toContain(
      'rest.signing-region=eu-west-1',
    );
  });

  it('DuckDB refuses a signing name it cannot set (only Glue and S3 Tables)', () => {
    const v = sample('sigv4');
    v.fields.signingName = 'execute-api';
    expect(() => renderEngine('duckdb', valid(v), { includeSecrets: false })).toThrow(
      /no signing-name setting/,
    );
  });
});

describe('secrets', () => {
  it('are never written without --include-secrets, in any format', () => {
    for (const format of ENGINE_FORMATS)
      for (const [id, values] of cases()) {
        if (CANNOT.has(`${format}/${id}`)) continue;
        const out = renderEngine(format, valid(values), { includeSecrets: false });
        for (const secret of SECRETS) expect(out.text, `${format}/${id}`).not.toContain(secret);
      }
  });

  it('are written with --include-secrets', () => {
    expect(renderEngine('spark', valid(sample('oauth2')), { includeSecrets: true }).text).toContain(
      '.credential=olake-client:s3cr3t:with:colons',
    );
    const duck = renderEngine('duckdb', valid(sample('oauth2')), { includeSecrets: true }).text;
    expect(duck).toContain("CLIENT_ID 'olake-client', CLIENT_SECRET 's3cr3t:with:colons'");
  });

  it('Trino reads them from the server environment, and floe says which variables to set', () => {
    const out = renderEngine('trino', valid(sample('oauth2')), { includeSecrets: false });
    expect(out.text).toContain(`iceberg.rest-catalog.oauth2.credential=\${ENV:FLOE_CREDENTIAL}`);
    expect(out.text).toContain(`s3.aws-secret-key=\${ENV:FLOE_SECRET_KEY}`);
    expect(out.notes.join('\n')).toContain(
      "Set FLOE_CREDENTIAL, FLOE_ACCESS_KEY, FLOE_SECRET_KEY in the Trino server's environment",
    );
  });

  it('placeholders are named in the notes, with the field they stand for', () => {
    const out = renderEngine('duckdb', valid(sample('oauth2')), { includeSecrets: false });
    expect(out.notes).toContain(
      "Replace <FLOE_CREDENTIAL client_secret> with the REST Credential (floe reads it from FLOE_CREDENTIAL or the profile's storage).",
    );
    expect(renderEngine('duckdb', valid(sample('oauth2')), { includeSecrets: true }).notes).toEqual([]);
  });

  it('a Google key file is always a path to fill in', () => {
    const out = renderEngine('spark', valid(sample('google')), { includeSecrets: true });
    expect(out.text).toContain('gcp.auth.credentials-path=<path of the service-account key file>');
    expect(out.notes.join('\n')).toMatch(/Save the service-account key/);
  });
});

/** pyiceberg's own reading of PYICEBERG_… variables (pyiceberg/utils/config.py). */
function pyicebergFromEnv(env: Record<string, string>): Record<string, unknown> {
  const config: Record<string, Record<string, Record<string, string>>> = {};
  for (const [name, value] of Object.entries(env)) {
    const lower = name.toLowerCase();
    if (!lower.startsWith('pyiceberg_')) continue;
    const key = lower.slice('pyiceberg_'.length);
    const first = key.indexOf('__');
    const second = key.indexOf('__', first + 2);
    const parts = [key.slice(0, first), key.slice(first + 2, second), key.slice(second + 2)].map((p) =>
      p.replaceAll('__', '.').replaceAll('_', '-'),
    );
    const [section, catalog, property] = parts as [string, string, string];
    config[section] ??= {};
    config[section][catalog] ??= {};
    config[section][catalog][property] = value;
  }
  return config;
}

describe('pyiceberg', () => {
  it('the YAML parses and has exactly keys pyiceberg reads', () => {
    for (const [id, values] of cases()) {
      const doc = parse(renderEngine('pyiceberg', valid(values), { includeSecrets: true }).text);
      expect(Object.keys(doc)).toEqual(['catalog']);
      const [name, catalog] = Object.entries(doc.catalog)[0] as [string, Record<string, unknown>];
      expect(name).toMatch(/^[a-z_]+$/);
      const keys: string[] = [];
      const walk = (o: Record<string, unknown>, prefix: string) => {
        for (const [k, v] of Object.entries(o))
          if (v && typeof v === 'object' && !Array.isArray(v))
            walk(v as Record<string, unknown>, `${prefix}${k}/`);
          else keys.push(`${prefix}${k}`);
      };
      walk(catalog, '');
      for (const key of keys) expect(KNOWN_PROPERTIES.pyiceberg, `${id}: ${key}`).toContain(key);
      expect(catalog.type).toBe('rest');
      expect(catalog.uri).toBe(values.fields.catalogUrl);
    }
  });

  it('the variables give pyiceberg the same catalog as the YAML', () => {
    for (const [id, values] of cases()) {
      if (id === 'google') continue;
      const v = valid(values);
      const env: Record<string, string> = {};
      for (const line of renderEngine('pyiceberg-env', v, { includeSecrets: true }).text.split('\n')) {
        const m = /^export (\w+)='(.*)'$/.exec(line);
        if (m) env[m[1]!] = m[2]!.replaceAll(`'\\''`, "'");
      }
      const yaml = parse(renderEngine('pyiceberg', v, { includeSecrets: true }).text);
      const [name, catalog] = Object.entries(yaml.catalog)[0] as [string, Record<string, unknown>];
      // Variable names are read lowercased; only header names (case-insensitive in HTTP) have capitals.
      const lowered = Object.fromEntries(
        Object.entries(catalog).map(([k, value]) => [k.toLowerCase(), value]),
      );
      expect(pyicebergFromEnv(env), id).toEqual({ catalog: { [pyicebergEnvCatalog(name)]: lowered } });
    }
  });
});

/** The keys of a properties file (Spark's relative to spark.sql.catalog.<name>). */
function propertyKeys(text: string, strip?: string): string[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.slice(0, line.indexOf('=')))
    .map((key) => (strip && key.startsWith(strip) ? key.slice(strip.length).replace(/^\./, '') : key));
}

describe('every Spark and Trino key is a known property name', () => {
  it('in the table', () => {
    for (const engine of ENGINES)
      for (const row of ROWS) {
        const target = row.engines[engine];
        if (target === undefined || (typeof target === 'object' && 'unsupported' in target)) continue;
        const key = typeof target === 'string' ? target : target.key;
        expect(KNOWN_PROPERTIES[engine], `${engine}: ${row.what}`).toContain(key);
      }
  });

  it('in every rendered file', () => {
    for (const [id, values] of cases()) {
      const v = valid(values);
      const name = typeof v.fields.catalogName === 'string' ? v.fields.catalogName : 'olake_iceberg';
      const spark = renderEngine('spark', v, { includeSecrets: false }).text;
      for (const key of propertyKeys(spark, `spark.sql.catalog.${name}`))
        expect(KNOWN_PROPERTIES.spark, `${id}: ${key}`).toContain(key);
      for (const key of propertyKeys(renderEngine('trino', v, { includeSecrets: false }).text))
        expect(KNOWN_PROPERTIES.trino, `${id}: ${key}`).toContain(key);
    }
  });
});

it('Spark and Trino values are escaped as java.util.Properties reads them', () => {
  const v = sample('token');
  v.fields.token = 'a\\b';
  expect(renderEngine('spark', valid(v), { includeSecrets: true }).text).toContain('.token=a\\\\b\n');
  expect(renderEngine('trino', valid(v), { includeSecrets: true }).text).toContain('oauth2.token=a\\\\b\n');
  const q = sample('token');
  q.fields.token = "it's";
  expect(renderEngine('duckdb', valid(q), { includeSecrets: true }).text).toContain("TOKEN 'it''s'");
});

it('the README shows each engine as floe writes it', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## Reading the tables from other engines');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 3));
  const blocks = [...section.matchAll(/```\w+\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const sources: [EngineFormat, string][] = [
    ['pyiceberg', 'oauth2'],
    ['spark', 'glue'],
    ['trino', 'token'],
    ['duckdb', 'none'],
  ];
  expect(blocks).toHaveLength(sources.length);
  sources.forEach(([format, id], i) => {
    expect(golden(format, id, false), `${format} example`).toContain(blocks[i]);
  });
});

describe('the PYICEBERG_… file, sourced by sh', () => {
  const source = (text: string, env: Record<string, string>) => {
    const file = join(mkdtempSync(join(tmpdir(), 'floe-env-')), 'pyiceberg.env');
    writeFileSync(file, text);
    return spawnSync('sh', ['-c', `. "${file}" && env`], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      encoding: 'utf8',
    });
  };

  it('takes the secrets from the shell, and stops naming the one that is unset', () => {
    const { text } = renderEngine('pyiceberg-env', valid(sample('token')), { includeSecrets: false });
    const ok = source(text, { FLOE_TOKEN: "tok'en $x" });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("PYICEBERG_CATALOG__LAKE_PROD__TOKEN=tok'en $x\n");
    expect(ok.stdout).toContain('PYICEBERG_CATALOG__LAKE_PROD__URI=http://localhost:8181/api/catalog\n');
    const unset = source(text, {});
    expect(unset.status).not.toBe(0);
    expect(unset.stderr).toContain('set FLOE_TOKEN first');
  });

  it('carries values with quotes unchanged', () => {
    const v = sample('token');
    v.fields.token = `it's"quoted"$HOME\\`;
    const { text } = renderEngine('pyiceberg-env', valid(v), { includeSecrets: true });
    const r = source(text, {});
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`PYICEBERG_CATALOG__LAKE_PROD__TOKEN=it's"quoted"$HOME\\\n`);
  });
});
