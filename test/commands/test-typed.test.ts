// Issue 19, item 3: "Don't store them" tests with every secret just typed, the optional S3 keys too.
import { describe, expect, it } from 'vitest';
import type { LoadedProfile } from '../../src/app/profiles.js';
import { withTyped } from '../../src/commands/test.js';
import { emptyValues } from '../../src/destination/fields.js';

function loaded(fields: LoadedProfile['values']['fields']): LoadedProfile {
  const values = { ...emptyValues('token'), fields };
  return {
    name: 'p',
    stored: { secretStorage: 'env', storedSecrets: [] } as unknown as LoadedProfile['stored'],
    values,
    missing: fields.token === undefined ? ['token'] : [],
  };
}

describe('the test after "Don\'t store them"', () => {
  it('uses the S3 keys just typed, which no rule requires', () => {
    const profile = withTyped(loaded({ catalogUrl: 'http://c' }), {
      token: 'typed-token',
      accessKey: 'AKIATYPED',
      secretKey: 'typed-secret',
    });
    expect(profile.values.fields).toMatchObject({
      token: 'typed-token',
      accessKey: 'AKIATYPED',
      secretKey: 'typed-secret',
    });
    expect(profile.missing).toEqual([]);
  });

  it('leaves what the environment or the store gave', () => {
    const profile = withTyped(loaded({ token: 'from-env', accessKey: 'AKIAENV' }), {
      token: 'typed-token',
      accessKey: 'AKIATYPED',
    });
    expect(profile.values.fields.token).toBe('from-env');
    expect(profile.values.fields.accessKey).toBe('AKIAENV');
  });
});
