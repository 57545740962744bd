// Command-line flags for destination fields, derived from the field registry. Secrets have no value
// flag: they come from stdin (`--token-stdin`), a file (`--gcp-service-account-file`) or FLOE_* variables.

import { readStdin, UsageError } from '../cli/io.js';
import { KeyFileError, readKeyFile } from '../config/files.js';
import {
  AUTH_TYPES,
  type AuthType,
  FIELD_BY_ID,
  FIELDS,
  type FieldDef,
  type FieldId,
  fieldText,
  STORAGE_KINDS,
  type StorageKind,
  type Values,
} from '../destination/fields.js';
import { fillFromPreset, PRESET_IDS, PRESETS, type PresetId } from '../destination/presets.js';
import type { FieldIssue } from '../destination/schema.js';
import { fromEnv } from '../secrets/store.js';

type Option = { type: 'string' | 'boolean' };

/** parseArgs options for every destination field plus the choice flags. */
export function destinationOptions(): Record<string, Option> {
  const options: Record<string, Option> = {
    preset: { type: 'string' },
    'auth-type': { type: 'string' },
    storage: { type: 'string' },
    'target-version': { type: 'string' },
  };
  for (const def of FIELDS) {
    if (def.flag) options[def.flag] = { type: def.type === 'boolean' ? 'boolean' : 'string' };
    for (const alias of def.flagAliases ?? []) options[alias] = { type: 'string' };
    if (def.secretFlag)
      options[def.secretFlag] = { type: def.secretFlag.endsWith('-stdin') ? 'boolean' : 'string' };
  }
  return options;
}

/** How a user supplies a field without a prompt, e.g. `--token-stdin or FLOE_TOKEN`. */
export function howToSupply(def: FieldDef): string {
  const ways: string[] = [];
  if (def.flag) ways.push(`--${def.flag}${def.type === 'boolean' ? '' : ' VALUE'}`);
  if (def.secretFlag)
    ways.push(def.secretFlag.endsWith('-stdin') ? `--${def.secretFlag}` : `--${def.secretFlag} PATH`);
  if (def.env) ways.push(def.env);
  return ways.join(' or ');
}

export function destinationFlagHelp(): string {
  const rows: [string, string][] = [
    ['--preset NAME', `${PRESET_IDS.join(' | ')} (default rest)`],
    ['--auth-type TYPE', `${AUTH_TYPES.join(' | ')} (default: the preset's first)`],
    ['--storage KIND', `${STORAGE_KINDS.join(' | ')} (default aws)`],
    ['--target-version V', 'OLake version the destination targets (default latest)'],
  ];
  for (const def of FIELDS) {
    if (def.flag)
      rows.push([
        `--${def.flag}${def.type === 'boolean' ? '' : ' VALUE'}`,
        `${def.label}${def.flagAliases ? ` (also --${def.flagAliases.join(', --')})` : ''}`,
      ]);
    if (def.secretFlag)
      rows.push([
        def.secretFlag.endsWith('-stdin') ? `--${def.secretFlag}` : `--${def.secretFlag} PATH`,
        `${def.label} (secret; or ${def.env})`,
      ]);
  }
  const width = Math.max(...rows.map(([f]) => f.length));
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`).join('\n');
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError([
    `--${flag}: "${value}" is not one of ${allowed.join(', ')} (e.g. --${flag} ${allowed[0]})`,
  ]);
}

/** True when any destination flag was given (so the user means to set values without the wizard). */
export function hasDestinationFlags(parsed: Record<string, unknown>): boolean {
  return Object.keys(destinationOptions()).some((flag) => parsed[flag] !== undefined);
}

/**
 * Applies flags, secret sources and FLOE_* variables on top of `base`. At most one `--*-stdin` flag
 * may be given, since stdin can be read once.
 */
export async function valuesFromFlags(
  parsed: Record<string, string | boolean | undefined>,
  base: Values,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<Values> {
  const values: Values = { ...base, fields: { ...base.fields } };
  if (typeof parsed.preset === 'string') {
    const preset = oneOf<PresetId>('preset', parsed.preset, PRESET_IDS);
    if (preset !== values.preset && !parsed['auth-type']) values.authType = PRESETS[preset].authTypes[0]!;
    values.preset = preset;
  }
  if (typeof parsed['auth-type'] === 'string')
    values.authType = oneOf<AuthType>('auth-type', parsed['auth-type'], AUTH_TYPES);
  if (typeof parsed.storage === 'string')
    values.storage = oneOf<StorageKind>('storage', parsed.storage, STORAGE_KINDS);
  if (typeof parsed['target-version'] === 'string') values.targetVersion = parsed['target-version'];

  const stdinFlags = FIELDS.filter((d) => d.secretFlag?.endsWith('-stdin') && parsed[d.secretFlag] === true);
  if (stdinFlags.length > 1)
    throw new UsageError([
      `only one of ${stdinFlags.map((d) => `--${d.secretFlag}`).join(', ')} can read stdin; pass the others as ${stdinFlags
        .slice(1)
        .map((d) => d.env)
        .join(', ')}`,
    ]);

  for (const def of FIELDS) {
    const alias = def.flagAliases?.find((a) => parsed[a] !== undefined);
    if (alias && def.flag && parsed[def.flag] !== undefined)
      throw new UsageError([`--${alias} is another name for --${def.flag}: give one of them`]);
    const flagValue = def.flag ? (parsed[def.flag] ?? (alias ? parsed[alias] : undefined)) : undefined;
    if (flagValue !== undefined) values.fields[def.id] = flagValue;
    const envValue = def.env ? fromEnv(def.env, env) : undefined;
    if (envValue !== undefined) values.fields[def.id] = envValue;
    if (def.secretFlag && parsed[def.secretFlag] !== undefined) {
      values.fields[def.id] = def.secretFlag.endsWith('-stdin')
        ? await readStdin(`--${def.secretFlag}`, undefined, stdin)
        : await readSecretFile(def.secretFlag, String(parsed[def.secretFlag]));
    }
  }
  if (parsed['auth-type'] === undefined)
    values.authType = impliedAuthType(parsed, values)?.authType ?? values.authType;
  return fillFromPreset(values, base.preset === values.preset ? base : undefined);
}

/**
 * Without --auth-type, the one auth type whose own fields were given as flags (e.g. --credential-stdin
 * means OAuth2), when the preset offers it, with those flags; else undefined. FLOE_* variables imply
 * nothing: they may be set for another profile.
 */
export function impliedAuthType(
  parsed: Record<string, string | boolean | undefined>,
  values: Values,
): { authType: AuthType; by: string[] } | undefined {
  const given = FIELDS.filter(
    (def) =>
      (def.flag !== undefined && parsed[def.flag] !== undefined) ||
      (def.secretFlag !== undefined && parsed[def.secretFlag] !== undefined),
  );
  const implying = given.flatMap((def) => {
    const types = AUTH_TYPES.filter((authType) => def.applies({ ...values, authType }));
    return types.length === 1 ? [{ def, authType: types[0] as AuthType }] : [];
  });
  const implied = new Set(implying.map((i) => i.authType));
  const [only] = implied;
  if (implied.size !== 1 || !only || !PRESETS[values.preset].authTypes.includes(only)) return undefined;
  const by = implying.map(
    ({ def }) => `--${parsed[def.flag ?? ''] !== undefined ? def.flag : def.secretFlag}`,
  );
  return { authType: only, by };
}

/** A key file: a regular file of at most 1 MiB, read within a timeout (never /dev/zero or a FIFO). */
async function readSecretFile(flag: string, path: string): Promise<string> {
  try {
    return (await readKeyFile(path)).trim();
  } catch (error) {
    if (!(error instanceof KeyFileError)) throw error;
    throw new UsageError([
      `--${flag}: cannot read ${path} (${error.message}); give the path of the key file, e.g. --${flag} ./key.json`,
    ]);
  }
}

const CHOICE_FLAGS = {
  preset: 'preset',
  authType: 'auth-type',
  storage: 'storage',
  targetVersion: 'target-version',
} as const;

/** Usage lines for validation issues: missing fields name how to supply them, broken rules name the flag. */
export function issueLines(issues: FieldIssue[], values?: Values): { missing: string[]; invalid: string[] } {
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const issue of issues) {
    const def = issue.field in FIELD_BY_ID ? FIELD_BY_ID[issue.field as FieldId] : undefined;
    if (def && issue.rule.startsWith('is required')) {
      missing.push(
        `missing ${fieldText(def, values).label}: pass ${howToSupply(def)}${issue.rule === 'is required' ? '' : ` (${issue.rule})`}`,
      );
    } else {
      const flag = def
        ? (def.flag ?? def.secretFlag)
        : CHOICE_FLAGS[issue.field as keyof typeof CHOICE_FLAGS];
      invalid.push(`--${flag}: ${issue.message}`);
    }
  }
  return { missing, invalid };
}
