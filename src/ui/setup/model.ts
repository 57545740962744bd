// The setup wizard's state and its one reducer (no React). Screens render this state; every field,
// label, help line and rule comes from the field registry, every check from schema.ts, and where each
// value came from (typed, suggested, the environment) from origin.ts.
import { AUTH_TYPE_INFO, STORAGE_KINDS, type StorageKind, type Values } from '../../destination/fields.js';
import { PRESET_IDS, PRESETS, type PresetId } from '../../destination/presets.js';
import { validate } from '../../destination/schema.js';
import { own, refill, switchChoice, toSave } from './origin.js';
import { reviewLines } from './review.js';
import {
  type ChoiceStep,
  type FormStep,
  formRows,
  isChoiceStep,
  isFormStep,
  type NumberedStep,
  type RowId,
  rowIssue,
  rowValue,
  STEPS,
  type Step,
} from './rows.js';
import { type Action, KEYCHAIN_CHOICES, type WizardState } from './state.js';

// What the tests and screens read with the reducer.
export { reviewLines } from './review.js';
export { formRows, secretEnvVars } from './rows.js';
export { type Action, initialState, type WizardState } from './state.js';

function withValue(values: Values, id: RowId, value: string | boolean): Values {
  if (id === 'targetVersion') return { ...values, targetVersion: String(value) };
  return { ...values, fields: { ...values.fields, [id]: value } };
}

/** Re-checks the rows that already show an error, so a fixed value clears its line as it is typed. */
function recheck(values: Values, errors: WizardState['errors']): WizardState['errors'] {
  const ids = Object.keys(errors) as RowId[];
  if (ids.length === 0) return errors;
  const result = validate(values);
  const next: WizardState['errors'] = {};
  for (const id of ids) {
    const issue = result.ok ? undefined : result.issues.find((i) => i.field === id);
    if (issue) next[id] = issue.message;
  }
  return next;
}

/** Validates the focused row as it is left (and fills an emptied version with `latest`). */
function leave(state: WizardState, step: FormStep): WizardState {
  const row = formRows(step, state.values)[state.focus[step]];
  if (!row) return state;
  let values = state.values;
  if (row.id === 'targetVersion' && values.targetVersion.trim() === '')
    values = { ...values, targetVersion: 'latest' };
  const issue = rowIssue(values, row.id);
  const errors = { ...state.errors };
  if (issue) errors[row.id] = issue.message;
  else delete errors[row.id];
  return { ...state, values, errors };
}

function clampFocus(state: WizardState, step: FormStep, focus: number): WizardState {
  const count = formRows(step, state.values).length;
  return { ...state, focus: { ...state.focus, [step]: Math.min(Math.max(focus, 0), count - 1) } };
}

function go(state: WizardState, step: Step): WizardState {
  const keepNotice = step === 'preset' || step === 'authType' || step === 'fields';
  // The storage list opens on the values' storage: the one the catalog suggested (BigLake: GCS).
  const cursor =
    step === 'storageKind'
      ? { ...state.cursor, storageKind: Math.max(STORAGE_KINDS.indexOf(state.values.storage), 0) }
      : state.cursor;
  const next = {
    ...state,
    step,
    cursor,
    blocked: false,
    reviewIssues: [],
    notice: keepNotice ? state.notice : undefined,
  };
  return isFormStep(step) ? clampFocus(next, step, state.focus[step]) : next;
}

function nextStep(step: NumberedStep): NumberedStep {
  return STEPS[Math.min(STEPS.indexOf(step) + 1, STEPS.length - 1)]!;
}

function previousStep(step: NumberedStep): NumberedStep {
  return STEPS[Math.max(STEPS.indexOf(step) - 1, 0)]!;
}

/** The review again after an edit from it, unless `step` (a form) now has a row to fill or fix. */
function settle(state: WizardState, step: NumberedStep): WizardState {
  if (!isFormStep(step)) return go(state, step);
  const rows = formRows(step, state.values);
  const result = validate(state.values);
  const first = result.ok ? -1 : rows.findIndex((r) => result.issues.some((i) => i.field === r.id));
  if (first < 0) return { ...go(state, 'review'), editing: undefined };
  return clampFocus(go(state, step), step, first);
}

/**
 * Enter on a form: the next row, or the next screen from the last row unless a row has an issue. Editing
 * from the review, Enter goes back to it once the form has nothing left to fill or fix.
 */
function submitForm(state: WizardState, step: FormStep): WizardState {
  const left = leave(state, step);
  const rows = formRows(step, left.values);
  const focus = left.focus[step];
  if (left.editing) {
    const row = rows[focus];
    return row && left.errors[row.id] ? { ...left, blocked: true } : settle(left, step);
  }
  if (focus < rows.length - 1) return clampFocus({ ...left, blocked: false }, step, focus + 1);
  const result = validate(left.values);
  const issues = result.ok ? [] : result.issues.filter((i) => rows.some((r) => r.id === i.field));
  if (issues.length === 0) return go(left, nextStep(step));
  const errors = { ...left.errors };
  for (const issue of issues) errors[issue.field as RowId] = issue.message;
  const first = rows.findIndex((r) => r.id === issues[0]!.field);
  return clampFocus({ ...left, errors, blocked: true }, step, first);
}

/** Another catalog or authentication type: what the previous one suggested is dropped, and the notice says so. */
function switched(state: WizardState, next: Values): WizardState {
  if (next.preset === state.values.preset && next.authType === state.values.authType) return state;
  const out = switchChoice(state.values, state.origins, next);
  const what =
    next.preset !== state.values.preset
      ? PRESETS[state.values.preset].label
      : 'the previous authentication type';
  const notice =
    out.dropped.length > 0 ? `Dropped what applied to ${what}: ${out.dropped.join(', ')}.` : state.notice;
  return { ...state, values: out.values, origins: out.origins, notice, changed: true };
}

function withPreset(state: WizardState, preset: PresetId): WizardState {
  if (preset === state.values.preset) return state;
  const authTypes = PRESETS[preset].authTypes;
  const authType = authTypes.includes(state.values.authType) ? state.values.authType : authTypes[0]!;
  return switched(state, { ...state.values, preset, authType });
}

/** Leaving setup: at once when nothing changed, else after the "leave setup?" question. */
function quit(state: WizardState): WizardState {
  if (!state.changed) return { ...go(state, 'cancelled'), quitting: true };
  return { ...go(state, 'leave'), leaveFrom: state.step, quitting: true };
}

function choose(state: WizardState, step: ChoiceStep): WizardState {
  const at = state.cursor[step];
  if (step === 'preset') {
    const next = withPreset(state, PRESET_IDS[at]!);
    const authAt = Math.max(PRESETS[next.values.preset].authTypes.indexOf(next.values.authType), 0);
    const chosen = { ...next, cursor: { ...state.cursor, authType: authAt } };
    if (!onlyAuthType(next.values)) return go(chosen, 'authType');
    // A catalog with one authentication type: chosen, and said on the form instead of asked.
    const said = `${PRESETS[next.values.preset].label} offers one authentication type, used here: ${AUTH_TYPE_INFO[next.values.authType].label}.`;
    const notice = next.notice?.includes(said) ? next.notice : [said, next.notice].filter(Boolean).join(' ');
    return state.editing ? settle({ ...chosen, notice }, 'fields') : go({ ...chosen, notice }, 'fields');
  }
  if (step === 'authType') {
    const authType = PRESETS[state.values.preset].authTypes[at]!;
    const next = switched(state, { ...state.values, authType });
    return state.editing ? settle(next, 'fields') : go(next, 'fields');
  }
  if (step === 'storageKind') {
    const storage = STORAGE_KINDS[at] as StorageKind;
    const next = { ...state, values: { ...state.values, storage }, changed: true };
    return state.editing ? settle(next, 'storage') : go(next, 'storage');
  }
  const choice = KEYCHAIN_CHOICES[at];
  if (choice === 'cancel') return go(state, 'cancelled');
  return { ...go(state, 'saving'), storage: choice === 'file' ? 'file' : 'env' };
}

/** True when the values' catalog offers one authentication type (the wizard does not ask for it). */
function onlyAuthType(values: Values): boolean {
  return PRESETS[values.preset].authTypes.length === 1;
}

/** The auth types offered for these values: the preset's. */
export function authChoices(values: Values) {
  return PRESETS[values.preset].authTypes;
}

function choiceCount(step: ChoiceStep, values: Values): number {
  if (step === 'preset') return PRESET_IDS.length;
  if (step === 'authType') return authChoices(values).length;
  if (step === 'storageKind') return STORAGE_KINDS.length;
  return KEYCHAIN_CHOICES.length;
}

export function reducer(state: WizardState, action: Action): WizardState {
  const { step } = state;
  switch (action.type) {
    case 'move': {
      if (isChoiceStep(step)) {
        const count = choiceCount(step, state.values);
        const at = (state.cursor[step] + action.delta + count) % count;
        return { ...state, cursor: { ...state.cursor, [step]: at } };
      }
      if (isFormStep(step)) {
        const left = leave(state, step);
        const count = formRows(step, left.values).length;
        return clampFocus(left, step, (left.focus[step] + action.delta + count) % count);
      }
      if (step === 'review') {
        const count = reviewLines(state.values, state.origins).length;
        const cursor = Math.min(Math.max(state.reviewCursor + action.delta, 0), count - 1);
        const rows = action.reviewRows ?? count;
        const scroll = Math.min(
          Math.max(state.reviewScroll, cursor - rows + 1, 0),
          cursor,
          action.reviewMax ?? 0,
        );
        return { ...state, reviewCursor: cursor, reviewScroll: scroll };
      }
      return state;
    }
    case 'enter': {
      if (isChoiceStep(step)) return choose(state, step);
      if (isFormStep(step)) return submitForm(state, step);
      if (step === 'review') {
        const result = validate(state.values);
        if (!result.ok) return { ...state, reviewIssues: result.issues };
        return { ...go(state, 'saving'), pending: toSave(result.values, state.origins) };
      }
      if (step === 'leave') return go(state, 'cancelled');
      if (step === 'saveError') return go(state, 'saving');
      return state;
    }
    case 'editLine': {
      if (step !== 'review') return state;
      const line = reviewLines(state.values, state.origins)[state.reviewCursor];
      if (!line) return state;
      const next = { ...go(state, line.target.step), editing: state.values, editingOrigins: state.origins };
      const { row } = line.target;
      if (!isFormStep(line.target.step) || row === undefined) return next;
      const at = formRows(line.target.step, state.values).findIndex((r) => r.id === row);
      return clampFocus(next, line.target.step, at);
    }
    case 'back': {
      if (state.editing && step !== 'review' && (isFormStep(step) || isChoiceStep(step)))
        return {
          ...go(state, 'review'),
          values: state.editing,
          origins: state.editingOrigins ?? state.origins,
          editing: undefined,
          editingOrigins: undefined,
          errors: {},
        };
      if (step === 'keychain' || step === 'saveError') return go(state, 'review');
      if (step === 'saving' || step === 'saved' || step === 'cancelled') return state;
      if (step === 'leave') return { ...go(state, state.leaveFrom ?? 'preset'), quitting: false };
      if (step === 'preset') return quit(state);
      if (step === 'fields' && onlyAuthType(state.values)) return go(state, 'preset');
      return go(state, previousStep(step));
    }
    case 'edit': {
      // A paste can carry line breaks or tabs that Ink passes through as text: they are never part of a value.
      const edited = withValue(state.values, action.id, action.value.replace(/[\u0000-\u001F\u007F]/g, ''));
      const origins = action.id === 'targetVersion' ? state.origins : own(state.origins, action.id);
      const next = refill(edited, origins, state.values);
      return {
        ...state,
        values: next.values,
        origins: next.origins,
        changed: true,
        errors: recheck(next.values, state.errors),
      };
    }
    case 'toggle': {
      if (!isFormStep(step)) return state;
      const row = formRows(step, state.values)[state.focus[step]];
      if (row?.type !== 'boolean') return state;
      const origins = row.id === 'targetVersion' ? state.origins : own(state.origins, row.id);
      const values = withValue(state.values, row.id, rowValue(state.values, row) !== true);
      return { ...state, values, origins, changed: true };
    }
    case 'rowError':
      return { ...state, errors: { ...state.errors, [action.id]: action.message } };
    case 'saveFailed':
      if (action.keychainReason !== undefined && state.storage === 'keychain')
        return { ...go(state, 'keychain'), keychainReason: action.keychainReason };
      return { ...go(state, 'saveError'), saveError: action.message };
    case 'saved':
      return go(state, 'saved');
    case 'quit':
      if (step === 'saving' || step === 'saved' || step === 'cancelled' || step === 'leave') return state;
      return quit(state);
    case 'keep': {
      if (step !== 'review') return state;
      const id = reviewLines(state.values, state.origins)[state.reviewCursor]?.target.row;
      if (!id || id === 'targetVersion') return state;
      const origin = state.origins[id];
      if (origin !== 'env' && origin !== 'kept') return state;
      return {
        ...state,
        origins: { ...state.origins, [id]: origin === 'env' ? 'kept' : 'env' },
        changed: true,
      };
    }
    case 'cancel':
      return go(state, 'cancelled');
  }
}
