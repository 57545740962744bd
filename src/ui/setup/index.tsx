// Entry point of the interactive setup wizard, called by `floe setup` (src/commands/setup.ts).
import { render } from 'ink';
import type { Context } from '../../app/context.js';
import type { FieldId, Values } from '../../destination/fields.js';
import type { SecretStorage } from '../../secrets/store.js';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import type { EnvValues } from './origin.js';
import { type SavedProfile, type SaveProfile, Wizard, type WizardResult } from './Wizard.js';

export type { SavedProfile, WizardResult } from './Wizard.js';

export interface SetupWizardOptions {
  ctx: Context;
  profileName: string;
  /** An existing profile's values (secrets included): the form opens pre-filled. */
  initial?: Values;
  /** The fields of `initial` the user gave (flags, the saved profile); the others are suggestions. */
  typed?: readonly FieldId[];
  /** FLOE_* variables for secret fields: shown with their source, saved only if kept on the review. */
  env?: EnvValues;
  /** Saves the profile (app/profiles.ts's saveProfile): the screen imports nothing from cli/. */
  save: SaveProfile;
  keychainNote?: string;
  /** An existing profile opens on its review, where any line can be jumped to, edited and saved. */
  openOn?: 'preset' | 'review';
  /** Where secrets go; defaults to the keychain, or the file with `insecureStorage`. */
  storage?: SecretStorage;
  insecureStorage?: boolean;
  /** Runs after a successful save, while the wizard is still on screen. */
  onSaved?: (saved: SavedProfile) => void | Promise<void>;
}

/**
 * Runs the wizard until the profile is saved or the user leaves (Esc on the first step, q, Ctrl-C,
 * or Cancel after a keychain failure). Ctrl-C is handled here (`exitOnCtrlC: false`): Ink unmounts and restores the terminal.
 */
export function runSetupWizard(options: SetupWizardOptions): Promise<WizardResult> {
  return fullScreen(() => wizard(options));
}

async function wizard(options: SetupWizardOptions): Promise<WizardResult> {
  let result: WizardResult = { saved: false, profileName: options.profileName };
  let failure: unknown;
  holdKeys();
  const app = render(
    <Wizard
      ctx={options.ctx}
      profileName={options.profileName}
      initial={options.initial}
      typed={options.typed}
      env={options.env}
      save={options.save}
      keychainNote={options.keychainNote}
      openOn={options.openOn}
      storage={options.storage ?? (options.insecureStorage ? 'file' : 'keychain')}
      onSaved={options.onSaved}
      onDone={(outcome, error) => {
        result = outcome;
        failure = error;
      }}
    />,
    { exitOnCtrlC: false },
  );
  await app.waitUntilExit();
  if (failure !== undefined) throw failure;
  return result;
}
