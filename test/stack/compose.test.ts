// The generated compose file: valid against the Compose spec, wired as the stack needs, free of secrets.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Values } from '../../src/destination/fields.js';
import { renderCompose } from '../../src/stack/compose.js';
import { renderEnv } from '../../src/stack/files.js';
import { NETWORK, planStack, type StackPlan } from '../../src/stack/plan.js';
import { loadYaml } from '../../src/stack/yaml.js';

await loadYaml();

/** The Compose specification's JSON schema, vendored in test/fixtures/spec/. */
const SPEC = fileURLToPath(new URL('../fixtures/spec/compose-spec.json', import.meta.url));

const SENTINEL = { accessKey: 'sentinel-access-4f1c', secretKey: 'sentinel-secret-9b2e7d' } as const;

function profileValues(fields: Values['fields'], storage: Values['storage'] = 's3-compatible'): Values {
  return { preset: 'rest', authType: 'none', storage, targetVersion: 'latest', fields };
}

const PROFILE = {
  name: 'dev',
  values: profileValues({
    catalogUrl: 'http://localhost:8181',
    warehouse: 's3://lake-data/olake/raw',
    region: 'eu-west-1',
    s3Endpoint: 'http://localhost:9000',
    ...SENTINEL,
  }),
};

let counter = 0;
const fakeRandom = (bytes: number) => `sentinel-random-${++counter}-`.padEnd(bytes * 2, 'x');

// biome-ignore lint/suspicious/noExplicitAny: a parsed compose document is walked freely in assertions
type Doc = any;
function doc(plan: StackPlan): Doc {
  return parse(renderCompose(plan.settings));
}

/** The `.env` file as docker compose reads it: KEY='value' lines. */
function envVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_]+)='([^']*)'$/.exec(line);
    if (match) out[match[1]!] = match[2]!;
    else expect(line === '' || line.startsWith('#'), `unexpected .env line: ${line}`).toBe(true);
  }
  return out;
}

/** docker compose's interpolation of one string: ${VAR} from .env, $$ to $. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string | undefined) => {
    if (whole === '$$') return '$';
    const found = env[name!];
    if (found === undefined)
      throw new Error(`compose.yaml refers to \${${name}}, which .env does not define`);
    return found;
  });
}

/** A compose variable reference, `${NAME}`. */
function ref(name: string): string {
  return `\${${name}}`;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

describe('the compose file against the Compose spec', () => {
  let validate: ValidateFunction;
  beforeAll(() => {
    const { $schema: _drop, ...schema } = JSON.parse(readFileSync(SPEC, 'utf8'));
    validate = new Ajv({ strict: false, validateFormats: false, allErrors: true, logger: false }).compile(
      schema,
    );
  });

  it('validates, with and without a profile', () => {
    for (const plan of [planStack(undefined), planStack(PROFILE)]) {
      const ok = validate(doc(plan));
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('rejects a broken variant, so the check above can fail', () => {
    const broken = doc(planStack(undefined));
    broken.services.catalog.depends_on.postgres.condition = 'service_ready';
    expect(validate(broken)).toBe(false);
  });
});

describe('the stack wiring', () => {
  const compose = doc(planStack(PROFILE));
  const { services } = compose;

  it('starts the catalog after a healthy Postgres and a finished bucket helper', () => {
    expect(services.catalog.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      'minio-setup': { condition: 'service_completed_successfully' },
    });
  });

  it('puts every service on the one named network, which has a fixed name', () => {
    expect(Object.keys(services).sort()).toEqual(['catalog', 'minio', 'minio-setup', 'olake', 'postgres']);
    for (const [name, service] of Object.entries<Doc>(services))
      expect(service.networks, `service ${name}`).toEqual([NETWORK]);
    expect(compose.networks).toEqual({ [NETWORK]: { name: 'olake-network' } });
  });

  it('gives Postgres a dedicated database and user and a pg_isready health check', () => {
    expect(services.postgres.environment).toMatchObject({
      POSTGRES_DB: 'iceberg_catalog',
      POSTGRES_USER: 'iceberg',
    });
    expect(services.postgres.healthcheck.test).toEqual([
      'CMD-SHELL',
      'pg_isready -U iceberg -d iceberg_catalog',
    ]);
  });

  it('configures the REST fixture with the warehouse, S3FileIO, MinIO and the Postgres catalog', () => {
    expect(services.catalog.environment).toEqual({
      CATALOG_WAREHOUSE: 's3://lake-data/olake/raw',
      CATALOG_IO__IMPL: 'org.apache.iceberg.aws.s3.S3FileIO',
      CATALOG_S3_ENDPOINT: 'http://minio:9000',
      CATALOG_S3_PATH__STYLE__ACCESS: 'true',
      CATALOG_URI: 'jdbc:postgresql://postgres:5432/iceberg_catalog',
      CATALOG_JDBC_USER: 'iceberg',
      CATALOG_JDBC_PASSWORD: ref('POSTGRES_PASSWORD'),
      AWS_ACCESS_KEY_ID: ref('FLOE_ACCESS_KEY'),
      AWS_SECRET_ACCESS_KEY: ref('FLOE_SECRET_KEY'),
      AWS_REGION: 'eu-west-1',
    });
    const dockerfile: string = services.catalog.build.dockerfile_inline;
    expect(dockerfile).toMatch(/^FROM apache\/iceberg-rest-fixture:\S+\n/);
    expect(dockerfile).toMatch(
      /ENTRYPOINT \[.*postgresql\.jar.*"org\.apache\.iceberg\.rest\.RESTCatalogServer"\]/,
    );
    expect(services.catalog.ports).toEqual(['127.0.0.1:8181:8181']);
    expect(services.minio.ports).toContain('127.0.0.1:9000:9000');
  });

  it('creates the warehouse bucket and makes it public with a one-shot mc helper', () => {
    const helper = services['minio-setup'];
    expect(helper.image).toMatch(/^minio\/mc(:|$)/);
    expect(helper.restart).toBe('no');
    const script: string = helper.command.join('\n');
    expect(script).toContain(
      'mc alias set stack http://minio:9000 "$$MINIO_ROOT_USER" "$$MINIO_ROOT_PASSWORD"',
    );
    expect(script).toContain('mc mb --ignore-existing stack/lake-data');
    expect(script).toContain('mc anonymous set public stack/lake-data');
  });

  it('has the OLake sync tool under the "sync" compose profile, with a comment on the image', () => {
    expect(services.olake).toMatchObject({ image: 'olakego/source-postgres:latest', profiles: ['sync'] });
    expect(services.olake.command.slice(0, 1)).toEqual(['sync']);
    expect(renderCompose(planStack(PROFILE).settings)).toMatch(
      /# OLake's sync tool[^\n]*\n(#[^\n]*\n| *#[^\n]*\n)*\s*olake:/,
    );
  });
});

describe('secrets', () => {
  it('keeps every secret out of compose.yaml and in .env, referenced by name', () => {
    for (const plan of [planStack(PROFILE, fakeRandom), planStack(undefined, fakeRandom)]) {
      const text = renderCompose(plan.settings);
      const env = envVars(renderEnv(plan));
      for (const secret of Object.values(plan.secrets)) {
        expect(secret).toMatch(/sentinel/);
        expect(text).not.toContain(secret);
      }
      expect(text).not.toContain('sentinel');
      expect(env).toEqual({
        FLOE_ACCESS_KEY: plan.secrets.accessKey,
        FLOE_SECRET_KEY: plan.secrets.secretKey,
        POSTGRES_PASSWORD: plan.secrets.dbPassword,
      });
      const services = doc(plan).services;
      const resolved = (value: string) => interpolate(value, env);
      expect(resolved(services.minio.environment.MINIO_ROOT_PASSWORD)).toBe(plan.secrets.secretKey);
      expect(resolved(services.catalog.environment.AWS_SECRET_ACCESS_KEY)).toBe(plan.secrets.secretKey);
      expect(resolved(services.catalog.environment.CATALOG_JDBC_PASSWORD)).toBe(plan.secrets.dbPassword);
      expect(resolved(services.postgres.environment.POSTGRES_PASSWORD)).toBe(plan.secrets.dbPassword);
      for (const value of strings(doc(plan))) resolved(value);
    }
  });

  it('escapes a $ in a warehouse path so compose does not interpolate it', () => {
    const plan = planStack({
      name: 'p',
      values: profileValues({ warehouse: 's3://lake/$HOME/x', region: 'us-east-1' }),
    });
    const catalog = doc(plan).services.catalog;
    expect(catalog.environment.CATALOG_WAREHOUSE).toBe('s3://lake/$$HOME/x');
    expect(interpolate(catalog.environment.CATALOG_WAREHOUSE, {})).toBe('s3://lake/$HOME/x');
  });
});
