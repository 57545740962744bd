// floe's own catalog chain against the sandbox in every flavour: with the flavour's facts
// (SANDBOX_CATALOGS) every catalog step passes; with an s3:// location as the warehouse, the servers
// that name warehouses otherwise refuse it, as the real ones do (Nessie and the generic catalog
// take a location).
import { describe, expect, it } from 'vitest';
import type { FieldId, Values } from '../../src/destination/fields.js';
import {
  CATALOG_FLAVOURS,
  type CatalogFlavour,
  SANDBOX,
  SANDBOX_CATALOGS,
  type Sandbox,
  sandboxValues,
  startSandbox,
} from '../../src/sandbox/index.js';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY } from '../../src/sandbox/s3.js';
import { runChain, values } from '../catalog/helpers.js';

/** The profile field the client sends as `?warehouse=`. */
const WAREHOUSE_FIELD: FieldId = 'warehouse';

function profile(sandbox: Sandbox, flavour: CatalogFlavour, warehouse: string): Values {
  const facts = SANDBOX_CATALOGS[flavour];
  const common = { catalogUrl: sandbox.catalog.url, [WAREHOUSE_FIELD]: warehouse };
  if (facts.auth === 'oauth2')
    return values('oauth2', {
      ...common,
      oauth2Uri: sandbox.catalog.tokenUrl,
      credential: `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
      scope: String(facts.scope),
    });
  if (facts.auth === 'token') return values('token', { ...common, token: SANDBOX.token });
  if (facts.auth === 'google') {
    const google = sandboxValues(sandbox);
    return { ...google, fields: { ...google.fields, ...common } };
  }
  return values('sigv4', {
    ...common,
    signingName: String(facts.signingName),
    signingRegion: SANDBOX.region,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
  });
}

const TAKES_A_LOCATION: CatalogFlavour[] = ['rest', 'nessie'];

describe.each(CATALOG_FLAVOURS)('floe test against floe sandbox --catalog %s', (flavour) => {
  it('passes with the flavour facts; an s3:// warehouse only where the server takes a location', async () => {
    const sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 0, catalog: flavour });
    try {
      const right = await runChain(profile(sandbox, flavour, SANDBOX_CATALOGS[flavour].warehouse));
      expect(right.diagnoses).toEqual([]);
      expect(right.step('catalog.namespaces').state).toBe('ok');
      const location = await runChain(profile(sandbox, flavour, SANDBOX_CATALOGS[flavour].dataLocation));
      // BigLake's warehouse is its gs:// location itself.
      if (TAKES_A_LOCATION.includes(flavour) || flavour === 'biglake') expect(location.diagnoses).toEqual([]);
      else expect(location.diagnoses.map((d) => d.code)).toEqual(['CATALOG_WAREHOUSE_NOT_FOUND']);
    } finally {
      await sandbox.stop();
    }
  });
});
