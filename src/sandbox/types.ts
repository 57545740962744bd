// What the sandbox is made of, as startSandbox returns it.
import type { CatalogEmulator, CatalogFlavour, Privilege } from './catalog/index.js';
import type { GcsEmulator } from './gcs.js';
import type { SandboxLog } from './log.js';
import type { OlakeUiEmulator } from './olake-ui/index.js';
import type { SandboxPorts } from './ports.js';
import type { SandboxCatalogFacts } from './profile.js';
import type { S3Server } from './s3.js';
import type { SandboxTables } from './seeding.js';

export interface SandboxOptions {
  ports?: SandboxPorts;
  /** Seeded OLake UI jobs; default 50. */
  jobs?: number;
  /** The catalog's flavour; default `rest` (`floe sandbox` itself defaults to `polaris`). */
  catalog?: CatalogFlavour;
  /** Privileges the catalog's principal lacks: those operations get the flavour's refusal. */
  deny?: Privilege[];
  /**
   * Seed the demo tables (seed-tables.ts demoTables) in the background, as `floe sandbox` does: the
   * sandbox answers at once and the tables appear one by one (the 110-snapshot one takes the longest).
   */
  tables?: boolean;
  /** Where the emulators' requests and errors go; default a new log (Sandbox.log). */
  log?: SandboxLog;
}

export interface SandboxCatalog {
  flavour: CatalogFlavour;
  /** The privileges the catalog refuses (SandboxOptions.deny). */
  deny: Privilege[];
  /** The flavour's connection facts (SANDBOX_CATALOGS). */
  facts: SandboxCatalogFacts;
  /** The REST catalog URL (with its base path). */
  url: string;
  port: number;
  /**
   * The OAuth2 token endpoint of the flavour (facts.tokenPath); for token and SigV4 flavours the
   * spec's default `<url>/v1/oauth/tokens`, which those servers do not serve.
   */
  tokenUrl: string;
  /**
   * `rest` and `biglake`: a Google service-account key file (JSON, mode 0600) the catalog accepts for
   * the Google auth type; its token_uri is the bearer emulator's own token endpoint (`rest`) or the GCS
   * emulator's (`biglake`, whose storage takes the same key).
   */
  serviceAccountFile?: string;
  /**
   * The emulators behind the front that answer unsigned and SigV4-signed requests (for tests:
   * recorded requests, faults). Outside `rest` both are the flavour's one emulator.
   */
  bearer: CatalogEmulator;
  sigv4: CatalogEmulator;
}

export interface SandboxOlake {
  url: string;
  port: number;
  emulator: OlakeUiEmulator;
}

export interface Sandbox {
  /** The temporary directory holding the objects and the key file; removed by stop(). */
  directory: string;
  catalog: SandboxCatalog;
  s3: S3Server;
  /** `biglake`: Cloud Storage (its url is what STORAGE_EMULATOR_HOST names). */
  gcs?: GcsEmulator;
  olake: SandboxOlake;
  /** One sentence per service moved off its preferred port, e.g. "8181 is busy; the catalog is on 8182". */
  notices: string[];
  /** The demo tables being seeded (SandboxOptions.tables); undefined when not asked for. */
  tables?: SandboxTables;
  /** Every request the emulators answered and every error they failed with. */
  log: SandboxLog;
  /** Stops everything and removes the temporary data; safe to call twice. */
  stop(): Promise<void>;
}
