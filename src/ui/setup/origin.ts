// Where each value of the wizard came from, and the one rule for values: a value floe suggests or
// derives stays a suggestion until the user edits the field; from the first edit it is the user's and is
// never rewritten. A value from the environment (FLOE_*) is used for this run and saved only when the
// user keeps it on the review. Switching catalog or authentication type drops what the previous choice
// suggested, and the catalog's URL and Warehouse, whose meaning is the catalog's own.
import {
  FIELD_BY_ID,
  FIELDS,
  type FieldId,
  fieldText,
  filled,
  type SecretEnv,
  type Values,
} from '../../destination/fields.js';
import { fillFromPreset, PRESETS } from '../../destination/presets.js';

/** typed: the user's (typed, a flag, or the saved profile); suggested: floe's; env: a FLOE_* variable; kept: env, saved. */
export type Origin = 'typed' | 'suggested' | 'env' | 'kept';
export type Origins = Partial<Record<FieldId, Origin>>;

/** Values from the environment offered to the wizard: the variable's name and its value. */
export type EnvValues = Partial<Record<FieldId, { name: SecretEnv; value: string }>>;

/** Fields whose meaning is the catalog's own: what was typed for one catalog does not apply to another. */
const CATALOG_BOUND: readonly FieldId[] = ['catalogUrl', 'warehouse'];

/**
 * The origins of `values` when the wizard opens: `typed` names the user's fields (every filled one when
 * not given); the other filled fields are suggestions; empty secret fields that a FLOE_* variable sets
 * take its value, marked as from the environment.
 */
export function initialOrigins(
  values: Values,
  typed: readonly FieldId[] | undefined,
  env: EnvValues = {},
): { values: Values; origins: Origins } {
  const origins: Origins = {};
  const fields = { ...values.fields };
  const forced = PRESETS[values.preset].forced ?? {};
  for (const def of FIELDS) {
    if (def.id in forced || !filled(values, def.id)) continue;
    origins[def.id] = !typed || typed.includes(def.id) ? 'typed' : 'suggested';
  }
  for (const [id, from] of Object.entries(env) as [FieldId, { name: SecretEnv; value: string }][]) {
    if (filled(values, id) || from.value === '') continue;
    fields[id] = from.value;
    origins[id] = 'env';
  }
  return { values: { ...values, fields }, origins };
}

const userOwned = (origin: Origin | undefined) => origin !== undefined && origin !== 'suggested';

/**
 * The values after an edit (`before` is the values before it), filled as the preset fills them; a field
 * the user owns keeps exactly its value, emptied or not. What the preset filled in is a suggestion.
 */
export function refill(
  values: Values,
  origins: Origins,
  before?: Values,
): { values: Values; origins: Origins } {
  const next = fillFromPreset(values, before);
  const forced = PRESETS[next.preset].forced ?? {};
  const fields = { ...next.fields };
  const out: Origins = { ...origins };
  for (const id of Object.keys(fields) as FieldId[]) {
    if (id in forced) continue;
    if (userOwned(origins[id])) {
      if (values.fields[id] === undefined) delete fields[id];
      else fields[id] = values.fields[id]!;
    } else if (fields[id] !== values.fields[id]) out[id] = 'suggested';
  }
  return { values: { ...next, fields }, origins: out };
}

/** The user edited this field: it is theirs from now on. */
export function own(origins: Origins, id: FieldId): Origins {
  return { ...origins, [id]: 'typed' };
}

export interface Switched {
  values: Values;
  origins: Origins;
  /** What was dropped, e.g. `Catalog URL (https://…)`, for the line that says so. */
  dropped: string[];
}

function describe(values: Values, id: FieldId): string {
  const value = values.fields[id];
  const def = FIELD_BY_ID[id];
  const { label } = fieldText(def, values);
  if (def.secret || typeof value !== 'string') return label;
  return `${label} (${value.length > 40 ? `${value.slice(0, 39)}…` : value})`;
}

/**
 * Another catalog (`next.preset`) or authentication type (`next.authType`): drops the suggestions of
 * the previous choice and, on a catalog switch, the catalog-bound fields; keeps everything else the user
 * typed; fills the new choice's suggestions.
 */
export function switchChoice(before: Values, origins: Origins, next: Values): Switched {
  const catalog = next.preset !== before.preset;
  const fields = { ...next.fields };
  const kept: Origins = { ...origins };
  const removed: FieldId[] = [];
  const forcedBefore = PRESETS[before.preset].forced ?? {};
  for (const def of FIELDS) {
    const id = def.id;
    if (!filled(before, id)) continue;
    const suggested = origins[id] === 'suggested' || (catalog && id in forcedBefore);
    const bound = catalog && CATALOG_BOUND.includes(id) && origins[id] === 'typed';
    if (!suggested && !bound) continue;
    delete fields[id];
    delete kept[id];
    if (def.applies(before) && !(id in forcedBefore)) removed.push(id);
  }
  const refilled = refill({ ...next, fields }, kept);
  const values = catalog ? refilled.values : { ...refilled.values, storage: next.storage };
  const dropped = removed
    .filter((id) => values.fields[id] !== before.fields[id])
    .map((id) => describe(before, id));
  return { values, origins: refilled.origins, dropped };
}

/** The values to save: those from the environment the user did not keep are left out. */
export function toSave(values: Values, origins: Origins): Values {
  const fields = { ...values.fields };
  for (const [id, origin] of Object.entries(origins) as [FieldId, Origin][])
    if (origin === 'env') delete fields[id];
  return { ...values, fields };
}

/** How a value's source reads next to it: `suggested`, `from FLOE_ACCESS_KEY`, `from FLOE_…, kept`. */
export function sourceTag(origin: Origin | undefined, id: FieldId | 'targetVersion'): string | undefined {
  if (id === 'targetVersion') return undefined;
  if (origin === 'suggested') return 'suggested';
  const env = FIELD_BY_ID[id].env;
  if (origin === 'env') return `from ${env}, not saved`;
  if (origin === 'kept') return `from ${env}, saved`;
  return undefined;
}
