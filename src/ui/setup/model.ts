// The setup wizard's state and its one reducer (no React). Screens render this state; every field,
// label, help line and rule comes from the field registry, and every check from schema.ts.
import {
  AUTH_TYPE_INFO,
  applicableFields,
  CATALOG_NAME_MIN_VERSION,
  DEFAULT_CATALOG_NAME,
  FIELD_BY_ID,
  type FieldDef,
  type FieldId,
  fieldText,
  filled,
  maskSecret,
  type SecretEnv,
  STORAGE_INFO,
  STORAGE_KINDS,
  type StorageKind,
  type Values,
} from '../../destination/fields.js';
import { fillFromPreset, PRESET_IDS, PRESETS, type PresetId } from '../../destination/presets.js';
import { type FieldIssue, validate, validateField } from '../../destination/schema.js';
import type { SecretStorage } from '../../secrets/store.js';
import { profileDataLocation } from '../../storage/s3path.js';

/** The numbered screens, in order. */
export const STEPS = [
  'preset',
  'authType',
  'fields',
  'storageKind',
  'storage',
  'advanced',
  'review',
] as const;
export type NumberedStep = (typeof STEPS)[number];
export type FormStep = 'fields' | 'storage' | 'advanced';
export type ChoiceStep = 'preset' | 'authType' | 'storageKind' | 'keychain';
export type Step = NumberedStep | 'saving' | 'keychain' | 'saveError' | 'saved' | 'cancelled';

export type RowId = FieldId | 'targetVersion';

/** One line of a form: a registry field, or the target OLake version (part of `Values`, not a field). */
export interface Row {
  id: RowId;
  label: string;
  help: string;
  type: FieldDef['type'];
  secret: boolean;
  required: boolean;
  defaultValue?: string | boolean;
}

export const TARGET_VERSION_ROW = {
  id: 'targetVersion',
  label: 'Target OLake Version',
  help: `OLake version that runs this destination: latest, or x.y.z like 0.3.4 (Catalog Name needs ≥ ${CATALOG_NAME_MIN_VERSION})`,
  type: 'text',
  secret: false,
  defaultValue: 'latest',
} as const;

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
  | { type: 'cancel' };

/** A new profile walks the steps; an existing one opens on its review (`openOn: 'review'`). */
export function initialState(
  profileName: string,
  values: Values,
  storage: SecretStorage = 'keychain',
  openOn: 'preset' | 'review' = 'preset',
): WizardState {
  return {
    profileName,
    step: openOn,
    values: { ...values, fields: { ...values.fields } },
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

function fieldRow(def: FieldDef, values: Values): Row {
  const { label, help } = fieldText(def, values);
  return {
    id: def.id,
    label,
    help,
    type: def.type,
    secret: def.secret,
    required: def.required(values),
    defaultValue: def.defaultValue,
  };
}

/** The rows of a form screen for these values, in registry order. */
export function formRows(step: FormStep, values: Values): Row[] {
  const defs =
    step === 'fields'
      ? [...applicableFields(values, 'catalog'), ...applicableFields(values, 'auth')]
      : applicableFields(values, step);
  const rows = defs.map((def) => fieldRow(def, values));
  return step === 'advanced' ? [{ ...TARGET_VERSION_ROW, required: true }, ...rows] : rows;
}

export function isFormStep(step: Step): step is FormStep {
  return step === 'fields' || step === 'storage' || step === 'advanced';
}

export function isChoiceStep(step: Step): step is ChoiceStep {
  return step === 'preset' || step === 'authType' || step === 'storageKind' || step === 'keychain';
}

export function rowValue(values: Values, row: Row): string | boolean {
  if (row.id === 'targetVersion') return values.targetVersion;
  const value = values.fields[row.id];
  if (value !== undefined) return value;
  return row.type === 'boolean' ? row.defaultValue === true : '';
}

/** The issue schema.ts reports for one row, if any. */
export function rowIssue(values: Values, id: RowId): FieldIssue | null {
  if (id !== 'targetVersion') return validateField(values, id);
  const result = validate(values);
  return result.ok ? null : (result.issues.find((i) => i.field === id) ?? null);
}

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
  const next = { ...state, step, blocked: false, reviewIssues: [] };
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

/** The values with another preset: its fixed and suggested values filled in, its auth type if needed. */
function withPreset(values: Values, preset: PresetId): Values {
  if (preset === values.preset) return values;
  return fillFromPreset({ ...values, preset });
}

function choose(state: WizardState, step: ChoiceStep): WizardState {
  const at = state.cursor[step];
  if (step === 'preset') {
    const values = withPreset(state.values, PRESET_IDS[at]!);
    const authAt = Math.max(PRESETS[values.preset].authTypes.indexOf(values.authType), 0);
    return go({ ...state, values, cursor: { ...state.cursor, authType: authAt } }, 'authType');
  }
  if (step === 'authType') {
    const authType = PRESETS[state.values.preset].authTypes[at]!;
    const next = { ...state, values: { ...state.values, authType } };
    return state.editing ? settle(next, 'fields') : go(next, 'fields');
  }
  if (step === 'storageKind') {
    const storage = STORAGE_KINDS[at] as StorageKind;
    const next = { ...state, values: { ...state.values, storage } };
    return state.editing ? settle(next, 'storage') : go(next, 'storage');
  }
  const choice = KEYCHAIN_CHOICES[at];
  if (choice === 'cancel') return go(state, 'cancelled');
  return { ...go(state, 'saving'), storage: choice === 'file' ? 'file' : 'env' };
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
        const count = reviewLines(state.values).length;
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
        return { ...go(state, 'saving'), pending: result.values };
      }
      if (step === 'saveError') return go(state, 'saving');
      return state;
    }
    case 'editLine': {
      if (step !== 'review') return state;
      const line = reviewLines(state.values)[state.reviewCursor];
      if (!line) return state;
      const next = { ...go(state, line.target.step), editing: state.values };
      const { row } = line.target;
      if (!isFormStep(line.target.step) || row === undefined) return next;
      const at = formRows(line.target.step, state.values).findIndex((r) => r.id === row);
      return clampFocus(next, line.target.step, at);
    }
    case 'back': {
      if (state.editing && step !== 'review' && (isFormStep(step) || isChoiceStep(step)))
        return { ...go(state, 'review'), values: state.editing, editing: undefined, errors: {} };
      if (step === 'keychain' || step === 'saveError') return go(state, 'review');
      if (step === 'saving' || step === 'saved' || step === 'cancelled') return state;
      return go(state, previousStep(step));
    }
    case 'edit': {
      // A paste can carry line breaks or tabs that Ink passes through as text: they are never part of a value.
      const edited = withValue(state.values, action.id, action.value.replace(/[\u0000-\u001F\u007F]/g, ''));
      const values = fillFromPreset(edited, state.values);
      return { ...state, values, errors: recheck(values, state.errors) };
    }
    case 'toggle': {
      if (!isFormStep(step)) return state;
      const row = formRows(step, state.values)[state.focus[step]];
      if (row?.type !== 'boolean') return state;
      return { ...state, values: withValue(state.values, row.id, rowValue(state.values, row) !== true) };
    }
    case 'rowError':
      return { ...state, errors: { ...state.errors, [action.id]: action.message } };
    case 'saveFailed':
      if (action.keychainReason !== undefined && state.storage === 'keychain')
        return { ...go(state, 'keychain'), keychainReason: action.keychainReason };
      return { ...go(state, 'saveError'), saveError: action.message };
    case 'saved':
      return go(state, 'saved');
    case 'cancel':
      return go(state, 'cancelled');
  }
}

/** How a value reads on screen: secrets as `••••` plus their last 4, booleans as yes/no. */
export function displayValue(row: Row, value: string | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value.trim() === '') return typeof row.defaultValue === 'string' ? `(default ${row.defaultValue})` : '';
  return row.secret ? maskSecret(value) : value;
}

export interface ReviewLine {
  label: string;
  value: string;
  /** Where the line is edited: its step, and its row on a form. */
  target: { step: NumberedStep; row?: RowId };
}

/** Every choice and every field that applies, in wizard order, for the review screen. */
export function reviewLines(values: Values): ReviewLine[] {
  const line =
    (step: FormStep) =>
    (def: FieldDef): ReviewLine => {
      const row = fieldRow(def, values);
      return {
        label: row.label,
        value: displayValue(row, rowValue(values, row)) || '(not set)',
        target: { step, row: def.id },
      };
    };
  return [
    { label: 'Catalog', value: PRESETS[values.preset].label, target: { step: 'preset' } },
    {
      label: 'Authentication Type',
      value: AUTH_TYPE_INFO[values.authType].label,
      target: { step: 'authType' },
    },
    ...applicableFields(values, 'catalog').map(line('fields')),
    ...applicableFields(values, 'auth').map(line('fields')),
    { label: 'Storage', value: STORAGE_INFO[values.storage].label, target: { step: 'storageKind' } },
    ...applicableFields(values, 'storage').map(line('storage')),
    {
      label: TARGET_VERSION_ROW.label,
      value: values.targetVersion,
      target: { step: 'advanced', row: 'targetVersion' },
    },
    ...applicableFields(values, 'advanced').map(line('advanced')),
  ];
}

/** The FLOE_* variables a profile saved without secrets needs at run time. */
export function secretEnvVars(values: Values): SecretEnv[] {
  return applicableFields(values)
    .filter((def) => def.secret && def.env && filled(values, def.id))
    .map((def) => def.env!);
}

/** Notes shown under a form, derived from the values. */
export function formNotes(step: FormStep, values: Values): string[] {
  if (step === 'fields') return [`${PRESETS[values.preset].label}: ${PRESETS[values.preset].pitfall}`];
  if (step === 'storage') {
    const notes: string[] = [];
    if (!profileDataLocation(values))
      notes.push(
        `${FIELD_BY_ID.dataLocation.label} is empty: the storage check uses the location the catalog's config names, if any.`,
      );
    if (!filled(values, 'accessKey') && !filled(values, 'secretKey'))
      notes.push(
        `${FIELD_BY_ID.accessKey.label} and ${FIELD_BY_ID.secretKey.label} are empty: credentials then come from the runtime environment (environment variables, profile, IAM role / instance profile, Kubernetes pod identity).`,
      );
    return notes;
  }
  if (step === 'advanced' && !FIELD_BY_ID.catalogName.applies(values))
    return [
      `${FIELD_BY_ID.catalogName.label} is hidden: it needs OLake ${CATALOG_NAME_MIN_VERSION} or later; older versions always use "${DEFAULT_CATALOG_NAME}".`,
    ];
  return [];
}
