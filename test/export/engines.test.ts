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
  ENGINE_OF,
  type EngineFormat,
  pyicebergEnvCatalog,
  renderEngine,
  selectProperties,
  UnsupportedError,
} from '../../src/export/engines.js';
import { compareReleases, ENGINES } from '../../src/export/table.js';
import { loadYaml } from '../../src/stack/yaml.js';
import { sample } from '../fixtures/samples.js';
import { cases, EXT, goldenName, RELEASES } from './cases.js';
import { ENGINE_PROPERTIES, knownProperties } from './engine-properties.js';

await loadYaml();

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

const UPDATE = process.env.UPDATE_GOLDEN === '1';

const goldenUrl = (format: EngineFormat, name: string, suffix: string) =>
  new URL(`../fixtures/engines/${format}/${name}${suffix}`, import.meta.url);

const golden = (format: EngineFormat, id: string, secrets: boolean, release = RELEASES[format][0]!) =>
  readFileSync(
    goldenUrl(format, goldenName(format, id, release), `${secrets ? '.secrets' : ''}.${EXT[format]}`),
    'utf8',
  );

/** The rendered file, or the refusal's message (kept as `<case>.refused.txt`). */
function renderOrRefuse(format: EngineFormat, v: Values, includeSecrets: boolean, release: string) {
  try {
    return { text: renderEngine(format, v, { includeSecrets, engineVersion: release }).text };
  } catch (error) {
    if (error instanceof UnsupportedError) return { refused: `${error.message}\n` };
    throw error;
  }
}

function matchGolden(url: URL, actual: string): void {
  if (UPDATE) writeFileSync(url, actual);
  expect(actual).toBe(readFileSync(url, 'utf8'));
}

/** Every case the engine can express, at its default release. */
function expressible(format: EngineFormat): [string, Values][] {
  return cases().filter(
    ([, values]) => 'text' in renderOrRefuse(format, valid(values), false, RELEASES[format][0]!),
  );
}

describe('engine exports match their golden files (engine × release × auth type)', () => {
  for (const format of ENGINE_FORMATS)
    for (const release of RELEASES[format])
      for (const [id, values] of cases()) {
        it(`${format} ${release} × ${id}`, () => {
          const v = valid(values);
          const name = goldenName(format, id, release);
          const plain = renderOrRefuse(format, v, false, release);
          if ('refused' in plain) {
            matchGolden(goldenUrl(format, name, '.refused.txt'), plain.refused!);
            return;
          }
          matchGolden(goldenUrl(format, name, `.${EXT[format]}`), plain.text);
          const secrets = renderOrRefuse(format, v, true, release);
          matchGolden(goldenUrl(format, name, `.secrets.${EXT[format]}`), secrets.text ?? '');
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

  it('Trino would expand an ENV reference in a value: refused, naming the property; its own ones are kept', () => {
    const v = sample('token');
    v.fields.warehouse = `s3://warehouse/\${ENV:AWS_SECRET_ACCESS_KEY}`;
    expect(() => renderEngine('trino', valid(v), { includeSecrets: true })).toThrow(
      /Trino would expand the \$\{ENV:…\} \/ \$\{FILE:…\} in iceberg\.rest-catalog\.warehouse's value/,
    );
    const plain = renderEngine('trino', valid(sample('token')), { includeSecrets: false }).text;
    expect(plain).toMatch(/=\$\{ENV:FLOE_TOKEN\}/);
  });

  it('Trino signs with the storage region, so a different signing region is refused', () => {
    const v = sample('sigv4');
    v.fields.signingRegion = 'eu-west-1';
    expect(() => renderEngine('trino', valid(v), { includeSecrets: false })).toThrow(
      /Trino 483 cannot read this profile: Trino signs catalog requests with the storage region/,
    );
    expect(renderEngine('spark', valid(v), { includeSecrets: false }).text).toContain(
      'rest.signing-region=eu-west-1',
    );
  });

  it('DuckDB 1.5 is given the SigV4 service and region; 1.4 reads them from the host, or refuses', () => {
    const v = sample('sigv4');
    v.fields.catalogUrl = 'https://iceberg.example.com/catalog';
    v.fields.signingName = 'execute-api';
    v.fields.signingRegion = 'eu-west-1';
    expect(renderEngine('duckdb', valid(v), { includeSecrets: false }).text).toContain(
      "AUTHORIZATION_TYPE 'sigv4', SIGV4_SERVICE 'execute-api', SIGV4_REGION 'eu-west-1'",
    );
    expect(() => renderEngine('duckdb', valid(v), { includeSecrets: false, engineVersion: '1.4' })).toThrow(
      /DuckDB 1\.4 signs catalog requests with the service and region it reads from the catalog host/,
    );
    const aws = sample('sigv4');
    const old = renderEngine('duckdb', valid(aws), { includeSecrets: false, engineVersion: '1.4.2' }).text;
    expect(old).toContain("AUTHORIZATION_TYPE 'sigv4', ACCESS_DELEGATION_MODE");
    expect(old).not.toContain('SIGV4_');
  });

  it('DuckDB always gets the OAuth2 scope floe sends: catalog unless the profile names one', () => {
    const v = sample('oauth2');
    delete v.fields.scope;
    for (const engineVersion of ['1.4.0', '1.5.0'])
      expect(renderEngine('duckdb', valid(v), { includeSecrets: false, engineVersion }).text).toContain(
        "OAUTH2_SCOPE 'catalog'",
      );
    expect(renderEngine('duckdb', valid(sample('oauth2')), { includeSecrets: false }).text).toContain(
      "OAUTH2_SCOPE 'PRINCIPAL_ROLE:ALL'",
    );
  });

  it('Trino before 481 gets fs.native-s3.enabled, 481 and later fs.s3.enabled', () => {
    const v = valid(sample('token'));
    const at = (engineVersion: string) =>
      renderEngine('trino', v, { includeSecrets: false, engineVersion }).text;
    expect(at('480')).toContain('\nfs.native-s3.enabled=true\n');
    expect(at('480')).not.toContain('\nfs.s3.enabled');
    expect(at('481')).toContain('\nfs.s3.enabled=true\n');
    expect(at('484')).toContain('# for Trino 484 or later');
    expect(at('480')).toContain('# for Trino 471 to before 481');
  });

  it('Iceberg runtimes before 1.8.0 get rest.sigv4-enabled, since they ignore rest.auth.type', () => {
    const v = valid(sample('sigv4'));
    const old = renderEngine('spark', v, { includeSecrets: false, engineVersion: '1.7.2' }).text;
    expect(old).toContain('.rest.sigv4-enabled=true\n');
    expect(old).not.toContain('rest.auth.type');
    expect(renderEngine('spark', v, { includeSecrets: false }).text).toContain('.rest.auth.type=sigv4\n');
  });

  it('an engine version floe does not know is refused with a valid example', () => {
    expect(() =>
      renderEngine('trino', valid(sample('token')), { includeSecrets: false, engineVersion: 'latest' }),
    ).toThrow(/--engine-version: "latest" is not a release number \(e\.g\. 483\)/);
    expect(() =>
      renderEngine('trino', valid(sample('token')), { includeSecrets: false, engineVersion: '400' }),
    ).toThrow(/Trino 400 is older than floe's exports go \(471\)/);
  });
});

describe('secrets', () => {
  it('are never written without --include-secrets, in any format', () => {
    for (const format of ENGINE_FORMATS)
      for (const release of RELEASES[format])
        for (const [id, values] of cases()) {
          const out = renderOrRefuse(format, valid(values), false, release);
          for (const secret of SECRETS)
            expect(out.text ?? out.refused, `${format}/${id}`).not.toContain(secret);
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
    const known = knownProperties('pyiceberg', RELEASES.pyiceberg[0]!, compareReleases);
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
      for (const key of keys) expect(known.has(key), `${id}: ${key}`).toBe(true);
      expect(catalog.type).toBe('rest');
      expect(catalog.uri).toBe(values.fields.catalogUrl);
    }
  });

  it('the variables give pyiceberg the same catalog as the YAML', () => {
    for (const [id, values] of expressible('pyiceberg-env')) {
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

describe('every property name written is one the engine declares, at the release it targets', () => {
  const FORMAT_OF: Record<(typeof ENGINES)[number], EngineFormat> = {
    pyiceberg: 'pyiceberg',
    spark: 'spark',
    trino: 'trino',
    duckdb: 'duckdb',
  };

  it('every source names its file and release', () => {
    for (const engine of ENGINES)
      for (const source of ENGINE_PROPERTIES[engine]) {
        expect(source.file).toMatch(/^[\w-]+\/[\w.-]+ /);
        expect(source.read).not.toBe('');
      }
  });

  for (const engine of ENGINES)
    it(`${engine}: each release × each case`, () => {
      for (const release of RELEASES[FORMAT_OF[engine]]) {
        const known = knownProperties(engine, release, compareReleases);
        for (const [id, values] of cases()) {
          let keys: string[];
          try {
            keys = selectProperties(engine, valid(values), release).map((p) => p.key);
          } catch (error) {
            if (error instanceof UnsupportedError) continue;
            throw error;
          }
          for (const key of keys) expect(known.has(key), `${engine} ${release} ${id}: ${key}`).toBe(true);
        }
      }
    });

  it('the Spark and Trino files hold only those keys', () => {
    for (const [id, values] of cases()) {
      const v = valid(values);
      const name = typeof v.fields.catalogName === 'string' ? v.fields.catalogName : 'olake_iceberg';
      for (const release of RELEASES.spark) {
        const out = renderOrRefuse('spark', v, false, release);
        const known = knownProperties('spark', release, compareReleases);
        for (const key of propertyKeys(out.text ?? '', `spark.sql.catalog.${name}`))
          expect(known.has(key), `spark ${release} ${id}: ${key}`).toBe(true);
      }
      for (const release of RELEASES.trino) {
        const out = renderOrRefuse('trino', v, false, release);
        const known = knownProperties('trino', release, compareReleases);
        for (const key of propertyKeys(out.text ?? ''))
          expect(known.has(key), `trino ${release} ${id}: ${key}`).toBe(true);
      }
    }
  });

  it('a misspelt name would fail: the check is not vacuous', () => {
    const known = knownProperties('trino', '480', compareReleases);
    expect(known.has('fs.s3.enabled')).toBe(false);
    expect(known.has('fs.native-s3.enabled')).toBe(true);
    expect(knownProperties('spark', '1.7.2', compareReleases).has('rest.auth.type')).toBe(false);
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

// Issue 29, item 2: what each release really reads, checked at its tag.
describe('engine releases as their source has them', () => {
  it('pyiceberg before 0.10.0 gets the SigV4 keys as AWS_* variables, with the reason; 0.10.0 as client.*', () => {
    const v = valid(cases().find(([id]) => id === 's3tables')![1]);
    const old = renderEngine('pyiceberg', v, { includeSecrets: false, engineVersion: '0.9.1' });
    expect(old.text).not.toContain('client.access-key-id');
    expect(old.text).not.toContain('AWS_ACCESS_KEY_ID');
    expect(old.notes).toContain(
      "pyiceberg before 0.10.0 signs catalog requests with boto3's default AWS credentials (boto3.Session() without arguments), not client.access-key-id: set AWS_ACCESS_KEY_ID (the FLOE_ACCESS_KEY) and AWS_SECRET_ACCESS_KEY (the FLOE_SECRET_KEY) in its environment (or AWS_PROFILE naming a profile with these keys), or use pyiceberg 0.10.0 or later (--engine-version 0.10.0), which reads them from the catalog's properties.",
    );
    const env = renderEngine('pyiceberg-env', v, { includeSecrets: false, engineVersion: '0.8.0' });
    expect(env.text).toContain(`export AWS_ACCESS_KEY_ID="\${FLOE_ACCESS_KEY:?set FLOE_ACCESS_KEY first}"`);
    expect(env.text).toContain(
      `export AWS_SECRET_ACCESS_KEY="\${FLOE_SECRET_KEY:?set FLOE_SECRET_KEY first}"`,
    );
    expect(env.notes.join('\n')).toContain('this file sets AWS_ACCESS_KEY_ID');
    const current = renderEngine('pyiceberg', v, { includeSecrets: false, engineVersion: '0.10.0' });
    expect(current.text).toContain('client.access-key-id: "<FLOE_ACCESS_KEY>"');
    expect(current.notes.join('\n')).not.toContain('boto3');
  });

  it('Trino with Google Cloud Storage always names a key file, even without the key at hand', () => {
    const v = cases().find(([id]) => id === 'gcs-oauth2')![1];
    delete v.fields.gcpServiceAccountJson;
    for (const release of RELEASES.trino) {
      const out = renderEngine('trino', valid(v), { includeSecrets: false, engineVersion: release });
      expect(out.text, release).toContain('gcs.json-key-file-path=<path of the service-account key file>');
      expect(out.notes.join('\n')).toContain(
        'put its path in place of <path of the service-account key file>',
      );
    }
  });

  it('the default releases are released ones: Trino 483 (484 is not out)', () => {
    const out = renderEngine('trino', valid(sample('none')), { includeSecrets: false });
    expect(out.text).toContain('written by floe export\n# for Trino 481 to before 484');
  });
});

/** The source (repository, file and tag) that declares `key` for `engine` at `release`. */
function sourceOf(engine: (typeof ENGINES)[number], key: string, release: string): string {
  const source = ENGINE_PROPERTIES[engine].find(
    (s) =>
      s.names.includes(key) &&
      (s.since === undefined || compareReleases(release, s.since) >= 0) &&
      (s.before === undefined || compareReleases(release, s.before) < 0),
  );
  return source ? `${source.read}: ${source.file}` : '(no source)';
}

describe('the goldens name the tag each option was checked against', () => {
  for (const format of ENGINE_FORMATS)
    for (const release of RELEASES[format])
      it(`${format} ${release}`, () => {
        const engine = ENGINE_OF[format];
        const keys = new Set<string>();
        for (const [, values] of cases()) {
          try {
            for (const p of selectProperties(engine, valid(values), release)) keys.add(p.key);
          } catch (error) {
            if (!(error instanceof UnsupportedError)) throw error;
          }
        }
        const lines = [...keys]
          .sort()
          .map((key) => `${key || '(the catalog class)'}\t${sourceOf(engine, key, release)}`);
        expect(lines.filter((line) => line.endsWith('(no source)'))).toEqual([]);
        matchGolden(goldenUrl(format, `sources@${release}`, '.txt'), `${lines.join('\n')}\n`);
      });
});
