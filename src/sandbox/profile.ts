// The sandbox as a destination profile: the catalog's flavour as the preset, with the flavour's facts
// (warehouse, auth, token URL, signing name), and s3rver as the object store. Used for the `sandbox`
// profile (`floe sandbox --open`, the banner's `floe setup` line) and the seeded OLake UI jobs' destination.
import type { Values } from '../destination/fields.js';
import { fillFromPreset } from '../destination/presets.js';
import { normalize } from '../destination/schema.js';
import type { CatalogFlavour } from './catalog/index.js';
import { SANDBOX } from './credentials.js';
import type { SandboxCatalogFacts } from './index.js';

export interface SandboxEndpoints {
  flavour: CatalogFlavour;
  facts: SandboxCatalogFacts;
  catalogUrl: string;
  tokenUrl: string;
  s3: { url: string; accessKey: string; secretKey: string };
}

export function sandboxProfile({ flavour, facts, catalogUrl, tokenUrl, s3 }: SandboxEndpoints): Values {
  const auth: Values['fields'] =
    facts.auth === 'oauth2'
      ? {
          oauth2Uri: tokenUrl,
          credential: `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
          scope: String(facts.scope),
        }
      : facts.auth === 'token'
        ? { token: SANDBOX.token }
        : { signingName: String(facts.signingName), signingRegion: SANDBOX.region };
  return normalize(
    fillFromPreset({
      preset: flavour,
      authType: facts.auth,
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl,
        warehouse: facts.warehouse,
        dataLocation: facts.dataLocation,
        region: SANDBOX.region,
        ...auth,
        s3Endpoint: s3.url,
        accessKey: s3.accessKey,
        secretKey: s3.secretKey,
      },
    }),
  );
}
