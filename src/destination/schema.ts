// Zod schemas derived from the field registry, discriminated on the authentication type.
// This is the only validation there is: the wizard, flags and import all go through it.
import * as z from 'zod';
import {
  AUTH_TYPE_INFO,
  AUTH_TYPES,
  type AuthType,
  applicableFields,
  FIELD_BY_ID,
  FIELDS,
  type FieldDef,
  type FieldId,
  fieldText,
  filled,
  googleSupported,
  STORAGE_KINDS,
  type Values,
} from './fields.js';
import { GOOGLE_MIN_VERSION, PRESET_IDS, PRESETS } from './presets.js';

export interface FieldIssue {
  /** A field id, or `preset` / `authType` / `storage` / `targetVersion`. */
  field: FieldId | 'preset' | 'authType' | 'storage' | 'targetVersion';
  label: string;
  rule: string;
  example: string;
  /** `<label>: <rule> (e.g. <example>)`, one line. */
  message: string;
}

const META = {
  preset: { label: 'Catalog', example: 'polaris' },
  authType: { label: 'Authentication Type', example: 'oauth2' },
  storage: { label: 'Storage', example: 's3-compatible' },
  targetVersion: { label: 'Target OLake Version', example: '0.9.4' },
} as const;

function issue(field: FieldIssue['field'], rule: string, values?: Values): FieldIssue {
  const meta =
    field === 'storage'
      ? { ...META.storage, example: values?.storage === 'gcs' ? 'aws' : 'gcs' }
      : META[field as keyof typeof META];
  const def = field in META ? meta : fieldText(FIELD_BY_ID[field as FieldId], values);
  return {
    field,
    label: def.label,
    rule,
    example: def.example,
    message: `${def.label}: ${rule} (e.g. ${def.example})`,
  };
}

function valueSchema(def: FieldDef) {
  return def.type === 'boolean' ? z.boolean().optional() : z.string().optional();
}

/**
 * C0 and C1 control characters and bidirectional overrides: no catalog, key or URL holds them, and on a
 * terminal they move the cursor, retitle the window or reorder text. A service-account JSON may span lines.
 */
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const CONTROL_IN_JSON = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** The rule the value of `def` breaks for these values (OLake's forced value first), or null. */
function brokenRule(def: FieldDef, values: Values): string | null {
  const preset = PRESETS[values.preset];
  const forced = preset.forced?.[def.id];
  const raw = values.fields[def.id];
  const value = typeof raw === 'string' ? raw.trim() : raw;
  if (value === undefined || value === '') return null;
  if (forced !== undefined && value !== forced)
    return `must be ${forced === true ? 'on' : forced === false ? 'off' : forced} for ${preset.label} (OLake forces it)`;
  if (typeof value !== 'string') return null;
  const control = (def.type === 'json' ? CONTROL_IN_JSON : CONTROL).exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `must not contain control characters: U+${code} at position ${[...value.slice(0, control.index)].length + 1}`;
  }
  return def.rule ? def.rule(value, values) : null;
}

/** A choice that the preset or the target OLake version rules out. */
function choiceIssue(values: Values): { path: string[]; message: string } | null {
  const preset = PRESETS[values.preset];
  if (!preset.authTypes.includes(values.authType))
    return {
      path: ['authType'],
      message: `must be one of ${preset.authTypes.join(', ')} for ${preset.label}`,
    };
  if (values.authType === 'google' && !googleSupported(values))
    return {
      path: ['targetVersion'],
      message: `must be ${GOOGLE_MIN_VERSION} or later for ${AUTH_TYPE_INFO.google.label} authentication (or latest)`,
    };
  if (values.storage === 'gcs' && !googleSupported(values))
    return {
      path: ['targetVersion'],
      message: `must be ${GOOGLE_MIN_VERSION} or later for Google Cloud Storage (OLake reads gcp_service_account_json from ${GOOGLE_MIN_VERSION}; or latest)`,
    };
  const location = [values.fields.warehouse, values.fields.dataLocation].find(
    (l) => typeof l === 'string' && /^(gs|s3a?):\/\//.test(l.trim()),
  );
  if (typeof location === 'string' && location.trim().startsWith('gs://') !== (values.storage === 'gcs'))
    return {
      path: ['storage'],
      message:
        values.storage === 'gcs'
          ? `must be aws or s3-compatible for the s3:// location ${location.trim()}`
          : `must be gcs for the gs:// location ${location.trim()} (OLake reads it with GCSFileIO)`,
    };
  return null;
}

function variant(authType: AuthType) {
  const shape: Partial<Record<FieldId, z.ZodType>> = {};
  for (const def of FIELDS) shape[def.id] = valueSchema(def);
  return z
    .object({
      preset: z.enum(PRESET_IDS, { error: `must be one of ${PRESET_IDS.join(', ')}` }),
      authType: z.literal(authType),
      storage: z.enum(STORAGE_KINDS, { error: `must be one of ${STORAGE_KINDS.join(', ')}` }),
      targetVersion: z
        .string()
        .regex(/^(latest|v?\d+\.\d+\.\d+)$/, { error: 'must be "latest" or a version like 0.9.4' }),
      fields: z.object(shape),
    })
    .superRefine((v, ctx) => {
      const values = v as Values;
      const choice = choiceIssue(values);
      if (choice) ctx.addIssue({ code: 'custom', ...choice });
      for (const def of applicableFields(values)) {
        const broken = brokenRule(def, values);
        if (broken) ctx.addIssue({ code: 'custom', path: ['fields', def.id], message: broken });
        else if (
          def.required(values) &&
          !filled(values, def.id) &&
          !PRESETS[values.preset].forced?.[def.id]
        ) {
          const why =
            def.id === 'accessKey' || def.id === 'secretKey'
              ? 'is required when the other key is set: give both keys, or neither to use the runtime environment'
              : 'is required';
          ctx.addIssue({ code: 'custom', path: ['fields', def.id], message: why });
        }
      }
    });
}

export const valuesSchema = z.discriminatedUnion(
  'authType',
  AUTH_TYPES.map((t) => variant(t)) as unknown as [
    ReturnType<typeof variant>,
    ...ReturnType<typeof variant>[],
  ],
  { error: `must be one of ${AUTH_TYPES.join(', ')}` },
);

function toIssues(error: z.ZodError, values: Values): FieldIssue[] {
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const i of error.issues) {
    const field = (i.path[0] === 'fields' ? i.path[1] : i.path[0]) as FieldIssue['field'] | undefined;
    if (!field || seen.has(field)) continue;
    seen.add(field);
    out.push(issue(field, i.message, values));
  }
  const order = (f: FieldIssue['field']) => (f in META ? -1 : FIELDS.findIndex((d) => d.id === f));
  return out.sort((a, b) => order(a.field) - order(b.field));
}

/**
 * Drops values of fields that do not apply, trims strings, sets what OLake forces for the preset's
 * flavour and forces SigV4 on for `sigv4`.
 */
export function normalize(values: Values): Values {
  const fields: Values['fields'] = {};
  const forced = PRESETS[values.preset].forced ?? {};
  for (const def of applicableFields(values)) {
    const value = forced[def.id] ?? values.fields[def.id];
    if (typeof value === 'string' && value.trim() !== '') {
      fields[def.id] = value.trim();
    } else if (typeof value === 'boolean') fields[def.id] = value;
  }
  fields.sigv4 = values.authType === 'sigv4';
  return { ...values, fields };
}

export type ValidationResult = { ok: true; values: Values } | { ok: false; issues: FieldIssue[] };

export function validate(values: Values): ValidationResult {
  const result = valuesSchema.safeParse(values);
  if (!result.success) return { ok: false, issues: toIssues(result.error, values) };
  return { ok: true, values: normalize(values) };
}

/** Validates one field the way the form does when leaving it: its rule, and whether it is required. */
export function validateField(values: Values, id: FieldId): FieldIssue | null {
  const result = validate(values);
  if (result.ok) return null;
  return result.issues.find((i) => i.field === id) ?? null;
}
