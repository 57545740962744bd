// The storage check for gs:// (storage: gcs) against the loopback GCS emulator: the five steps, each
// diagnosis from a fault, no secret in what the chain emits.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { diagnosisSchema } from '../../src/check/types.js';
import type { Values } from '../../src/destination/fields.js';
import { type GcsEmulator, startGcsEmulator } from '../../src/sandbox/gcs.js';
import { gcsBase, parseGsPath } from '../../src/storage/gcs.js';
import { GCS_DIAGNOSES, type GcsDiagnosisCode, gcsDiagnosis } from '../../src/storage/gcs-diagnoses.js';
import { runStorage } from './harness.js';

const EMAIL = 'olake-writer@floe-test.iam.gserviceaccount.com';
const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let emu: GcsEmulator;

function accountJson(tokenUri: string, privateKey = PRIVATE_KEY, email = EMAIL): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: 'floe-test',
    private_key_id: 'key-1',
    private_key: privateKey,
    client_email: email,
    token_uri: tokenUri,
  });
}

function values(fields: Record<string, string> = {}): Values {
  return {
    preset: 'biglake',
    authType: 'google',
    storage: 'gcs',
    targetVersion: 'latest',
    fields: {
      catalogUrl: 'https://biglake.googleapis.com/iceberg/v1/restcatalog',
      warehouse: 'gs://lake/olake',
      gcpServiceAccountJson: accountJson(emu.tokenUrl),
      ...fields,
    },
  };
}

beforeAll(async () => {
  emu = await startGcsEmulator({
    serviceAccounts: [
      { clientEmail: EMAIL, publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    ],
    buckets: [
      { name: 'lake', location: 'EUROPE-WEST1' },
      { name: 'paid', requesterPays: true },
    ],
    projects: ['billing-ok', 'billing-closed'],
    closedBillingProjects: ['billing-closed'],
  });
});
afterAll(() => emu.close());
beforeEach(() => {
  vi.stubEnv('STORAGE_EMULATOR_HOST', emu.url);
});
afterEach(() => {
  vi.unstubAllEnvs();
  emu.stall(null);
  for (const p of ['storage.buckets.get', 'storage.objects.create', 'storage.objects.get'] as const)
    emu.allow(EMAIL, p);
});

describe('the GCS storage check', () => {
  it('passes the five steps against the emulator and removes its probe', async () => {
    const run = await runStorage(values());
    expect(run.diagnoses).toEqual([]);
    expect(run.states).toEqual({
      'storage.head': 'ok',
      'storage.list': 'ok',
      'storage.put': 'ok',
      'storage.get': 'ok',
      'storage.delete': 'ok',
    });
    expect(run.steps['storage.head']?.title).toContain('GCS');
    expect(run.steps['storage.head']?.detail).toContain('bucket "lake" exists in EUROPE-WEST1');
    expect(run.steps['storage.head']?.detail).toContain(EMAIL);
    expect(run.steps['storage.put']?.detail).toMatch(/^wrote olake\/\.floe-probe\/[0-9a-f-]{36} /);
    expect(emu.objects('lake').size).toBe(0);
    const calls = emu.requests.slice(-6).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}$/, 'ID')}`);
    expect(calls).toEqual([
      'POST /token',
      'GET /storage/v1/b/lake',
      'GET /storage/v1/b/lake/o',
      'POST /upload/storage/v1/b/lake/o',
      'GET /storage/v1/b/lake/o/olake%2F.floe-probe%2FID',
      'DELETE /storage/v1/b/lake/o/olake%2F.floe-probe%2FID',
    ]);
  });

  it('--read-only lists and writes nothing', async () => {
    const run = await runStorage(values(), { readOnly: true });
    expect(run.states['storage.list']).toBe('ok');
    expect(run.states['storage.put']).toBe('skipped');
    expect(run.steps['storage.put']?.detail).toBe('read-only');
  });

  it('a missing bucket is GCS_NO_SUCH_BUCKET (404 notFound)', async () => {
    const run = await runStorage(values({ warehouse: 'gs://no-such-lake' }));
    expect(run.diagnoses.map((d) => d.code)).toEqual(['GCS_NO_SUCH_BUCKET']);
    const [d] = run.diagnoses;
    expect(d?.step).toBe('storage.head');
    expect(d?.evidence).toMatchObject({ status: 404, errorCode: 'notFound' });
    expect(d?.remedy).toContain('gcloud storage buckets create gs://no-such-lake');
  });

  it('a refused write names storage.objects.create and the service account', async () => {
    emu.deny(EMAIL, 'storage.objects.create');
    const run = await runStorage(values());
    expect(run.diagnoses.map((d) => d.code)).toEqual(['GCS_PERMISSION_DENIED']);
    const [d] = run.diagnoses;
    expect(d?.step).toBe('storage.put');
    expect(d?.what).toContain(`${EMAIL} does not have storage.objects.create`);
    expect(d?.evidence.status).toBe(403);
    expect(d?.evidence.extra).toMatchObject({ permission: 'storage.objects.create', serviceAccount: EMAIL });
    expect(d?.remedy).toContain(`--member=serviceAccount:${EMAIL}`);
    expect(run.states['storage.get']).toBe('skipped');
  });

  it('a refused read still removes the probe', async () => {
    emu.deny(EMAIL, 'storage.objects.get');
    const run = await runStorage(values());
    expect(run.diagnoses.map((d) => [d.code, d.step])).toEqual([['GCS_PERMISSION_DENIED', 'storage.get']]);
    expect(run.diagnoses[0]?.evidence.extra?.permission).toBe('storage.objects.get');
    expect(run.states['storage.delete']).toBe('ok');
    expect(emu.objects('lake').size).toBe(0);
  });

  it('storage.buckets.get refused is a warning: objectAdmin lacks it and OLake does not need it', async () => {
    emu.deny(EMAIL, 'storage.buckets.get');
    const run = await runStorage(values());
    expect(run.diagnoses).toEqual([]);
    expect(run.states['storage.delete']).toBe('ok');
    expect(run.warnings.join('\n')).toContain(
      `${EMAIL} may not read bucket "lake"'s metadata (storage.buckets.get)`,
    );
  });

  it('a requester-pays bucket without a billing project is GCS_USER_PROJECT_MISSING; with one it passes', async () => {
    const missing = await runStorage(values({ warehouse: 'gs://paid/x' }));
    expect(missing.diagnoses.map((d) => d.code)).toEqual(['GCS_USER_PROJECT_MISSING']);
    expect(missing.diagnoses[0]?.remedy).toContain('--gcp-project-id');
    const paid = await runStorage(values({ warehouse: 'gs://paid/x', gcpProjectId: 'billing-ok' }));
    expect(paid.diagnoses).toEqual([]);
    expect(paid.steps['storage.head']?.detail).toContain('requester pays');
    expect(emu.requests.at(-1)?.query.userProject).toBe('billing-ok');
  });

  it('a wrong or unbillable project: GCS_USER_PROJECT_INVALID, GCS_BILLING_ACCOUNT', async () => {
    const wrong = await runStorage(values({ gcpProjectId: 'no-such-project' }));
    expect(wrong.diagnoses.map((d) => d.code)).toEqual(['GCS_USER_PROJECT_INVALID']);
    expect(wrong.diagnoses[0]?.evidence.extra?.userProject).toBe('no-such-project');
    const closed = await runStorage(values({ gcpProjectId: 'billing-closed' }));
    expect(closed.diagnoses.map((d) => d.code)).toEqual(['GCS_BILLING_ACCOUNT']);
    expect(closed.diagnoses[0]?.evidence.errorCode).toBe('userProjectAccountProblem');
  });

  it('an unknown service account is GCS_INVALID_GRANT at the token endpoint', async () => {
    const other = stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const run = await runStorage(
      values({
        gcpServiceAccountJson: accountJson(emu.tokenUrl, other, 'ghost@floe-test.iam.gserviceaccount.com'),
      }),
    );
    expect(run.diagnoses.map((d) => [d.code, d.step])).toEqual([['GCS_INVALID_GRANT', 'storage.head']]);
    expect(run.diagnoses[0]?.what).toContain('ghost@floe-test.iam.gserviceaccount.com');
    expect(run.diagnoses[0]?.evidence.errorCode).toBe('invalid_grant');
  });

  it('a key signed by another key is refused too (invalid_grant: Invalid JWT Signature)', async () => {
    const other = stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const run = await runStorage(values({ gcpServiceAccountJson: accountJson(emu.tokenUrl, other) }));
    expect(run.diagnoses[0]?.code).toBe('GCS_INVALID_GRANT');
    expect(run.diagnoses[0]?.evidence.extra?.message).toBe('Invalid JWT Signature.');
  });

  it('an unusable key file is GCS_KEY_INVALID before any request', async () => {
    const before = emu.requests.length;
    const run = await runStorage(values({ gcpServiceAccountJson: '{"type":"service_account"}' }));
    expect(run.diagnoses.map((d) => d.code)).toEqual(['GCS_KEY_INVALID']);
    expect(emu.requests.length).toBe(before);
  });

  it("GCS_INVALID_GRANT names the key file's token_uri when it is not Google's", async () => {
    const other = stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const run = await runStorage(values({ gcpServiceAccountJson: accountJson(emu.tokenUrl, other) }));
    expect(run.diagnoses[0]?.code).toBe('GCS_INVALID_GRANT');
    const prefix = `The token endpoint ${emu.tokenUrl} (the key file's token_uri) refused the service account ${EMAIL}: `;
    expect(run.diagnoses[0]?.what.slice(0, prefix.length)).toBe(prefix);
    expect(run.diagnoses[0]?.what).not.toContain("Google's");
  });

  it.each([
    ['no access_token', {}, 'the answer has no access_token'],
    [
      'an access_token with a line break',
      { access_token: 'ya29.issued\r\nX-Injected: 1', token_type: 'Bearer' },
      'the access_token it issued cannot go in an HTTP header (it holds a line break)',
    ],
  ])(
    'GCS_TOKEN_FAILED: a token_uri answering %s is named, and nothing reaches Cloud Storage',
    async (_, body, says) => {
      const server = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const tokenUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/token`;
      try {
        const before = emu.requests.length;
        const run = await runStorage(values({ gcpServiceAccountJson: accountJson(tokenUri) }));
        expect(run.diagnoses.map((d) => [d.code, d.step])).toEqual([['GCS_TOKEN_FAILED', 'storage.head']]);
        const d = run.diagnoses[0]!;
        expect(d.what).toBe(
          `The token endpoint ${tokenUri} (the key file's token_uri) gave no usable access token for the service account ${EMAIL}: ${says}`,
        );
        expect(d.cause).toContain(`The key file’s token_uri names ${tokenUri}, not Google’s token endpoint`);
        expect(d.remedy).toContain('token_uri https://oauth2.googleapis.com/token');
        expect(emu.requests.length).toBe(before);
      } finally {
        server.close();
      }
    },
  );

  it.each([
    ['file:///etc/passwd', '"file:///etc/passwd"'],
    ['ftp://oauth2.example.com/token', '"ftp://oauth2.example.com/token"'],
    ['oauth2.googleapis.com/token', '"oauth2.googleapis.com/token"'],
    ['https:///token', '"https:///token"'],
    [42, 'number'],
  ])(
    'GCS_KEY_INVALID: a token_uri %s is refused, naming the field, the rule and an example',
    async (uri, shown) => {
      const before = emu.requests.length;
      const json = JSON.parse(accountJson('x'));
      const run = await runStorage(
        values({ gcpServiceAccountJson: JSON.stringify({ ...json, token_uri: uri }) }),
      );
      expect(run.diagnoses.map((d) => d.code)).toEqual(['GCS_KEY_INVALID']);
      expect(run.diagnoses[0]?.what).toBe(
        `The GCP Service Account JSON cannot be used: its "token_uri" (${shown}) must be an absolute http(s) URL of the token endpoint, e.g. https://oauth2.googleapis.com/token`,
      );
      expect(emu.requests.length).toBe(before);
    },
  );

  it('a step that gets no answer times out on its own timeout', async () => {
    emu.stall('storage.objects.list');
    const run = await runStorage(values(), { timeoutMs: 400 });
    expect(run.diagnoses.map((d) => [d.code, d.step])).toEqual([['GCS_TIMEOUT', 'storage.list']]);
    expect(run.diagnoses[0]?.what).toContain('within 400 ms');
  });

  it('an unreachable emulator host is GCS_CONNECTION_REFUSED', async () => {
    vi.stubEnv('STORAGE_EMULATOR_HOST', '127.0.0.1:9');
    const run = await runStorage(values());
    expect(run.diagnoses.map((d) => [d.code, d.step])).toEqual([['GCS_CONNECTION_REFUSED', 'storage.head']]);
    expect(run.diagnoses[0]?.evidence.url).toMatch(/^http:\/\/127\.0\.0\.1:9\/storage\/v1\/b\/lake/);
  });

  it('a location that is not gs:// is GCS_INVALID_PATH', async () => {
    const run = await runStorage(values({ dataLocation: 's3://lake/olake' }));
    expect(run.diagnoses.map((d) => d.code)).toEqual(['GCS_INVALID_PATH']);
  });

  it('cancelling mid-step cancels the rest', async () => {
    emu.stall('storage.objects.list');
    const controller = new AbortController();
    const run = await runStorage(values(), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'step' && e.step.id === 'storage.list' && e.step.state === 'running')
          setTimeout(() => controller.abort(), 50);
      },
    });
    expect(run.diagnoses).toEqual([]);
    expect(run.states['storage.list']).toBe('cancelled');
    expect(run.states['storage.delete']).toBe('cancelled');
  });

  it('no secret in anything emitted: key, assertion, access token', async () => {
    emu.deny(EMAIL, 'storage.objects.create');
    const run = await runStorage(values());
    const out = JSON.stringify(run.events);
    const body = PRIVATE_KEY.split('\n').filter((l) => l && !l.startsWith('-----'));
    for (const line of body) expect(out).not.toContain(line);
    expect(out).not.toContain('ya29.');
    expect(out).not.toMatch(/eyJ[\w-]+\.eyJ/);
    const traces = run.events.flatMap((e) => (e.type === 'trace' ? [e.entry] : []));
    expect(traces.map((t) => t.method)).toEqual(['POST', 'GET', 'GET', 'POST', 'DELETE']);
    for (const t of traces.slice(1)) expect(t.requestHeaders.authorization).toBe('[redacted]');
  });
});

describe('GCS pieces', () => {
  it("the emulator wants a bearer token: 401 in Google's JSON error shape", async () => {
    const res = await fetch(`${emu.url}/storage/v1/b/lake/o`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        code: 401,
        message: 'Login Required',
        errors: [
          {
            message: 'Login Required',
            domain: 'global',
            reason: 'required',
            locationType: 'header',
            location: 'Authorization',
          },
        ],
      },
    });
    const forged = await fetch(`${emu.url}/storage/v1/b/lake/o`, {
      headers: { authorization: 'Bearer ya29.forged' },
    });
    expect(
      ((await forged.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason,
    ).toBe('authError');
  });

  it('STORAGE_EMULATOR_HOST: http:// when it names no scheme, Google otherwise', () => {
    expect(gcsBase({})).toBe('https://storage.googleapis.com');
    expect(gcsBase({ STORAGE_EMULATOR_HOST: '127.0.0.1:4443' })).toBe('http://127.0.0.1:4443');
    expect(gcsBase({ STORAGE_EMULATOR_HOST: 'https://gcs.local/storage/v1/' })).toBe('https://gcs.local');
  });

  it('gs:// paths', () => {
    expect(parseGsPath('gs://lake')).toEqual({ bucket: 'lake', prefix: '' });
    expect(parseGsPath('gs://lake//a/b/')).toEqual({ bucket: 'lake', prefix: 'a/b/' });
    expect(parseGsPath('s3://lake')).toBeNull();
  });

  it("the token endpoint's diagnoses say Google's only for Google's own token_uri", () => {
    const ctx = {
      step: 'storage.head' as const,
      bucket: 'lake',
      email: EMAIL,
      base: 'https://storage.googleapis.com',
      timeoutMs: 1000,
      timedOut: false,
    };
    for (const code of ['GCS_INVALID_GRANT', 'GCS_TOKEN_FAILED'] as const) {
      expect(gcsDiagnosis(code, ctx, 'refused').what).toMatch(/^Google's token endpoint /);
      expect(
        gcsDiagnosis(code, { ...ctx, tokenUri: 'https://oauth2.googleapis.com/token' }, 'refused').what,
      ).toMatch(/^Google's token endpoint /);
      const other = gcsDiagnosis(code, { ...ctx, tokenUri: 'https://idp.example.com/token' }, 'refused');
      expect(other.what).toMatch(
        /^The token endpoint https:\/\/idp\.example\.com\/token \(the key file's token_uri\) /,
      );
    }
  });

  it('every code yields a one-line, schema-valid diagnosis', () => {
    for (const code of Object.keys(GCS_DIAGNOSES) as GcsDiagnosisCode[]) {
      const d = gcsDiagnosis(code, {
        step: 'storage.put',
        bucket: 'lake',
        key: 'olake/.floe-probe/x',
        base: 'https://storage.googleapis.com',
        timeoutMs: 1000,
        timedOut: false,
      });
      expect(() => diagnosisSchema.parse(d)).not.toThrow();
      for (const line of [d.what, d.cause, d.remedy, GCS_DIAGNOSES[code]]) {
        expect(line.length).toBeGreaterThan(10);
        expect(line).not.toContain('\n');
        expect(line).not.toContain('undefined');
      }
    }
  });
});
