import { useApp } from 'ink';
import { useEffect, useReducer, useRef } from 'react';
import type { Context } from '../../app/context.js';
import { emptyValues, type FieldId, type Values } from '../../destination/fields.js';
import { KeychainUnavailableError, type SecretStorage } from '../../secrets/store.js';
import { charOf, isInterrupt } from '../../text/keys.js';
import { editLine, type Line, lineAtEnd } from '../components/line.js';
import { handOver, useKeys } from '../components/useKeys.js';
import { useLatestReducer } from '../components/useLatestReducer.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { isFileReference, readJsonArgument } from './json-file.js';
import { reducer } from './model.js';
import type { EnvValues } from './origin.js';
import { reviewView } from './reviewLayout.js';
import { formRows, isFormStep, type Row, type RowId, rowValue } from './rows.js';
import { type Action, initialState, type WizardState } from './state.js';
import { WizardScreen } from './WizardScreen.js';

export interface WizardResult {
  saved: boolean;
  profileName: string;
  /** The values saved (normalized), when saved. */
  values?: Values;
  /** Where the secrets went, when saved. */
  storage?: SecretStorage;
  /** The user left with Ctrl-C (exit 130). */
  interrupted?: boolean;
  /** The user left with Esc or q, nothing saved. */
  left?: boolean;
}

/** Saves a validated profile (the command passes `saveProfile` of app/profiles.ts). */
export type SaveProfile = (
  ctx: Context,
  name: string,
  values: Values,
  storage: SecretStorage,
  options: { signal: AbortSignal },
) => Promise<unknown>;

export interface SavedProfile {
  profileName: string;
  values: Values;
  storage: SecretStorage;
}

export interface WizardProps {
  ctx: Context;
  profileName: string;
  initial?: Values;
  /** The fields of `initial` the user gave (flags, the saved profile); the others are suggestions. */
  typed?: readonly FieldId[];
  /** FLOE_* variables for secret fields: shown with their source, saved only if kept on the review. */
  env?: EnvValues;
  save: SaveProfile;
  /** Why the keychain will not work on this host (no D-Bus session bus), for the review to say. */
  keychainNote?: string;
  /** An existing profile opens on its review, where any line can be edited. */
  openOn?: 'preset' | 'review';
  /** Where secrets go first: the keychain unless --insecure-storage asked for the file. */
  storage?: SecretStorage;
  /** Runs after a successful save, before the wizard leaves (the connection test hooks in here). */
  onSaved?: (saved: SavedProfile) => void | Promise<void>;
  /** Called once when the wizard is done; `error` is what `onSaved` threw. */
  onDone(result: WizardResult, error?: unknown): void;
}

export function Wizard(props: WizardProps) {
  const { ctx, profileName, initial, openOn, storage, save, onSaved, onDone } = props;
  const [state, dispatch, latest] = useLatestReducer(reducer, () =>
    initialState(profileName, initial ?? emptyValues(), storage, openOn, {
      typed: props.typed,
      env: props.env,
    }),
  );
  const { exit } = useApp();
  const interrupted = useRef(false);
  const size = useTerminalSize();
  const width = Math.min(size.columns, 100);
  // The cursor of the focused text field; its value lives in the state.
  const caret = useRef<Caret>({ id: undefined, line: lineAtEnd('') });
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const held = useRef('');

  // Each key acts on the state the keys before it left: "url<Tab>" types into one field and moves on,
  // "text<Enter>more" types "more" into the next field.
  useKeys((key) => {
    const now = latest();
    if (now.step === 'cancelled' || now.step === 'saved') {
      handOver(key.raw);
      return 'leave';
    }
    if (isInterrupt(key)) {
      interrupted.current = true;
      dispatch({ type: 'cancel' });
      return 'leave';
    }
    // While the profile is saved, keys are for the screen that comes next (the connection test); if
    // saving fails, that screen never comes and they are dropped.
    if (now.step === 'saving') {
      held.current += key.raw;
      return;
    }
    const left = () => (latest().step === 'cancelled' ? 'leave' : undefined);
    if (key.name === 'escape') {
      dispatch({ type: 'back' });
      return left();
    }
    if (now.step === 'leave') {
      const c = charOf(key);
      if (c === 'y' || key.name === 'return') dispatch({ type: 'enter' });
      else if (c === 'n' || c === 'q') dispatch({ type: 'back' });
      return left();
    }
    const leaving = key.name === 'up' || key.name === 'down' || key.name === 'tab' || key.name === 'return';
    if (leaving && !resolveFileReference(now, dispatch)) return;
    const field = leaving ? undefined : focusedText(latest(), caret.current);
    if (field) {
      const edit = editLine(field.line, key, { breaks: field.row.type === 'json' ? 'join' : 'firstLine' });
      if (!edit) return;
      caret.current = { id: field.row.id, line: edit.line };
      if (edit.line.value === field.line.value) return redraw();
      return dispatch({ type: 'edit', id: field.row.id, value: edit.line.value });
    }
    const view = reviewView(latest(), width, size.rows - 1);
    const scroll = { reviewMax: view.max, reviewRows: view.rows };
    if (key.name === 'up' || (key.name === 'tab' && key.shift))
      dispatch({ type: 'move', delta: -1, ...scroll });
    else if (key.name === 'down' || key.name === 'tab') dispatch({ type: 'move', delta: 1, ...scroll });
    else if (key.name === 'return') dispatch({ type: 'enter' });
    else if (now.step === 'review' && (charOf(key) === 'e' || key.name === 'right'))
      dispatch({ type: 'editLine' });
    else if (now.step === 'review' && charOf(key) === 'k') dispatch({ type: 'keep' });
    else if (charOf(key) === ' ') dispatch({ type: 'toggle' });
    // q leaves wherever no text field has focus (a text field takes it as a letter).
    else if (charOf(key) === 'q') dispatch({ type: 'quit' });
    const after = latest().step;
    if (after === 'cancelled' || after === 'saved') return 'leave';
  });

  const { step, pending } = state;
  const secretStorage = state.storage;
  useEffect(() => {
    if (step !== 'saving' || !pending) return;
    let live = true;
    // Ctrl-C while saving aborts the save, which then undoes the secrets it wrote (setup waits for that).
    const abort = new AbortController();
    save(ctx, profileName, pending, secretStorage, { signal: abort.signal }).then(
      () => live && dispatch({ type: 'saved' }),
      (error: unknown) => {
        if (!live) return;
        if (error instanceof KeychainUnavailableError)
          dispatch({ type: 'saveFailed', keychainReason: error.reason, message: error.message });
        else
          dispatch({ type: 'saveFailed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      live = false;
      abort.abort();
    };
  }, [ctx, profileName, step, pending, secretStorage, save, dispatch]);

  const finished = useRef(false);
  useEffect(() => {
    if (finished.current) return;
    if (step === 'cancelled') {
      finished.current = true;
      const left = !interrupted.current && latest().quitting === true;
      onDone({ saved: false, profileName, interrupted: interrupted.current, ...(left ? { left } : {}) });
      exit();
    } else if (step === 'saved' && pending) {
      finished.current = true;
      handOver(held.current);
      const result = { saved: true, profileName, values: pending, storage: secretStorage };
      let hookError: unknown;
      Promise.resolve()
        .then(() => onSaved?.({ profileName, values: pending, storage: secretStorage }))
        .catch((error: unknown) => {
          hookError = error;
        })
        .then(() => {
          onDone(result, hookError);
          exit();
        });
    }
  }, [step, pending, secretStorage, profileName, onSaved, onDone, exit, latest]);

  return (
    <WizardScreen
      state={state}
      ctx={ctx}
      width={width}
      height={size.rows - 1}
      line={focusedText(state, caret.current)?.line}
      keychainNote={props.keychainNote}
    />
  );
}

interface Caret {
  id: RowId | undefined;
  line: Line;
}

/** The focused text row of a form and its line: the value from the state, the cursor from `caret`. */
function focusedText(state: WizardState, caret: Caret): { row: Row; line: Line } | undefined {
  if (!isFormStep(state.step)) return undefined;
  const rows = formRows(state.step, state.values);
  const row = rows[Math.min(state.focus[state.step], rows.length - 1)];
  const value = row && rowValue(state.values, row);
  if (!row || typeof value !== 'string') return undefined;
  return { row, line: caret.id === row.id && caret.line.value === value ? caret.line : lineAtEnd(value) };
}

/**
 * Before leaving the JSON field, replaces an `@path` value with the file's JSON. Returns false (and
 * shows why) when the file cannot be read, so the cursor stays on the field.
 */
function resolveFileReference(state: WizardState, dispatch: (a: Action) => void): boolean {
  if (!isFormStep(state.step)) return true;
  const row = formRows(state.step, state.values)[state.focus[state.step]];
  if (row?.type !== 'json') return true;
  const value = rowValue(state.values, row);
  if (typeof value !== 'string' || !isFileReference(value)) return true;
  const read = readJsonArgument(value, row.label);
  if (!read.ok) {
    dispatch({ type: 'rowError', id: row.id, message: read.message });
    return false;
  }
  dispatch({ type: 'edit', id: row.id, value: read.value });
  return true;
}
