// Zod schemas derived from the field registry, discriminated on the authentication type.
// This is the only validation there is: the wizard, flags and import all go through it.
import { z } from 'zod';
import {
  AUTH_TYPES,
  type AuthType,
  applicableFields,
  FIELD_BY_ID,
  FIELDS,
  type FieldDef,
  type FieldId,
  filled,
  STORAGE_KINDS,
  type Values,
} from './fields.js';

export interface FieldIssue {
  /** A field id, or `authType` / `storage` / `targetVersion`. */
  field: FieldId | 'authType' | 'storage' | 'targetVersion';
  label: string;
  rule: string;
  example: string;
  /** `<label>: <rule> (e.g. <example>)`, one line. */
  message: string;
}

const META = {
  authType: { label: 'Authentication Type', example: 'oauth2' },
  storage: { label: 'Storage', example: 's3-compatible' },
  targetVersion: { label: 'Target OLake Version', example: '0.9.4' },
} as const;

function issue(field: FieldIssue['field'], rule: string): FieldIssue {
  const def = field in META ? META[field as keyof typeof META] : FIELD_BY_ID[field as FieldId];
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

function variant(authType: AuthType) {
  const shape: Partial<Record<FieldId, z.ZodType>> = {};
  for (const def of FIELDS) shape[def.id] = valueSchema(def);
  return z
    .object({
      authType: z.literal(authType),
      storage: z.enum(STORAGE_KINDS, { error: `must be one of ${STORAGE_KINDS.join(', ')}` }),
      targetVersion: z
        .string()
        .regex(/^(latest|v?\d+\.\d+\.\d+)$/, { error: 'must be "latest" or a version like 0.9.4' }),
      fields: z.object(shape),
    })
    .superRefine((v, ctx) => {
      const values = v as Values;
      for (const def of applicableFields(values)) {
        const value = values.fields[def.id];
        const broken = typeof value === 'string' && value.trim() && def.rule ? def.rule(value.trim()) : null;
        if (broken) ctx.addIssue({ code: 'custom', path: ['fields', def.id], message: broken });
        else if (def.required(values) && !filled(values, def.id)) {
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

function toIssues(error: z.ZodError): FieldIssue[] {
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const i of error.issues) {
    const field = (i.path[0] === 'fields' ? i.path[1] : i.path[0]) as FieldIssue['field'] | undefined;
    if (!field || seen.has(field)) continue;
    seen.add(field);
    out.push(issue(field, i.message));
  }
  const order = (f: FieldIssue['field']) => (f in META ? -1 : FIELDS.findIndex((d) => d.id === f));
  return out.sort((a, b) => order(a.field) - order(b.field));
}

/** Drops values of fields that do not apply, trims strings and forces SigV4 on for `sigv4`. */
export function normalize(values: Values): Values {
  const fields: Values['fields'] = {};
  for (const def of applicableFields(values)) {
    const value = values.fields[def.id];
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
  if (!result.success) return { ok: false, issues: toIssues(result.error) };
  return { ok: true, values: normalize(values) };
}

/** Validates one field the way the form does when leaving it: its rule, and whether it is required. */
export function validateField(values: Values, id: FieldId): FieldIssue | null {
  const result = validate(values);
  if (result.ok) return null;
  return result.issues.find((i) => i.field === id) ?? null;
}
