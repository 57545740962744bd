import { Box, Text, useApp } from 'ink';
import { useEffect, useReducer, useRef } from 'react';
import { cleartextWarnings } from '../../catalog/transport.js';
import type { Context } from '../../cli/context.js';
import { saveProfile } from '../../cli/profiles.js';
import {
  AUTH_TYPE_INFO,
  emptyValues,
  STORAGE_INFO,
  STORAGE_KINDS,
  type Values,
} from '../../destination/fields.js';
import { PRESET_IDS, PRESETS } from '../../destination/presets.js';
import { KeychainUnavailableError, type SecretStorage } from '../../secrets/store.js';
import { charOf, isInterrupt } from '../../text/keys.js';
import { sanitize } from '../../text/sanitize.js';
import { ChoiceList } from '../components/ChoiceList.js';
import { truncate, wrappedRows } from '../components/layout.js';
import { editLine, type Line, lineAtEnd } from '../components/line.js';
import { chromeRows, type Hint, Screen } from '../components/Screen.js';
import { handOver, useKeys } from '../components/useKeys.js';
import { useLatestReducer } from '../components/useLatestReducer.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { Form } from './Form.js';
import { isFileReference, readJsonArgument } from './json-file.js';
import {
  type Action,
  authChoices,
  type FormStep,
  formNotes,
  formRows,
  initialState,
  isChoiceStep,
  isFormStep,
  KEYCHAIN_CHOICES,
  type Row,
  type RowId,
  reducer,
  reviewLines,
  rowValue,
  STEPS,
  secretEnvVars,
  type WizardState,
} from './model.js';

export interface WizardResult {
  saved: boolean;
  profileName: string;
  /** The values saved (normalized), when saved. */
  values?: Values;
  /** Where the secrets went, when saved. */
  storage?: SecretStorage;
  /** The user left with Ctrl-C (exit 130). */
  interrupted?: boolean;
}

export interface SavedProfile {
  profileName: string;
  values: Values;
  storage: SecretStorage;
}

export interface WizardProps {
  ctx: Context;
  profileName: string;
  initial?: Values;
  /** An existing profile opens on its review, where any line can be edited. */
  openOn?: 'preset' | 'review';
  /** Where secrets go first: the keychain unless --insecure-storage asked for the file. */
  storage?: SecretStorage;
  /** Runs after a successful save, before the wizard leaves (the connection test hooks in here). */
  onSaved?: (saved: SavedProfile) => void | Promise<void>;
  /** Called once when the wizard is done; `error` is what `onSaved` threw. */
  onDone(result: WizardResult, error?: unknown): void;
}

const QUIT: Hint = ['Ctrl-C', 'quit'];
const FORM_TITLES: Record<FormStep, (v: Values) => string> = {
  fields: (v) => `Catalog and authentication: ${AUTH_TYPE_INFO[v.authType].label}`,
  storage: (v) => `Object storage: ${STORAGE_INFO[v.storage].label}`,
  advanced: () => 'Advanced',
};

function secretsPlace(ctx: Context, storage: SecretStorage, values: Values): string {
  if (storage === 'keychain') return 'the OS keychain';
  if (storage === 'file') return `the plaintext file ${ctx.vault.backend('file').location} (mode 0600)`;
  const vars = secretEnvVars(values);
  return vars.length > 0 ? `not stored: set ${vars.join(', ')} at run time` : 'none needed';
}

export function Wizard({ ctx, profileName, initial, openOn, storage, onSaved, onDone }: WizardProps) {
  const [state, dispatch, latest] = useLatestReducer(reducer, () =>
    initialState(profileName, initial ?? emptyValues(), storage, openOn),
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
    if (key.name === 'escape') return dispatch({ type: 'back' });
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
    else if (charOf(key) === ' ') dispatch({ type: 'toggle' });
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
    saveProfile(ctx, profileName, pending, secretStorage, { signal: abort.signal }).then(
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
  }, [ctx, profileName, step, pending, secretStorage, dispatch]);

  const finished = useRef(false);
  useEffect(() => {
    if (finished.current) return;
    if (step === 'cancelled') {
      finished.current = true;
      onDone({ saved: false, profileName, interrupted: interrupted.current });
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
  }, [step, pending, secretStorage, profileName, onSaved, onDone, exit]);

  return (
    <WizardScreen
      state={state}
      ctx={ctx}
      width={width}
      height={size.rows - 1}
      line={focusedText(state, caret.current)?.line}
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

function reviewHints(): Hint[] {
  return [['↑/↓', 'select'], ['e', 'edit'], ['Enter', 'save'], ['Esc', 'back'], QUIT];
}

/** How many review lines fit, and how far the review can scroll. */
function reviewView(state: WizardState, width: number, height: number) {
  const total = reviewLines(state.values).length;
  const issueRows =
    state.reviewIssues.reduce((sum, i) => sum + wrappedRows(`✗ ${i.message}`, width), 0) +
    cleartextWarnings(state.values).reduce((sum, w) => sum + wrappedRows(`! ${w}`, width), 0);
  const room = height - chromeRows(reviewHints(), width) - 2 - issueRows;
  if (total <= room) return { scrolls: false, rows: total, max: 0 };
  const rows = Math.max(height - chromeRows(reviewHints(), width) - 4 - issueRows, 1);
  return { scrolls: true, rows, max: total - rows };
}

function WizardScreen({
  state,
  ctx,
  width,
  height,
  line,
}: {
  state: WizardState;
  ctx: Context;
  width: number;
  height: number;
  /** The focused text field's value and cursor. */
  line: Line | undefined;
}) {
  const { step, values } = state;
  const title = `floe setup · profile "${state.profileName}"`;
  const numbered = (STEPS as readonly string[]).indexOf(step);
  const position = numbered >= 0 ? `step ${numbered + 1} of ${STEPS.length}` : undefined;
  const back: Hint = ['Esc', 'back'];

  if (isFormStep(step)) {
    const rows = formRows(step, values);
    const focus = Math.min(state.focus[step], rows.length - 1);
    const focused = rows[focus];
    const hints: Hint[] = [
      ['↑/↓ Tab', 'move'],
      ['Enter', focus === rows.length - 1 ? 'continue' : 'next'],
      ...(focused?.type === 'boolean' ? ([['Space', 'toggle']] as Hint[]) : []),
      back,
      QUIT,
      ['*', 'required'],
    ];
    const shownErrors = rows.filter((r) => state.errors[r.id]).length;
    const notes = [
      ...formNotes(step, values),
      ...(state.blocked && shownErrors > 0
        ? [
            `✗ Cannot continue: ${shownErrors === 1 ? '1 field marked ✗ needs' : `${shownErrors} fields marked ✗ need`} a fix.`,
          ]
        : []),
    ];
    return (
      <Screen
        title={title}
        position={position}
        subtitle={FORM_TITLES[step](values)}
        width={width}
        hints={hints}
      >
        <Form
          rows={rows}
          values={Object.fromEntries(rows.map((r) => [r.id, rowValue(values, r)]))}
          focus={focus}
          errors={state.errors}
          notes={notes}
          width={width}
          height={height - chromeRows(hints, width)}
          line={line}
        />
      </Screen>
    );
  }

  if (isChoiceStep(step) && step !== 'keychain') {
    const choices =
      step === 'preset'
        ? PRESET_IDS.map((id) => ({
            label: PRESETS[id].label,
            help: `${PRESETS[id].help}\n${PRESETS[id].pitfall}`,
          }))
        : step === 'authType'
          ? authChoices(values).map((t) => AUTH_TYPE_INFO[t])
          : STORAGE_KINDS.map((k) => STORAGE_INFO[k]);
    const subtitle =
      step === 'preset'
        ? 'Catalog: which Iceberg REST catalog OLake writes to'
        : step === 'authType'
          ? `Authentication type: how floe and OLake sign in to ${PRESETS[values.preset].label}`
          : 'Object storage: where OLake writes data and metadata files';
    const hints: Hint[] = [['↑/↓', 'choose'], ['Enter', 'next'], ...(step === 'preset' ? [] : [back]), QUIT];
    return (
      <Screen title={title} position={position} subtitle={subtitle} width={width} hints={hints}>
        <ChoiceList
          choices={choices}
          selected={state.cursor[step]}
          width={width}
          compact={step === 'preset'}
        />
      </Screen>
    );
  }

  if (step === 'review') {
    const lines = reviewLines(values);
    const labelWidth = Math.max(...lines.map((l) => l.label.length)) + 2;
    const view = reviewView(state, width, height);
    const hints = reviewHints();
    const start = Math.min(state.reviewScroll, view.max);
    const shown = view.scrolls ? lines.slice(start, start + view.rows) : lines;
    const below = lines.length - start - shown.length;
    return (
      <Screen
        title={title}
        position={position}
        subtitle="Review: check the values, then save"
        width={width}
        hints={hints}
      >
        {view.scrolls && <Text dimColor>{start > 0 ? `  ↑ ${start} more` : ' '}</Text>}
        {shown.map((line, i) => {
          const selected = start + i === state.reviewCursor;
          return (
            <Text key={line.label} color={selected ? 'cyan' : undefined}>
              {`${selected ? '›' : ' '} ${line.label.padEnd(labelWidth)}`}
              {truncate(sanitize(line.value), Math.max(width - labelWidth - 2, 10))}
            </Text>
          );
        })}
        {view.scrolls && <Text dimColor>{below > 0 ? `  ↓ ${below} more` : ' '}</Text>}
        <Box marginTop={1}>
          <Text>{truncate(`Secrets: ${secretsPlace(ctx, state.storage, values)}`, width)}</Text>
        </Box>
        {cleartextWarnings(values).map((warning) => (
          <Text key={warning} color="yellow">{`! ${warning}`}</Text>
        ))}
        {state.reviewIssues.map((issue) => (
          <Text key={issue.field} color="red">{`✗ ${issue.message}`}</Text>
        ))}
      </Screen>
    );
  }

  if (step === 'keychain') {
    const vars = secretEnvVars(state.pending ?? values);
    const choices = KEYCHAIN_CHOICES.map((choice) => {
      if (choice === 'file')
        return {
          label: 'Store them in a file',
          help: `Plaintext, not encrypted: mode 0600 at ${ctx.vault.backend('file').location}`,
        };
      if (choice === 'env')
        return {
          label: "Don't store them",
          help:
            vars.length > 0
              ? `Nothing is stored; ${vars.join(', ')} must be set in the environment at run time`
              : 'This profile has no secrets, so nothing needs to be stored',
        };
      return { label: 'Cancel', help: 'Save nothing and leave setup' };
    });
    return (
      <Screen
        title={title}
        subtitle="Where the secrets go"
        width={width}
        hints={[['↑/↓', 'choose'], ['Enter', 'confirm'], back, QUIT]}
      >
        <Text color="yellow">{`✗ The OS keychain cannot be used: ${sanitize(state.keychainReason ?? '')}`}</Text>
        <Box marginY={1}>
          <Text>{`Where should the secrets of "${state.profileName}" go?`}</Text>
        </Box>
        <ChoiceList choices={choices} selected={state.cursor.keychain} width={width} />
      </Screen>
    );
  }

  if (step === 'saveError')
    return (
      <Screen
        title={title}
        subtitle="The profile was not saved"
        width={width}
        hints={[['Enter', 'retry'], back, QUIT]}
      >
        <Text color="red">{`✗ ${sanitize(state.saveError ?? '')}`}</Text>
      </Screen>
    );

  if (step === 'saving')
    return (
      <Screen title={title} subtitle="Saving…" width={width} hints={[QUIT]}>
        <Text>{`● Saving profile "${state.profileName}" (secrets: ${secretsPlace(ctx, state.storage, values)})`}</Text>
      </Screen>
    );

  if (step === 'saved')
    return (
      <Screen title={title} subtitle={`✓ Saved profile "${state.profileName}"`} width={width} hints={[]}>
        <Text>{`Settings: ${ctx.config.path}`}</Text>
        <Text>{`Secrets: ${secretsPlace(ctx, state.storage, state.pending ?? values)}`}</Text>
      </Screen>
    );

  return (
    <Screen title={title} subtitle="Setup left" width={width} hints={[]}>
      <Text>{`Nothing was saved: profile "${state.profileName}" is as it was.`}</Text>
    </Screen>
  );
}
