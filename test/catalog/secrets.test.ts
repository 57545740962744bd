// No secret reaches a trace, a diagnosis, a step detail or a warning: sentinel values are planted in
// every secret field, and servers that echo them back are scrubbed too.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { type RunResult, runChain, values } from './helpers.js';

const TOKEN = 'SENTINEL-token-7f3a9c';
const CLIENT_SECRET = 'SENTINEL-client-secret-55e1';
const SECRET_KEY = 'SENTINEL-secret-key-0b7d';
const WRONG_SECRET = 'SENTINEL-wrong-secret-91aa';

let emulator: CatalogEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: CatalogEmulatorOptions): Promise<CatalogEmulator> {
  emulator = await startCatalogEmulator(options);
  return emulator;
}

/** Bearer tokens the emulator saw, i.e. the tokens floe was issued. */
function bearers(emu: CatalogEmulator): string[] {
  return emu.requests.flatMap((r) => /^Bearer (\S+)$/.exec(r.headers.authorization ?? '')?.[1] ?? []);
}

function expectNoSecrets(result: RunResult, secrets: string[]): void {
  const text = JSON.stringify(result.events);
  expect(result.events.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('secrets stay out of events', () => {
  it('token: success, and a server that echoes the token in its error', async () => {
    const emu = await start({ auth: 'bearer', tokens: [TOKEN] });
    const v = values('token', { catalogUrl: emu.url, token: TOKEN });
    const ok = await runChain(v);
    expect(ok.diagnoses).toEqual([]);
    expect(ok.traces[0]!.requestHeaders.authorization).toBe('[redacted]');
    expectNoSecrets(ok, [TOKEN]);

    emu.setFault(
      {
        kind: 'json',
        status: 401,
        body: { error: { message: `token ${TOKEN} is revoked`, type: 'NotAuthorizedException', code: 401 } },
      },
      'config',
    );
    const failed = await runChain(v);
    expect(failed.diagnoses[0]!.evidence.extra?.message).toBe('token [redacted] is revoked');
    expectNoSecrets(failed, [TOKEN]);
  });

  it('oauth2: the client secret and the issued token, on success and on failure', async () => {
    const emu = await start({ auth: 'bearer', clients: [{ id: 'olake', secret: CLIENT_SECRET }] });
    const ok = await runChain(
      values('oauth2', {
        catalogUrl: emu.url,
        oauth2Uri: emu.tokenUrl,
        credential: `olake:${CLIENT_SECRET}`,
      }),
    );
    expect(ok.diagnoses).toEqual([]);
    const issued = bearers(emu);
    expect(issued).toHaveLength(2);
    expectNoSecrets(ok, [CLIENT_SECRET, ...issued]);

    emu.setFault(
      {
        kind: 'json',
        status: 401,
        body: { error: 'invalid_client', error_description: `bad secret ${WRONG_SECRET}` },
      },
      'token',
    );
    const failed = await runChain(
      values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: `olake:${WRONG_SECRET}` }),
    );
    expect(failed.diagnoses.map((d) => d.code)).toEqual(['CATALOG_OAUTH_INVALID_CLIENT']);
    expect(failed.diagnoses[0]!.evidence.extra?.message).toBe('bad secret [redacted]');
    expectNoSecrets(failed, [WRONG_SECRET, `olake:${WRONG_SECRET}`]);
  });

  it('floe’s own cause and remedy are not mangled by a short secret that is an ordinary word', async () => {
    const emu = await start({ auth: 'bearer', clients: [{ id: 'olake', secret: 'right' }] });
    const result = await runChain(
      values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:wrong' }),
    );
    expect(result.diagnoses[0]!.cause).toBe(
      'The client id or secret in REST Credential is wrong, or the secret was rotated.',
    );
  });

  it('sigv4: the secret key and the signature header', async () => {
    const emu = await start({
      auth: 'sigv4',
      sigv4: {
        service: 'glue',
        region: 'us-east-1',
        keys: [{ accessKeyId: 'AKIAFLOETEST', secretAccessKey: SECRET_KEY }],
      },
    });
    const base = {
      catalogUrl: emu.url,
      signingName: 'glue',
      signingRegion: 'us-east-1',
      accessKey: 'AKIAFLOETEST',
    };
    const ok = await runChain(values('sigv4', { ...base, secretKey: SECRET_KEY }));
    expect(ok.diagnoses).toEqual([]);
    const signatures = emu.requests.map(
      (r) => /Signature=(\w+)/.exec(r.headers.authorization ?? '')?.[1] ?? 'none',
    );
    expectNoSecrets(ok, [SECRET_KEY, ...signatures]);
    const failed = await runChain(values('sigv4', { ...base, secretKey: WRONG_SECRET }));
    expect(failed.diagnoses.map((d) => d.code)).toEqual(['CATALOG_SIGV4_SIGNATURE_MISMATCH']);
    expectNoSecrets(failed, [WRONG_SECRET]);
  });

  it('google: the private key, the signed assertion and the issued token', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const email = 'olake@floe-test.iam.gserviceaccount.com';
    const emu = await start({
      auth: 'bearer',
      tokenPath: '/token',
      serviceAccounts: [
        { clientEmail: email, publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string },
      ],
    });
    const json = JSON.stringify({ client_email: email, private_key: pem, token_uri: emu.tokenUrl });
    const ok = await runChain(values('google', { catalogUrl: emu.url, gcpServiceAccountJson: json }));
    expect(ok.diagnoses).toEqual([]);
    const assertion = new URLSearchParams(emu.requests[0]!.body).get('assertion')!;
    const keyBody = pem.split('\n')[1]!;
    expectNoSecrets(ok, [keyBody, assertion, ...bearers(emu)]);
  });

  it('URLs lose userinfo and credential-like query values', async () => {
    const emu = await start({});
    emu.setFault({ kind: 'redirect', location: `/login?access_token=${TOKEN}&next=%2F` }, 'config');
    const withUser = emu.url.replace('http://', `http://admin:${CLIENT_SECRET}@`);
    const result = await runChain(values('none', { catalogUrl: withUser }));
    expect(result.diagnoses.map((d) => d.code)).toEqual(['CATALOG_REDIRECT']);
    expect(result.diagnoses[0]!.evidence.extra?.location).toBe(
      `${emu.origin}/login?access_token=%5Bredacted%5D&next=%2F`,
    );
    expectNoSecrets(result, [TOKEN, CLIENT_SECRET]);
  });
});
