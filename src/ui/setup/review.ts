// The review screen's lines (no React): every choice and every field that applies, in wizard order,
// each with where it is edited and where its value came from.
import {
  AUTH_TYPE_INFO,
  applicableFields,
  type FieldDef,
  STORAGE_INFO,
  type Values,
} from '../../destination/fields.js';
import { PRESETS } from '../../destination/presets.js';
import { type Origins, sourceTag } from './origin.js';
import {
  displayValue,
  type FormStep,
  fieldRow,
  type NumberedStep,
  type RowId,
  rowValue,
  TARGET_VERSION_ROW,
} from './rows.js';

export interface ReviewLine {
  label: string;
  value: string;
  /** Where the line is edited: its step, and its row on a form. */
  target: { step: NumberedStep; row?: RowId };
}

/**
 * Every choice and every field that applies, in wizard order, for the review screen; a value floe
 * suggested or read from the environment says so.
 */
export function reviewLines(values: Values, origins: Origins = {}): ReviewLine[] {
  const line =
    (step: FormStep) =>
    (def: FieldDef): ReviewLine => {
      const row = fieldRow(def, values);
      const shown = displayValue(row, rowValue(values, row)) || '(not set)';
      const tag = sourceTag(origins[def.id], def.id);
      return {
        label: row.label,
        value: tag ? `${shown} · ${tag}` : shown,
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
