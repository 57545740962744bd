// floe secrets: where this config folder keeps secrets, and the one explicit way to change it, which moves
// every stored secret (each profile's, the OLake UI session's) through the save protocol of shadow.ts.

import { describeSaved, secretsFromEnv } from '../app/secrets-choice.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { printJson } from '../cli/output.js';
import { profileValues, type SecretsChoice } from '../config/store.js';
import {
  managementEntries,
  newGeneration,
  profileEntries,
  type Store,
  switchSecrets,
  transaction,
} from '../secrets/shadow.js';
import { accounts, KeychainUnavailableError } from '../secrets/store.js';

export const HELP = `Usage: floe secrets [--json]
       floe secrets use keychain|file

Says where this config folder keeps secrets: the OS keychain, or the plaintext file (mode 0600)
once you chose it (--insecure-storage or "file" at a prompt, remembered per folder). Saving commands
(setup, login, pull, import) then need no flag. FLOE_SECRETS=keychain|file overrides it for one run.

  use keychain|file   remember the choice and move every stored secret there (profiles and the
                      OLake UI session); a profile kept in FLOE_* variables stays so
  --json              machine-readable output (never contains a secret)`;

const CHOICES: readonly SecretsChoice[] = ['keychain', 'file'];

export type Options =
  | { help: true }
  | { help: false; action: 'show'; json: boolean }
  | { help: false; action: 'use'; target: SecretsChoice };

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'secrets',
    argv,
    { json: { type: 'boolean' }, help: { type: 'boolean' } },
    true,
  );
  if (flags.help) return { help: true };
  const [action, target, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError([`unexpected argument "${extra[0]}"`], 'secrets');
  if (action === undefined) return { help: false, action: 'show', json: flags.json === true };
  if (action !== 'use') throw new UsageError([`unknown action "${action}": use "use"`], 'secrets');
  if (target !== 'keychain' && target !== 'file')
    throw new UsageError(
      [`"use" takes ${CHOICES.join(' or ')} (e.g. floe secrets use file), not "${target ?? ''}"`],
      'secrets',
    );
  return { help: false, action: 'use', target };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const fromEnv = secretsFromEnv('secrets', io.env);
  const ctx = await io.openContext();
  if (options.action === 'show') {
    const chosen = ctx.config.secretsChoice();
    const now = fromEnv ?? chosen ?? 'keychain';
    const where = ctx.config.profileNames().map((name) => {
      const profile = ctx.config.getProfile(name)!;
      return { profile: name, secrets: profile.storedSecrets.length === 0 ? 'none' : profile.secretStorage };
    });
    const session = ctx.config.getManagement()?.secretStorage;
    if (options.json) {
      printJson(
        {
          newSecrets: now,
          source: fromEnv ? 'FLOE_SECRETS' : chosen ? 'chosen' : 'default',
          file: ctx.config.secretsPath,
          profiles: where,
          session: session ?? 'none',
        },
        io.out,
      );
      return EXIT.OK;
    }
    const why = fromEnv ? ' (FLOE_SECRETS)' : chosen ? ' (chosen for this config folder)' : ' (the default)';
    io.out`New secrets go ${describeSaved(ctx, now)}${why}.`;
    for (const row of where) io.out`  profile ${row.profile}: ${row.secrets}`;
    if (session) io.out`  OLake UI session: ${session}`;
    io.out`Change with "floe secrets use ${now === 'file' ? 'keychain' : 'file'}" (moves what is stored).`;
    return EXIT.OK;
  }
  const { target } = options;
  let moved: string[];
  try {
    moved = await moveAll(ctx, target);
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new FloeError(
      `The secrets were not moved: the OS keychain cannot be used: ${error.reason}`,
      'Nothing changed: each profile and the session still read their secrets where they were.',
    );
  }
  ctx.config.setSecretsChoice(target);
  for (const what of moved) io.err`Moved ${what}.`;
  io.out`✓ This config folder keeps new secrets ${describeSaved(ctx, target)}${moved.length > 0 ? `; ${moved.length} moved there` : ''}.`;
  if (target === 'file') io.err`! Secrets in that file are stored in plain text.`;
  return EXIT.OK;
}

/**
 * Moves each profile's secrets and the session to `to`, one switch each: the values are read from where
 * the config names them, written as new entries in `to`, and one config write names those (the old
 * entries are swept). Stopped anywhere, each one is whole in its old place or its new one.
 */
async function moveAll(ctx: Store, to: SecretsChoice): Promise<string[]> {
  const moved: string[] = [];
  for (const name of ctx.config.profileNames()) {
    const done = await transaction(ctx, async () => {
      const profile = ctx.config.getProfile(name);
      if (!profile || profile.secretStorage === to || profile.secretStorage === 'env') return false;
      const from = ctx.vault.backend(profile.secretStorage);
      const generation = newGeneration();
      const fresh = new Map<string, string>();
      const kept: string[] = [];
      for (const id of profile.storedSecrets) {
        const value = await from.get(accounts.profileSecret(name, id, profile.secretsGeneration));
        if (value === undefined) continue;
        fresh.set(accounts.profileSecret(name, id, generation), value);
        kept.push(id);
      }
      await switchSecrets(ctx, {
        storage: to,
        fresh,
        stale: profileEntries(name, profile),
        commit: (sweep) =>
          ctx.config.saveProfile(name, profileValues(profile), to, kept, {
            ...(fresh.size > 0 ? { generation } : {}),
            sweep,
          }),
      });
      return true;
    });
    if (done) moved.push(`the secrets of profile "${name}"`);
  }
  const session = await transaction(ctx, async () => {
    const settings = ctx.config.getManagement();
    const storage = settings?.secretStorage;
    if (!settings || storage === undefined || storage === 'env' || storage === to) return false;
    const from = ctx.vault.backend(storage);
    const origin = new URL(settings.url).origin;
    const generation = newGeneration();
    const fresh = new Map<string, string>();
    const session = await from.get(accounts.session(origin, settings.secretsGeneration));
    if (session !== undefined) fresh.set(accounts.session(origin, generation), session);
    const user = settings.rememberPassword ? settings.username : undefined;
    const password =
      user === undefined
        ? undefined
        : await from.get(accounts.password(origin, user, settings.secretsGeneration));
    if (user !== undefined && password !== undefined)
      fresh.set(accounts.password(origin, user, generation), password);
    await switchSecrets(ctx, {
      storage: to,
      fresh,
      stale: managementEntries(settings),
      commit: (sweep) =>
        ctx.config.setManagement({ ...settings, secretStorage: to, secretsGeneration: generation }, sweep),
    });
    return true;
  });
  if (session) moved.push('the OLake UI session');
  return moved;
}
