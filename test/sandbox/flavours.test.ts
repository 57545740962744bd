// startSandbox in every catalog flavour: the facts in SANDBOX_CATALOGS (warehouse, token path, scope,
// signing name, data location) are exactly what that flavour's catalog accepts, end to end through
// the sandbox's front: token, /v1/config, then the namespaces under the prefix the config gives; and
// the banner prints them.
import { describe, expect, it } from 'vitest';
import { banner, usageLines } from '../../src/sandbox/demo.js';
import { CATALOG_FLAVOURS, SANDBOX, SANDBOX_CATALOGS, startSandbox } from '../../src/sandbox/index.js';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY } from '../../src/sandbox/s3.js';
import { type Answer, authHeaders, errorOf, send } from './support.js';

interface Config {
  defaults: Record<string, string>;
  overrides: Record<string, string>;
}

describe.each(CATALOG_FLAVOURS)('floe sandbox --catalog %s', (flavour) => {
  it('accepts its own facts and lists the namespaces under the advertised prefix', async () => {
    const sandbox = await startSandbox({
      ports: { catalog: 0, olake: 0, s3: 0, gcs: 0 },
      jobs: 0,
      catalog: flavour,
    });
    try {
      const facts = SANDBOX_CATALOGS[flavour];
      expect(sandbox.catalog.flavour).toBe(flavour);
      expect(sandbox.catalog.url).toBe(`http://127.0.0.1:${sandbox.catalog.port}${facts.basePath}`);
      expect(facts.dataLocation).toBe(`${flavour === 'biglake' ? 'gs' : 's3'}://${sandbox.s3.bucket}`);
      const sign =
        facts.auth === 'sigv4'
          ? {
              accessKeyId: S3RVER_ACCESS_KEY,
              secretAccessKey: S3RVER_SECRET_KEY,
              service: String(facts.signingName),
              region: SANDBOX.region,
            }
          : undefined;
      let headers: Record<string, string> = {};
      if (facts.auth === 'token') headers = { authorization: `Bearer ${SANDBOX.token}` };
      if (facts.auth === 'google') headers = await authHeaders(sandbox, flavour);
      if (facts.auth === 'oauth2') {
        expect(sandbox.catalog.tokenUrl).toBe(`http://127.0.0.1:${sandbox.catalog.port}${facts.tokenPath}`);
        const token = await send('POST', sandbox.catalog.tokenUrl, {
          form: {
            grant_type: 'client_credentials',
            client_id: SANDBOX.oauth.clientId,
            client_secret: SANDBOX.oauth.clientSecret,
            scope: String(facts.scope),
          },
        });
        expect(token.status, token.text).toBe(200);
        headers = { authorization: `Bearer ${(token.body as { access_token: string }).access_token}` };
      }
      const get = (url: string): Promise<Answer> => send('GET', url, { headers, ...(sign ? { sign } : {}) });

      const config = await get(
        `${sandbox.catalog.url}/v1/config?warehouse=${encodeURIComponent(facts.warehouse)}`,
      );
      expect(config.status, config.text).toBe(200);
      const { defaults, overrides } = config.body as Config;
      const merged = { ...defaults, ...overrides };
      if (flavour === 'polaris') expect(defaults['default-base-location']).toBe(facts.dataLocation);
      if (flavour === 'nessie') expect(defaults.warehouse).toBe(facts.dataLocation);
      const base = (merged.uri ?? sandbox.catalog.url).replace(/\/$/, '');
      const list = await get(`${base}/v1/${merged.prefix}/namespaces`);
      expect(list.status, list.text).toBe(200);
      expect((list.body as { namespaces: string[][] }).namespaces).toEqual([['default'], ['olake']]);

      const printed = banner(sandbox, 0);
      // A long value continues on the next line under its column.
      const joined = printed.replace(/\n {15}/g, ' ');
      expect(printed).toContain(`REST catalog   ${sandbox.catalog.url}\n  behaves like ${facts.title}`);
      expect(joined).toContain(`warehouse    ${facts.warehouse} (data location ${facts.dataLocation})`);
      expect(joined.includes(`token URI ${sandbox.catalog.tokenUrl}`)).toBe(facts.auth === 'oauth2');
      if (facts.scope) expect(joined).toContain(`scope ${facts.scope}`);
      expect(printed.includes(`token ${SANDBOX.token}`)).toBe(facts.auth === 'token' || flavour === 'rest');
      expect(printed.includes('signing name')).toBe(facts.auth === 'sigv4' || flavour === 'rest');
      if (facts.signingName) expect(printed).toContain(`signing name ${facts.signingName}`);
      expect(printed.includes('service-account key file')).toBe(flavour === 'rest' || flavour === 'biglake');
      expect(printed.includes(`GCS            ${sandbox.gcs?.url} (as STORAGE_EMULATOR_HOST)`)).toBe(
        flavour === 'biglake',
      );
      // 80 columns: the banner and the lines to paste fit, whatever the flavour, but for a single word
      // longer than that (a URL) on a line of its own.
      for (const line of `${printed}\n${usageLines(sandbox, 'npx floe')}`.split('\n'))
        if ([...line].length > 80) expect(line.trim().split(/\s+/), line).toHaveLength(1);

      // Nobody is let in without credentials, even on a path that does not exist.
      const anonymous = await send('GET', `${sandbox.catalog.url}/v1/no-such-route`);
      expect(errorOf(anonymous).status).toBe(facts.auth === 'sigv4' ? 403 : 401);
    } finally {
      await sandbox.stop();
    }
  });
});
