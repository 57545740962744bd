// floe profiles: list, show (secrets masked) or delete profiles.

import { deleteProfile, loadProfile } from '../app/profiles.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { printJson } from '../cli/output.js';
import { AUTH_TYPE_INFO, applicableFields, maskSecret } from '../destination/fields.js';

export const ACTIONS = ['list', 'names', 'show', 'delete'] as const;

export const HELP = `Usage: floe profiles [list | names | show NAME | delete NAME] [--json]

  list          every profile: name, authentication type, catalog URL, where its secrets live
  names         the profile names, one per line (for scripts and shell completion)
  show NAME     every field of a profile, secrets masked (•••• plus the last 4 characters)
  delete NAME   remove the profile and its stored secrets
  --json        machine-readable output (never contains a secret)`;

export type Options =
  | { help: true }
  | { help: false; action: 'list'; json: boolean }
  | { help: false; action: 'names'; json: boolean }
  | { help: false; action: 'show' | 'delete'; name: string; json: boolean };

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'profiles',
    argv,
    { json: { type: 'boolean' }, help: { type: 'boolean' } },
    true,
  );
  if (flags.help) return { help: true };
  const [action = 'list', name] = positionals;
  const json = flags.json === true;
  if (action === 'list' || action === 'names') return { help: false, action, json };
  if (!name) throw new UsageError([`"${action}" needs a profile NAME`], 'profiles');
  if (action === 'show' || action === 'delete') return { help: false, action, name, json };
  throw new UsageError([`unknown action "${action}": use ${ACTIONS.join(', ')}`], 'profiles');
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const ctx = await io.openContext();
  if (options.action === 'list') {
    const rows = ctx.config.profileNames().map((n) => {
      const p = ctx.config.getProfile(n)!;
      return {
        name: n,
        authType: p.authType,
        catalogUrl: String(p.fields.catalogUrl ?? ''),
        secrets: p.secretStorage,
        /** Where its secrets are, as the list says it: `none` when it stores none. */
        shown: p.secretStorage !== 'env' && p.storedSecrets.length === 0 ? 'none' : p.secretStorage,
      };
    });
    if (options.json)
      printJson(
        rows.map(({ shown: _, ...row }) => row),
        io.out,
      );
    else if (rows.length === 0) io.out`No profiles yet. Create one with "floe setup".`;
    else for (const r of rows) io.out`${r.name}\t${r.authType}\t${r.catalogUrl}\tsecrets: ${r.shown}`;
    return EXIT.OK;
  }
  if (options.action === 'names') {
    for (const n of ctx.config.profileNames()) io.out`${n}`;
    return EXIT.OK;
  }
  const { name } = options;
  if (options.action === 'show') {
    const profile = await loadProfile(ctx, name);
    const rows = applicableFields(profile.values).map((def) => {
      const value = profile.values.fields[def.id];
      const shown = value === undefined ? '' : def.secret ? maskSecret(String(value)) : String(value);
      return { field: def.label, value: shown };
    });
    if (options.json)
      printJson(
        { name, authType: profile.values.authType, storage: profile.values.storage, fields: rows },
        io.out,
      );
    else {
      io.out`${name}: ${AUTH_TYPE_INFO[profile.values.authType].label}, ${profile.values.storage}`;
      for (const r of rows) io.out`  ${r.field}: ${r.value || '—'}`;
    }
    return EXIT.OK;
  }
  if (!(await deleteProfile(ctx, name))) throw new FloeError(`Profile "${name}" does not exist.`);
  io.err`Deleted profile "${name}" and its stored secrets.`;
  return EXIT.OK;
}
