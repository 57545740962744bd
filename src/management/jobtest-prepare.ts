// What `floe jobs test` and the jobs browser's test run: the destination config the OLake UI holds for
// a job, with the secrets its copy lacks taken from a local profile of the same catalog (only where that
// profile itself sends them), typed, or reported missing. The command hands in the profiles and journal.
import type { WriteOptions } from '../check/chain.js';
import { FIELDS, type Values } from '../destination/fields.js';
import { FloeError } from '../errors.js';
import type { WriteJournal } from '../write/journal.js';
import { OLAKE_CHECK_NAMESPACE } from '../write/names.js';
import {
  differingKeys,
  JobConfigError,
  missingSecrets,
  movedDestinations,
  parseWriter,
  profileWriter,
  sameCatalog,
  valuesFor,
  type Writer,
} from './jobtest.js';
import { serverText } from './text.js';
import type { JobDetail } from './types.js';

interface LocalProfile {
  name: string;
  writer: Writer;
}

/** The local profiles, as the command loads them (config, secret store, FLOE_* variables). */
export interface LocalProfiles {
  names(): string[];
  /** Throws (a FloeError naming it) when the profile does not exist or cannot be read. */
  load(name: string): Promise<{ name: string; values: Values }>;
}

/** The named profile, or the first one whose catalog URL is the server copy's. */
async function localProfile(
  profiles: LocalProfiles,
  server: Writer,
  wanted: string | undefined,
): Promise<LocalProfile | undefined> {
  if (wanted) {
    const profile = await profiles.load(wanted);
    return { name: profile.name, writer: profileWriter(profile.values) };
  }
  for (const name of profiles.names()) {
    try {
      const profile = await profiles.load(name);
      const writer = profileWriter(profile.values);
      if (sameCatalog(server, writer)) return { name, writer };
    } catch {
      // an unreadable profile is not a match; the explicit --profile reports its error
    }
  }
  return undefined;
}

/** What the connection test of a job's destination needs, with what to tell the user about it. */
export interface PreparedJobTest {
  values: Values;
  title: string;
  notes: string[];
  profile?: string;
  differences?: string[];
  secretsFrom: Record<string, string>;
  /** What the test screen's `w` uses: the config folder's journal, the matched profile. */
  writeWith: Omit<WriteOptions, 'keep' | 'cleanupOnly'>;
}

/** Secrets the server's copy lacks that no local profile supplies: to be typed, then passed as `typed`. */
export interface SecretsToType {
  missing: { key: string; label: string }[];
}

interface PrepareOptions {
  /** Where hidden secrets may come from. */
  profiles: LocalProfiles;
  /** The config folder's write journal (what the test screen's `w` records first). */
  journal: WriteJournal;
  profile?: string;
  /** Asks for a secret on a terminal (`why`: the local profile's was withheld); undefined or '' when none. */
  ask?: (key: string, why?: string) => Promise<string | undefined>;
  /** Secrets already typed (held in memory only), by writer key. */
  typed?: Readonly<Record<string, string>>;
  /** Report the secrets still missing (as SecretsToType) instead of failing. */
  collect?: boolean;
}

const secretLabel = (key: string) => FIELDS.find((f) => f.writerKey === key)?.label ?? key;

/**
 * Reads the destination config of the job's detail; secrets its copy lacks come from the local profile
 * (named, or of the same catalog URL), else from `typed` or `ask` (a terminal), else it reports them
 * (`collect`) or fails naming the key.
 */
export async function prepareJobTest(
  job: JobDetail,
  opts: PrepareOptions & { collect: true },
): Promise<PreparedJobTest | SecretsToType>;
export async function prepareJobTest(job: JobDetail, opts: PrepareOptions): Promise<PreparedJobTest>;
export async function prepareJobTest(
  job: JobDetail,
  opts: PrepareOptions,
): Promise<PreparedJobTest | SecretsToType> {
  const label = serverText(`"${job.destination.name}" of job ${job.id} (${job.name})`);
  let server: Writer;
  try {
    server = parseWriter(job.destination.config);
  } catch (error) {
    if (error instanceof JobConfigError) throw new FloeError(`The destination ${label}: ${error.message}.`);
    throw error;
  }
  const local = await localProfile(opts.profiles, server, opts.profile);
  const filled: Writer = {};
  const from: Record<string, string> = {};
  const unresolved: string[] = [];
  const withheld: string[] = [];
  const reasons: Record<string, string> = {};
  for (const key of missingSecrets(server)) {
    const value = local?.writer[key];
    // The server's copy may point the secret elsewhere (another token URL or S3 endpoint): a local
    // secret only ever goes where its own profile sends it, so it is then typed, not taken.
    const moved = local ? movedDestinations(server, local.writer, key) : [];
    if (typeof value === 'string' && value !== '' && moved.length === 0) {
      filled[key] = value;
      from[key] = `profile "${local?.name}"`;
      continue;
    }
    const why =
      moved.length > 0
        ? `not taken from profile "${local?.name}", which sends it to ${moved.map((m) => `${serverText(m.local)} (${m.key})`).join(', ')}, while the OLake UI's copy sends it to ${moved.map((m) => serverText(m.server)).join(', ')}`
        : undefined;
    if (why) {
      withheld.push(`${key}: ${why}.`);
      reasons[key] = why;
    }
    const typed = opts.typed?.[key] || (await opts.ask?.(key, why));
    if (!typed) {
      if (!opts.collect)
        throw new FloeError(
          `The OLake UI's copy of the destination ${label} has no usable ${key}.${withheld.length > 0 ? ` ${withheld.join(' ')}` : ''}`,
          `Name a local profile of the same catalog with --profile NAME, or run "floe jobs test ${job.id}" on a terminal to type it (it is not saved).`,
        );
      unresolved.push(key);
      continue;
    }
    filled[key] = typed;
    from[key] = 'typed';
  }
  if (unresolved.length > 0)
    return {
      missing: unresolved.map((key) => ({
        key,
        label: reasons[key] ? `${secretLabel(key)} (${reasons[key]})` : secretLabel(key),
      })),
    };
  let values: Values;
  try {
    values = valuesFor(server, filled);
  } catch (error) {
    if (error instanceof JobConfigError) throw new FloeError(`The destination ${label}: ${error.message}.`);
    throw error;
  }
  // Compared as floe would write both, so defaults the server's copy leaves out do not count.
  const differences = local ? differingKeys(profileWriter(values), local.writer) : undefined;
  const notes = [
    `Testing the destination ${label} as the OLake UI holds it; nothing is saved.`,
    ...(local
      ? [
          `Local profile "${local.name}" uses the same catalog${differences && differences.length > 0 ? `; these keys differ: ${differences.join(', ')}` : '; no other key differs'}.`,
        ]
      : []),
    ...Object.entries(from).map(
      ([key, source]) => `${key}: taken from ${source === 'typed' ? 'what you typed' : source}.`,
    ),
    ...withheld,
  ];
  return {
    values,
    title: `job ${job.id} · ${serverText(job.destination.name)}`,
    notes,
    profile: local?.name,
    differences,
    secretsFrom: from,
    writeWith: {
      namespace: [OLAKE_CHECK_NAMESPACE],
      journal: opts.journal,
      profile: local?.name ?? '',
    },
  };
}
