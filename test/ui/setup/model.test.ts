import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyValues, STORAGE_KINDS, type Values } from '../../../src/destination/fields.js';
import { PRESET_IDS, type PresetId } from '../../../src/destination/presets.js';
import { listWindow, truncate, wrappedRows } from '../../../src/ui/components/layout.js';
import { readJsonArgument } from '../../../src/ui/setup/json-file.js';
import {
  type Action,
  authChoices,
  formRows,
  initialState,
  reducer,
  reviewLines,
  secretEnvVars,
  type WizardState,
} from '../../../src/ui/setup/model.js';
import { formNotes } from '../../../src/ui/setup/rows.js';
import { sample } from '../../fixtures/samples.js';

function run(state: WizardState, ...actions: Action[]): WizardState {
  return actions.reduce(reducer, state);
}

describe('editing an existing profile from its review', () => {
  const line = (s: WizardState, label: string) => reviewLines(s.values).findIndex((l) => l.label === label);
  const to = (s: WizardState, label: string) =>
    run(s, { type: 'move', delta: line(s, label) - s.reviewCursor, reviewMax: 0, reviewRows: 40 });

  it('opens on the review, edits the selected field alone and comes back to the review', () => {
    let s = initialState('p', sample('token'), 'keychain', 'review');
    expect(s.step).toBe('review');
    s = run(to(s, 'Region'), { type: 'editLine' });
    expect(s.step).toBe('fields');
    expect(formRows('fields', s.values)[s.focus.fields]?.id).toBe('region');
    s = run(s, { type: 'edit', id: 'region', value: 'eu-west-3' }, { type: 'enter' });
    expect(s.step).toBe('review');
    expect(s.editing).toBeUndefined();
    expect(reviewLines(s.values)[s.reviewCursor]).toMatchObject({ label: 'Region', value: 'eu-west-3' });
    s = run(s, { type: 'enter' });
    expect(s.step).toBe('saving');
    expect(s.pending?.fields.region).toBe('eu-west-3');
  });

  it('Esc leaves an edit without changing the value; an invalid value keeps the edit open', () => {
    let s = run(to(initialState('p', sample('token'), 'keychain', 'review'), 'REST Catalog URL'), {
      type: 'editLine',
    });
    s = run(s, { type: 'edit', id: 'catalogUrl', value: 'not a url' }, { type: 'enter' });
    expect(s.step).toBe('fields');
    expect(s.errors.catalogUrl).toMatch(/REST Catalog URL/);
    s = run(s, { type: 'back' });
    expect(s.step).toBe('review');
    expect(s.values.fields.catalogUrl).toBe(sample('token').fields.catalogUrl);
    expect(s.errors).toEqual({});
  });

  it('a new authentication type asks only for what it now needs, then returns to the review', () => {
    let s = run(to(initialState('p', sample('none'), 'keychain', 'review'), 'Authentication Type'), {
      type: 'editLine',
    });
    expect(s.step).toBe('authType');
    s = run(
      s,
      { type: 'move', delta: authChoices(s.values).indexOf('token') - s.cursor.authType },
      { type: 'enter' },
    );
    expect(s.step).toBe('fields');
    expect(formRows('fields', s.values)[s.focus.fields]?.id).toBe('token');
    s = run(s, { type: 'edit', id: 'token', value: 'tok-123456789' }, { type: 'enter' });
    expect(s.step).toBe('review');
    expect(s.values.authType).toBe('token');
  });
});

describe('wizard reducer', () => {
  it('keeps values typed on a screen when going back and forth', () => {
    let s = run(
      initialState('p', emptyValues()),
      { type: 'enter' },
      { type: 'move', delta: 1 },
      { type: 'enter' },
    );
    expect(s.step).toBe('fields');
    s = run(s, { type: 'edit', id: 'catalogUrl', value: 'http://localhost:8181' }, { type: 'back' });
    expect(s.step).toBe('authType');
    s = run(s, { type: 'enter' });
    expect(s.values.fields.catalogUrl).toBe('http://localhost:8181');
  });

  it('the first screen chooses the catalog: its auth types, suggestions, labels and derived values follow', () => {
    let s = initialState('p', emptyValues());
    expect(s.step).toBe('preset');
    s = run(s, { type: 'move', delta: 1 }, { type: 'enter' });
    expect(s.step).toBe('authType');
    expect(authChoices(s.values)).toEqual(['oauth2', 'token']);
    expect(s.values).toMatchObject({
      preset: 'polaris',
      authType: 'oauth2',
      fields: { scope: 'PRINCIPAL_ROLE:ALL' },
    });
    s = run(s, { type: 'enter' });
    expect(formRows('fields', s.values).map((r) => r.label)).toContain('Polaris Catalog Name');
    s = run(s, { type: 'edit', id: 'catalogUrl', value: 'http://polaris:8181/api/catalog' });
    expect(s.values.fields.oauth2Uri).toBe('http://polaris:8181/api/catalog/v1/oauth/tokens');
    expect(reviewLines(s.values)[0]).toMatchObject({ label: 'Catalog', value: 'Apache Polaris' });
  });

  it('derives the rows from the registry: auth rows follow the auth type, the version row leads advanced', () => {
    const values: Values = { ...emptyValues('sigv4') };
    expect(formRows('fields', values).map((r) => r.id)).toEqual([
      'catalogUrl',
      'warehouse',
      'region',
      'signingName',
      'signingRegion',
    ]);
    expect(formRows('advanced', values).map((r) => r.id)).toEqual([
      'targetVersion',
      'catalogName',
      'icebergDb',
      'arrowWrites',
      'noIdentifierFields',
    ]);
    expect(formRows('advanced', { ...values, targetVersion: '0.3.4' }).map((r) => r.id)).not.toContain(
      'catalogName',
    );
  });

  it('fills an emptied version with latest when it is left', () => {
    let s = run(initialState('p', emptyValues()), { type: 'enter' });
    s = { ...s, step: 'advanced' };
    s = run(s, { type: 'edit', id: 'targetVersion', value: '' }, { type: 'move', delta: 1 });
    expect(s.values.targetVersion).toBe('latest');
  });

  it('reviews secrets masked and lists the FLOE_* variables a profile without stored secrets needs', () => {
    const values: Values = {
      ...emptyValues('oauth2'),
      fields: {
        credential: 'client:very-secret-XYZW',
        accessKey: 'AKIAEXAMPLE0000',
        secretKey: 'abcdefghijkl',
      },
    };
    const review = reviewLines(values);
    expect(review.find((l) => l.label === 'REST Credential')?.value).toBe('••••XYZW');
    expect(JSON.stringify(review)).not.toContain('very-secret');
    expect(secretEnvVars(values)).toEqual(['FLOE_CREDENTIAL', 'FLOE_ACCESS_KEY', 'FLOE_SECRET_KEY']);
  });

  it('offers the keychain choice only when the keychain was the target', () => {
    const saving: WizardState = { ...initialState('p', emptyValues()), step: 'saving' };
    expect(run(saving, { type: 'saveFailed', keychainReason: 'no bus', message: 'x' }).step).toBe('keychain');
    const toFile = { ...saving, storage: 'file' as const };
    expect(
      run(toFile, { type: 'saveFailed', keychainReason: 'no bus', message: 'no keychain' }),
    ).toMatchObject({
      step: 'saveError',
      saveError: 'no keychain',
    });
  });
});

describe('layout helpers', () => {
  it('truncates to one line with an ellipsis', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('ab\ncd', 10)).toBe('ab cd');
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('counts word-wrapped rows', () => {
    expect(wrappedRows('aaa bbb ccc', 7)).toBe(2);
    expect(wrappedRows('a'.repeat(25), 10)).toBe(3);
    expect(wrappedRows('', 10)).toBe(1);
  });

  it('always shows the focused item and never exceeds the budget when items fit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 6, max: 30 }),
        (heights, f, budget) => {
          const focus = f % heights.length;
          const w = listWindow(heights, focus, budget);
          expect(w.start).toBeLessThanOrEqual(focus);
          expect(w.end).toBeGreaterThan(focus);
          const used =
            heights.slice(w.start, w.end).reduce((a, b) => a + b, 0) +
            (w.hiddenAbove > 0 ? 1 : 0) +
            (w.hiddenBelow > 0 ? 1 : 0);
          expect(used).toBeLessThanOrEqual(Math.max(budget, heights[focus]! + 2));
        },
      ),
    );
  });
});

describe('@path for the JSON field', () => {
  it('explains an empty path and a directory', () => {
    expect(readJsonArgument('@', 'Key')).toEqual({
      ok: false,
      message: 'Key: give a file path after "@", e.g. @./key.json',
    });
    expect(readJsonArgument('@/tmp', 'Key')).toEqual({
      ok: false,
      message: 'Key: cannot read /tmp (it is a directory)',
    });
  });
});

// Issue 30, item 6: defaults follow the choice.
describe('a catalog that decides the authentication type and suggests the storage', () => {
  const choosePreset = (id: PresetId) =>
    run(initialState('p', emptyValues(), 'keychain', 'preset'), {
      type: 'move',
      delta: PRESET_IDS.indexOf(id),
    });
  /** The storage list as it opens (Esc from the storage form comes back to it). */
  const storageList = (s: WizardState) => run({ ...s, step: 'storage' }, { type: 'back' });

  it.each([
    ['biglake', 'Google', 'gcs'],
    ['r2', 'Bearer token', 's3-compatible'],
  ] as const)(
    '%s: the one auth type is chosen and said, and the storage list opens on %s',
    (id, auth, storage) => {
      const s = run(choosePreset(id), { type: 'enter' });
      expect(s.step).toBe('fields');
      expect(s.notice).toContain(`offers one authentication type, used here: ${auth}.`);
      const list = storageList(s);
      expect(list.step).toBe('storageKind');
      expect(STORAGE_KINDS[list.cursor.storageKind]).toBe(storage);
      expect(run(list, { type: 'enter' }).values.storage).toBe(storage);
      expect(run(s, { type: 'back' }).step).toBe('preset');
    },
  );

  it('asks for the auth type when the catalog offers several', () => {
    expect(run(choosePreset('polaris'), { type: 'enter' }).step).toBe('authType');
  });

  it('talks about the service-account key, not access keys, on the GCS storage form', () => {
    const gcs: Values = { ...emptyValues(), preset: 'biglake', authType: 'google', storage: 'gcs' };
    const empty = formNotes('storage', gcs).join(' ');
    expect(empty).toContain('GCP Service Account JSON is empty');
    expect(empty).not.toMatch(/Access Key|IAM role/);
    const given = formNotes('storage', { ...gcs, fields: { gcpServiceAccountJson: '{}' } }).join(' ');
    expect(given).toContain('(the service-account key)');
  });
});
