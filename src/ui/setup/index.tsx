// Entry point of the interactive setup wizard, called by `floe setup` (src/commands/setup.ts).
import { render } from 'ink';
import type { Context } from '../../cli/context.js';
import type { Values } from '../../destination/fields.js';
import type { SecretStorage } from '../../secrets/store.js';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import { type SavedProfile, Wizard, type WizardResult } from './Wizard.js';

export type { SavedProfile, WizardResult } from './Wizard.js';

export interface SetupWizardOptions {
  ctx: Context;
  profileName: string;
  /** An existing profile's values (secrets included): the form opens pre-filled. */
  initial?: Values;
  /** An existing profile opens on its review, where any line can be jumped to, edited and saved. */
  openOn?: 'preset' | 'review';
  /** Where secrets go; defaults to the keychain, or the file with `insecureStorage`. */
  storage?: SecretStorage;
  insecureStorage?: boolean;
  /** Runs after a successful save, while the wizard is still on screen. */
  onSaved?: (saved: SavedProfile) => void | Promise<void>;
}

/**
 * Runs the wizard until the profile is saved or the user leaves (Ctrl-C, or Cancel after a keychain
 * failure). Ctrl-C is handled here (`exitOnCtrlC: false`): Ink unmounts and restores the terminal.
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
