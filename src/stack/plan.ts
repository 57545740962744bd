// What a local test stack needs, taken from a profile where it has the value and made up otherwise:
// the warehouse (the profile's data location) and its bucket, the region, and the object-store keys.
import { randomBytes } from 'node:crypto';
import type { Values } from '../destination/fields.js';
import { FloeError } from '../errors.js';
import { parseS3Path, profileDataLocation } from '../storage/s3path.js';

export const DEFAULTS = { bucket: 'warehouse', region: 'us-east-1' } as const;
export const DATABASE = { name: 'iceberg_catalog', user: 'iceberg' } as const;
export const NETWORK = 'olake-network';
export const HOST_URLS = { catalog: 'http://localhost:8181', s3: 'http://localhost:9000' } as const;

/** Names of the secrets in `.env`; floe reads the two FLOE_* ones itself (`floe setup`, `floe test`). */
export const ENV = {
  accessKey: 'FLOE_ACCESS_KEY',
  secretKey: 'FLOE_SECRET_KEY',
  dbPassword: 'POSTGRES_PASSWORD',
} as const;

export interface StackSettings {
  /** The profile the stack was made for, if any. */
  profile?: string;
  /** `CATALOG_WAREHOUSE`: the profile's S3 Path, or `s3://<bucket>`. */
  warehouse: string;
  bucket: string;
  region: string;
}

export interface StackSecrets {
  accessKey: string;
  secretKey: string;
  dbPassword: string;
}

export interface StackPlan {
  settings: StackSettings;
  secrets: StackSecrets;
  /** Whether the object-store keys are the profile's own (so the profile works against the stack). */
  profileKeys: boolean;
  /** Lines to tell the user about choices made for them. */
  notes: string[];
}

export interface ProfileInput {
  name: string;
  values: Values;
}

export type Random = (bytes: number) => string;
const randomHex: Random = (bytes) => randomBytes(bytes).toString('hex');

/** S3's bucket naming rule, which MinIO enforces (and which keeps the name safe in a shell line). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** MinIO's own limits on its root credentials. */
const MIN_ACCESS_KEY = 3;
const MIN_SECRET_KEY = 8;
/** Kept verbatim inside single quotes by both docker compose's .env parser and a POSIX shell. */
const ENV_SAFE = /^[\x21-\x26\x28-\x5b\x5d-\x7e]+$/;

function text(values: Values, id: 'region' | 'accessKey' | 'secretKey'): string {
  const value = values.fields[id];
  return typeof value === 'string' ? value.trim() : '';
}

function profileKeys(profile: ProfileInput): { accessKey: string; secretKey: string } | null {
  const accessKey = text(profile.values, 'accessKey');
  const secretKey = text(profile.values, 'secretKey');
  if (!accessKey || !secretKey) return null;
  const problems: string[] = [];
  if (accessKey.length < MIN_ACCESS_KEY)
    problems.push(`an access key of at least ${MIN_ACCESS_KEY} characters`);
  if (secretKey.length < MIN_SECRET_KEY)
    problems.push(`a secret key of at least ${MIN_SECRET_KEY} characters`);
  if (!ENV_SAFE.test(accessKey) || !ENV_SAFE.test(secretKey))
    problems.push('keys without quotes, backslashes, spaces or control characters');
  if (problems.length > 0)
    throw new FloeError(
      `The keys of profile "${profile.name}" cannot be the local object store's keys: MinIO needs ${problems.join(' and ')}.`,
      `Change the profile's keys with "floe setup --profile ${profile.name}", or run "floe stack" for another profile.`,
    );
  return { accessKey, secretKey };
}

export function planStack(profile: ProfileInput | undefined, random: Random = randomHex): StackPlan {
  const notes: string[] = [];
  const warehouse = (profile && profileDataLocation(profile.values)?.url) || '';
  const location = warehouse ? parseS3Path(warehouse) : null;
  if (profile && !location)
    notes.push(
      `Profile "${profile.name}" names no s3:// location (Data Location, or a Warehouse that is one): the stack uses s3://${DEFAULTS.bucket}.`,
    );
  const bucket = location?.bucket ?? DEFAULTS.bucket;
  const region = (profile && text(profile.values, 'region')) || DEFAULTS.region;
  const fix = `Fix it with "floe setup --profile ${profile?.name}".`;
  if (!BUCKET.test(bucket))
    throw new FloeError(
      `The bucket "${bucket}" of profile "${profile?.name}" is not a valid S3 bucket name (3–63 lowercase letters, digits, dots, hyphens).`,
      fix,
    );
  if (!REGION.test(region))
    throw new FloeError(`The region "${region}" of profile "${profile?.name}" is not a region name.`, fix);
  const settings: StackSettings = {
    ...(profile ? { profile: profile.name } : {}),
    warehouse: location ? warehouse : `s3://${bucket}`,
    bucket,
    region,
  };
  // An AWS profile's keys are real AWS credentials: they are not copied into a local test stack.
  const keys = profile && profile.values.storage === 's3-compatible' ? profileKeys(profile) : null;
  if (profile && !keys)
    notes.push(
      profile.values.storage === 'aws'
        ? `Profile "${profile.name}" uses AWS S3: its keys are not copied; the stack has generated keys.`
        : `Profile "${profile.name}" has no keys: the stack has generated keys.`,
    );
  const secrets: StackSecrets = {
    accessKey: keys?.accessKey ?? `floe${random(8)}`,
    secretKey: keys?.secretKey ?? random(20),
    dbPassword: random(16),
  };
  return { settings, secrets, profileKeys: keys !== null, notes };
}
