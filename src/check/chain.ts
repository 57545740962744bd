// What a chain of the connection test takes (values, options) and what the chains of one run share
// (locations, the catalog's session). Above the vocabulary (types.ts) the chains emit, so the catalog
// client can use that vocabulary while this file names its session.
import { randomUUID } from 'node:crypto';
import type { CatalogSession } from '../catalog/session.js';
import type { Values } from '../destination/fields.js';
import type { WriteJournal } from './journal.js';
import type { Emit } from './types.js';

/** A location the catalog names: its config's default, a namespace's `location`, a table's location. */
export interface CatalogLocation {
  /** `s3://…` (or `gs://…`). */
  url: string;
  /** The property it came from, e.g. `default-base-location`, `location`. */
  property: string;
  /** Where it came from, as the storage check says it, e.g. `catalog's config (default-base-location)`. */
  from: string;
}

/** What one chain learns that another may need. */
export interface SharedFacts {
  /** This run's id: what its chains journal carries it, so one chain's cleanup leaves another's alone. */
  runId: string;
  /**
   * Resolves once the catalog chain ends: the location its config names (defaults, overrides), else the
   * `location` property of the check namespace, or null.
   */
  catalogLocation: Promise<CatalogLocation | null>;
  setCatalogLocation(location: CatalogLocation | null): void;
  /** Resolves once the write check created its table (its location) or will not (null). */
  tableLocation: Promise<CatalogLocation | null>;
  setTableLocation(location: CatalogLocation | null): void;
  /** Each place asked for a location that named none, and why, e.g. `namespace test_olake does not exist`. */
  locationTried: string[];
  /** How to reach the catalog, once its config was read (the write check uses it). */
  catalogSession?: CatalogSession;
  setCatalogSession(session: CatalogSession): void;
}

/** A promise and the function that settles it (the first call wins). */
function settable<T>(): { promise: Promise<T>; set: (value: T) => void } {
  let set: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    set = resolve;
  });
  return { promise, set };
}

export function sharedFacts(): SharedFacts {
  const catalog = settable<CatalogLocation | null>();
  const table = settable<CatalogLocation | null>();
  const facts: SharedFacts = {
    runId: randomUUID(),
    catalogLocation: catalog.promise,
    setCatalogLocation: catalog.set,
    tableLocation: table.promise,
    setTableLocation: table.set,
    locationTried: [],
    setCatalogSession: (session) => {
      facts.catalogSession = session;
    },
  };
  return facts;
}

/** floe test --write: where the check table goes and whether it stays. */
export interface WriteOptions {
  /** The namespace, one level per element; OLake's check uses ["test_olake"]. */
  namespace: string[];
  /** Leave the table (and its files) in place. */
  keep: boolean;
  /** --cleanup: make nothing; only remove what earlier runs left (from the journal). */
  cleanupOnly?: boolean;
  /** Records what the check makes before it makes it (the config folder's); in memory without one. */
  journal?: WriteJournal;
  /** The profile tested, for the journal and the removal hints. */
  profile?: string;
}

export interface ChainOptions {
  emit: Emit;
  signal: AbortSignal;
  /** Per-request timeout. */
  timeoutMs: number;
  /** The command's environment (io.env): proxy variables, STORAGE_EMULATOR_HOST. */
  env: NodeJS.ProcessEnv;
  /** Storage only: skip PutObject/GetObject/DeleteObject. */
  readOnly?: boolean;
  /** Shared between the chains of one run; absent when a chain runs alone. */
  shared?: SharedFacts;
  /** Catalog only: follow an overrides.uri from https to http even with the bearer token attached. */
  allowInsecureUriOverride?: boolean;
  /** The write chain only: what to create. */
  write?: WriteOptions;
}

/**
 * One half of the connection test. It first emits all its steps as `pending`, then runs them,
 * emitting each state change and a diagnosis for each failure. It never throws; when `signal`
 * aborts it stops and emits its unfinished steps as `cancelled`.
 */
export type Chain = (values: Values, opts: ChainOptions) => Promise<void>;
