// The review step's layout, apart from its drawing: where the secrets go, its key hints, and how many
// of its lines fit (Wizard.tsx scrolls with it, WizardScreen.tsx draws with it).

import type { Context } from '../../app/context.js';
import { cleartextWarnings } from '../../catalog/transport.js';
import type { Values } from '../../destination/fields.js';
import type { SecretStorage } from '../../secrets/store.js';
import { wrappedRows } from '../components/layout.js';
import { chromeRows, type Hint } from '../components/Screen.js';
import { reviewLines } from './review.js';
import { secretEnvVars } from './rows.js';
import type { WizardState } from './state.js';

const LEAVE: Hint = ['q', 'leave'];

export function secretsPlace(
  ctx: Context,
  storage: SecretStorage,
  values: Values,
  keychainNote?: string,
): string {
  if (storage === 'keychain')
    return keychainNote ? `the OS keychain, but ${keychainNote}` : 'the OS keychain';
  if (storage === 'file') return `the plaintext file ${ctx.vault.backend('file').location} (mode 0600)`;
  const vars = secretEnvVars(values);
  return vars.length > 0 ? `not stored: set ${vars.join(', ')} at run time` : 'none needed';
}

/** Whether any value on the review came from the environment (k keeps it or stops keeping it). */
export function fromEnv(state: WizardState): boolean {
  return Object.values(state.origins).some((o) => o === 'env' || o === 'kept');
}

export function reviewHints(state: WizardState): Hint[] {
  return [
    ['↑/↓', 'select'],
    ['e', 'edit'],
    ...(fromEnv(state) ? ([['k', 'keep FLOE_* value']] as Hint[]) : []),
    ['Enter', 'save'],
    ['Esc', 'back'],
    LEAVE,
  ];
}

export const ENV_NOTE =
  'Values from FLOE_* variables serve this run; only those marked "saved" go into the profile (k on a line).';

/** How many review lines fit, and how far the review can scroll. */
export function reviewView(state: WizardState, width: number, height: number) {
  const total = reviewLines(state.values, state.origins).length;
  const issueRows =
    (fromEnv(state) ? wrappedRows(ENV_NOTE, width) : 0) +
    state.reviewIssues.reduce((sum, i) => sum + wrappedRows(`✗ ${i.message}`, width), 0) +
    cleartextWarnings(state.values).reduce((sum, w) => sum + wrappedRows(`! ${w}`, width), 0);
  const room = height - chromeRows(reviewHints(state), width) - 2 - issueRows;
  if (total <= room) return { scrolls: false, rows: total, max: 0 };
  const rows = Math.max(height - chromeRows(reviewHints(state), width) - 4 - issueRows, 1);
  return { scrolls: true, rows, max: total - rows };
}
