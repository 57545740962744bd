// The setup wizard's state, its actions and its first state (no React); model.ts has the reducer.
import { type FieldId, STORAGE_KINDS, type Values } from '../../destination/fields.js';
import { PRESET_IDS, PRESETS } from '../../destination/presets.js';
import type { FieldIssue } from '../../destination/schema.js';
import type { SecretStorage } from '../../secrets/store.js';
import { type EnvValues, initialOrigins, type Origins } from './origin.js';
import type { ChoiceStep, FormStep, RowId, Step } from './rows.js';

export const KEYCHAIN_CHOICES = ['file', 'env', 'cancel'] as const;
export type KeychainChoice = (typeof KEYCHAIN_CHOICES)[number];

export interface WizardState {
  profileName: string;
  step: Step;
  values: Values;
  /** Highlighted item of each choice screen. */
  cursor: Record<ChoiceStep, number>;
  /** Focused row of each form, kept when going back and forth. */
  focus: Record<FormStep, number>;
  /** The error line shown under a row (a `FieldIssue.message`). */
  errors: Partial<Record<RowId, string>>;
  /** Enter was refused on this form because of the errors shown. */
  blocked: boolean;
  /** Where secrets are saved: the keychain unless the user chose otherwise. */
  storage: SecretStorage;
  /** Validated, normalized values being saved. */
  pending?: Values;
  keychainReason?: string;
  saveError?: string;
  /** Issues found when Enter was pressed on the review. */
  reviewIssues: FieldIssue[];
  /** First review line shown, when the review is taller than the terminal. */
  reviewScroll: number;
  /** The selected review line (e edits it). */
  reviewCursor: number;
  /** Set while one line is edited from the review: the values to restore on Esc. */
  editing?: Values;
  /** Where each field's value came from; the origins to restore with `editing`. */
  origins: Origins;
  editingOrigins?: Origins;
  /** What the last switch of catalog or authentication type dropped, said until the form is left. */
  notice?: string;
  /** The user typed or chose something: leaving asks first. */
  changed: boolean;
  /** On the "leave setup?" question: the step to go back to. */
  leaveFrom?: Step;
  /** The user chose to leave (Esc on the first step, q), as opposed to Ctrl-C or a cancelled save. */
  quitting?: boolean;
}

export type Action =
  /**
   * `reviewMax`: the last first-line the review can scroll to at the terminal's size; `reviewRows`: how
   * many lines it shows.
   */
  | { type: 'move'; delta: number; reviewMax?: number; reviewRows?: number }
  /** On the review: edit the selected line, then come back to the review. */
  | { type: 'editLine' }
  | { type: 'enter' }
  | { type: 'back' }
  | { type: 'edit'; id: RowId; value: string }
  | { type: 'toggle' }
  | { type: 'rowError'; id: RowId; message: string }
  | { type: 'saveFailed'; keychainReason?: string; message: string }
  | { type: 'saved' }
  /** Esc on the first step, or q where no text field has focus: leave (asking if anything changed). */
  | { type: 'quit' }
  /** On the review: keep (save) the selected value that came from the environment, or stop keeping it. */
  | { type: 'keep' }
  | { type: 'cancel' };

export interface InitialOptions {
  /** The fields the user gave (flags, the saved profile); without it every filled field is theirs. */
  typed?: readonly FieldId[];
  /** FLOE_* variables that set secret fields: they fill empty ones, marked as from the environment. */
  env?: EnvValues;
}

/** A new profile walks the steps; an existing one opens on its review (`openOn: 'review'`). */
export function initialState(
  profileName: string,
  values: Values,
  storage: SecretStorage = 'keychain',
  openOn: 'preset' | 'review' = 'preset',
  options: InitialOptions = {},
): WizardState {
  const start = initialOrigins(values, options.typed, options.env);
  return {
    profileName,
    step: openOn,
    values: start.values,
    origins: start.origins,
    changed: false,
    cursor: {
      preset: Math.max(PRESET_IDS.indexOf(values.preset), 0),
      authType: Math.max(PRESETS[values.preset].authTypes.indexOf(values.authType), 0),
      storageKind: Math.max(STORAGE_KINDS.indexOf(values.storage), 0),
      keychain: 0,
    },
    focus: { fields: 0, storage: 0, advanced: 0 },
    errors: {},
    blocked: false,
    storage,
    reviewIssues: [],
    reviewScroll: 0,
    reviewCursor: 0,
  };
}
