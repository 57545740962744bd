// The wizard's steps and the rows of its forms, read from the field registry (no React): what each
// row is, its value, its issue, how it reads on screen and the notes under a form.
import {
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
  type Values,
} from '../../destination/fields.js';
import { PRESETS } from '../../destination/presets.js';
import { type FieldIssue, validate, validateField } from '../../destination/schema.js';
import { profileDataLocation } from '../../storage/s3path.js';
import { isFileReference } from './json-file.js';

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
export type Step = NumberedStep | 'saving' | 'keychain' | 'saveError' | 'saved' | 'leave' | 'cancelled';

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

export function fieldRow(def: FieldDef, values: Values): Row {
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

/** How a value reads on screen: secrets as `••••` plus their last 4, booleans as yes/no. */
export function displayValue(row: Row, value: string | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value.trim() === '') return typeof row.defaultValue === 'string' ? `(default ${row.defaultValue})` : '';
  // A key file's JSON ends the same way in every file: its last characters say nothing, so none are shown.
  if (row.secret && row.type === 'json') return isFileReference(value) ? value.trim() : '•••• (JSON key)';
  return row.secret ? maskSecret(value) : value;
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
    if (values.storage === 'gcs')
      notes.push(
        filled(values, 'gcpServiceAccountJson')
          ? `Buckets are read and written with the ${FIELD_BY_ID.gcpServiceAccountJson.label} given with the catalog (the service-account key), as OLake does.`
          : `${FIELD_BY_ID.gcpServiceAccountJson.label} is empty: the service account then comes from the runtime's default credentials (GOOGLE_APPLICATION_CREDENTIALS, the VM's or pod's service account).`,
      );
    else if (!filled(values, 'accessKey') && !filled(values, 'secretKey'))
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
