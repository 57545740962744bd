// What the stack takes from a profile, what it makes up, and how its files are written.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FloeError } from '../../src/cli/io.js';
import type { Values } from '../../src/destination/fields.js';
import { renderEnv, stackFiles, writeStackFiles } from '../../src/stack/files.js';
import { nextSteps, shellWord } from '../../src/stack/next.js';
import { planStack } from '../../src/stack/plan.js';
import { loadYaml } from '../../src/stack/yaml.js';

await loadYaml();

function values(fields: Values['fields'], storage: Values['storage'] = 's3-compatible'): Values {
  return { preset: 'rest', authType: 'none', storage, targetVersion: 'latest', fields };
}

const KEYS = { accessKey: 'minio-admin', secretKey: 'sentinel-secret-31c9' };

function thrown(fn: () => unknown): FloeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FloeError);
    return error as FloeError;
  }
  throw new Error('expected a FloeError');
}

describe('planStack', () => {
  it('without a profile: s3://warehouse, us-east-1 and fresh random secrets each time', () => {
    const a = planStack(undefined);
    const b = planStack(undefined);
    expect(a.settings).toEqual({ warehouse: 's3://warehouse', bucket: 'warehouse', region: 'us-east-1' });
    expect(a.profileKeys).toBe(false);
    expect(a.notes).toEqual([]);
    expect(a.secrets.accessKey).toMatch(/^floe[0-9a-f]{16}$/);
    expect(a.secrets.secretKey).toMatch(/^[0-9a-f]{40}$/);
    expect(a.secrets.dbPassword).toMatch(/^[0-9a-f]{32}$/);
    for (const key of ['accessKey', 'secretKey', 'dbPassword'] as const)
      expect(a.secrets[key]).not.toBe(b.secrets[key]);
  });

  it("takes the S3 Path, its bucket, the region and an S3-compatible profile's keys", () => {
    const plan = planStack({
      name: 'dev',
      values: values({ warehouse: 's3://lake-data/olake/raw', region: 'eu-west-1', ...KEYS }),
    });
    expect(plan.settings).toEqual({
      profile: 'dev',
      warehouse: 's3://lake-data/olake/raw',
      bucket: 'lake-data',
      region: 'eu-west-1',
    });
    expect(plan.secrets).toMatchObject(KEYS);
    expect(plan.profileKeys).toBe(true);
  });

  it("does not copy an AWS profile's keys into the stack", () => {
    const plan = planStack({
      name: 'prod',
      values: values({ warehouse: 's3://prod-lake', region: 'us-west-2', ...KEYS }, 'aws'),
    });
    expect(plan.secrets.accessKey).not.toBe(KEYS.accessKey);
    expect(plan.secrets.secretKey).not.toBe(KEYS.secretKey);
    expect(plan.profileKeys).toBe(false);
    expect(plan.notes.join('\n')).toMatch(/uses AWS S3: its keys are not copied/);
    expect(plan.settings.bucket).toBe('prod-lake');
  });

  it('generates keys for a profile without any, and says so', () => {
    const plan = planStack({
      name: 'nokeys',
      values: values({ warehouse: 's3://lake', region: 'us-east-1' }),
    });
    expect(plan.profileKeys).toBe(false);
    expect(plan.notes).toEqual(['Profile "nokeys" has no keys: the stack has generated keys.']);
  });

  it('falls back to s3://warehouse when the profile has no S3 Path', () => {
    const plan = planStack({ name: 'half', values: values({ region: 'us-east-1' }) });
    expect(plan.settings.warehouse).toBe('s3://warehouse');
    expect(plan.notes[0]).toMatch(/names no s3:\/\/ location/);
  });

  it('refuses keys MinIO would not start with, without printing them', () => {
    const short = thrown(() =>
      planStack({
        name: 'dev',
        values: values({ warehouse: 's3://lake', accessKey: 'ab', secretKey: 'short7!' }),
      }),
    );
    expect(short.message).toMatch(/at least 3 characters.*at least 8 characters/);
    expect(`${short.message}${short.hint}`).not.toMatch(/short7!/);
    const quoted = thrown(() =>
      planStack({
        name: 'dev',
        values: values({ warehouse: 's3://lake', accessKey: "it's-a-key", secretKey: 'long-enough' }),
      }),
    );
    expect(quoted.message).toMatch(/without quotes, backslashes/);
    expect(quoted.message).not.toContain("it's-a-key");
  });

  it('refuses a bucket or region that is not a valid name', () => {
    expect(
      thrown(() => planStack({ name: 'x', values: values({ warehouse: 's3://Lake_Data' }) })).message,
    ).toMatch(/"Lake_Data" of profile "x" is not a valid S3 bucket name/);
    expect(
      thrown(() => planStack({ name: 'x', values: values({ warehouse: 's3://lake', region: 'us east;1' }) }))
        .message,
    ).toMatch(/region "us east;1"/);
  });
});

describe('the stack files', () => {
  const plan = planStack({
    name: 'dev',
    values: values({ warehouse: 's3://lake', region: 'us-east-1', ...KEYS }),
  });

  it('writes compose.yaml and a 0600 .env holding the secrets single-quoted', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'floe-stack-')), 'nested', 'stack');
    writeStackFiles(dir, stackFiles(dir, plan), false);
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'compose.yaml')).mode & 0o777).toBe(0o644);
    const env = readFileSync(join(dir, '.env'), 'utf8');
    expect(env).toBe(renderEnv(plan));
    expect(env).toContain(`FLOE_SECRET_KEY='${KEYS.secretKey}'\n`);
    expect(readFileSync(join(dir, 'compose.yaml'), 'utf8')).not.toContain(KEYS.secretKey);
  });

  it('refuses to overwrite either file without force, and writes nothing then', () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stack-'));
    writeFileSync(join(dir, '.env'), 'MINE=1\n');
    const error = thrown(() => writeStackFiles(dir, stackFiles(dir, plan), false));
    expect(error.message).toBe(`Not overwriting ${join(dir, '.env')}.`);
    expect(error.hint).toMatch(/--force/);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('MINE=1\n');
    expect(() => statSync(join(dir, 'compose.yaml'))).toThrow();
  });

  it('with force, replaces the files and narrows a loose .env to 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stack-'));
    writeFileSync(join(dir, '.env'), 'OLD=1\n', { mode: 0o644 });
    writeFileSync(join(dir, 'compose.yaml'), 'old: true\n');
    writeStackFiles(dir, stackFiles(dir, plan), true);
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(renderEnv(plan));
    expect(readFileSync(join(dir, 'compose.yaml'), 'utf8')).toMatch(/^# Local Iceberg test stack/);
  });

  it('reports an unwritable directory as a FloeError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-stack-'));
    writeFileSync(join(dir, 'file'), '');
    const target = join(dir, 'file', 'stack');
    expect(thrown(() => writeStackFiles(target, stackFiles(target, plan), false)).message).toMatch(
      /Cannot write the stack in .*: ENOTDIR/,
    );
  });
});

describe('next steps', () => {
  it('for a profile already pointing at the stack with its own keys: just test it', () => {
    const profile = {
      name: 'local',
      values: values({
        catalogUrl: 'http://127.0.0.1:8181/',
        s3Endpoint: 'http://localhost:9000',
        warehouse: 's3://lake',
        region: 'us-east-1',
        ...KEYS,
      }),
    };
    const steps = nextSteps('floe-stack', planStack(profile), profile).join('\n');
    expect(steps).toContain('docker compose -f floe-stack/compose.yaml up -d');
    expect(steps).toContain('floe test --profile local');
    expect(steps).not.toContain('floe setup');
  });

  it('otherwise: load .env and save a profile for the stack, then test it', () => {
    const plan = planStack(undefined);
    const steps = nextSteps('my stack', plan, undefined).join('\n');
    expect(steps).toContain("docker compose -f 'my stack/compose.yaml' up -d");
    expect(steps).toContain("set -a; . 'my stack/.env'; set +a");
    expect(steps).toMatch(
      /floe setup --profile stack --yes --env-secrets --auth-type none \\\n\s+--catalog-url http:\/\/localhost:8181 --warehouse s3:\/\/warehouse \\\n\s+--region us-east-1 --storage s3-compatible --s3-endpoint http:\/\/localhost:9000/,
    );
    expect(steps).toContain('floe test --profile stack');
    for (const secret of Object.values(plan.secrets)) expect(steps).not.toContain(secret);
  });

  // Issue 19, item 9: the lines run as printed: npx floe in a clone, and no keychain needed.
  it('prints the command that runs floe here, and a setup line that needs no keychain', () => {
    const steps = nextSteps('s', planStack(undefined), undefined, 'npx floe').join('\n');
    expect(steps).toContain('  npx floe setup --profile stack --yes --env-secrets');
    expect(steps).toContain('  npx floe test --profile stack');
    expect(steps).not.toMatch(/^ {2}floe /m);
  });

  it('sources a .env in the current directory by a path, not a PATH lookup', () => {
    expect(nextSteps('.', planStack(undefined), undefined).join('\n')).toContain('set -a; . ./.env; set +a');
  });

  it('quotes shell words only when needed', () => {
    expect(shellWord('floe-stack/compose.yaml')).toBe('floe-stack/compose.yaml');
    expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
  });
});
