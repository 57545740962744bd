// The sandbox as a destination profile: the catalog's flavour as the preset, with the flavour's facts
// (warehouse, auth, token URL, signing name), and s3rver as the object store. Used for the `sandbox`
// profile (`floe sandbox --open`, the banner's `floe setup` line) and the seeded OLake UI jobs' destination.
import { readFileSync } from 'node:fs';
import type { Values } from '../destination/fields.js';
import { fillFromPreset } from '../destination/presets.js';
import { normalize } from '../destination/schema.js';
import type { CatalogFlavour } from './catalog/index.js';
import { SANDBOX } from './credentials.js';

/** What a profile needs to reach the sandbox's catalog in one flavour. */
export interface SandboxCatalogFacts {
  /** The real server the flavour models. */
  title: string;
  /** The REST API's base path on the catalog port (the catalog URL is origin + basePath). */
  basePath: string;
  /** The `warehouse` the client sends (OLake's iceberg_s3_path). */
  warehouse: string;
  /** Where the data goes: s3rver's bucket; Polaris and Nessie also report it in their config. */
  dataLocation: string;
  /** The auth type a profile uses (google: the sandbox's service-account key file, storage on GCS). */
  auth: 'oauth2' | 'token' | 'sigv4' | 'google';
  /** oauth2: the token endpoint's path on the catalog's origin. */
  tokenPath?: string;
  /** oauth2: the scope to request. */
  scope?: string;
  /** sigv4: the signing name (the region is SANDBOX.region; the keys are s3rver's). */
  signingName?: string;
  /** Where /v1/config puts the prefix, as the server sends it (for the banner). */
  prefix: string;
}

export interface SandboxEndpoints {
  flavour: CatalogFlavour;
  facts: SandboxCatalogFacts;
  catalogUrl: string;
  tokenUrl: string;
  s3: { url: string; accessKey: string; secretKey: string };
  /** The service-account key file (Sandbox catalog.serviceAccountFile): what a google profile holds. */
  serviceAccountFile?: string;
}

export function sandboxProfile(endpoints: SandboxEndpoints): Values {
  const { flavour, facts, catalogUrl, tokenUrl, s3 } = endpoints;
  if (facts.auth === 'google')
    return normalize(
      fillFromPreset({
        preset: flavour,
        authType: 'google',
        storage: 'gcs',
        targetVersion: 'latest',
        fields: {
          catalogUrl,
          warehouse: facts.warehouse,
          gcpServiceAccountJson: readFileSync(String(endpoints.serviceAccountFile), 'utf8'),
          gcpProjectId: SANDBOX.google.projectId,
        },
      }),
    );
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
