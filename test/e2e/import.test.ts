// `floe import` over an existing profile on a real terminal asks before replacing it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';
import { floe } from './support.js';

const OLDER_FORM = new URL('../fixtures/import/older-form.json', import.meta.url).pathname;

function withProfile(): { dir: string; before: string } {
  const dir = tempConfigDir();
  new ConfigStore(dir).saveProfile('tok', sample('token'), 'env', []);
  return { dir, before: readFileSync(join(dir, 'config.json'), 'utf8') };
}

describe('floe import over an existing profile, on a terminal', () => {
  it('asks; "n" keeps the profile and exits 1', async () => {
    const { dir, before } = withProfile();
    const t = floe(dir, { args: ['import', OLDER_FORM, '--profile', 'tok', '--env-secrets'] });
    await t.waitFor('Profile "tok" exists (authentication: token). Replace it? [y/N]');
    await t.press('n', 'enter');
    expect(await t.exit()).toBe(1);
    expect(t.screen().join('\n')).toContain('Profile "tok" kept as it was; nothing imported.');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('asks; "y" replaces it', async () => {
    const { dir } = withProfile();
    const t = floe(dir, { args: ['import', OLDER_FORM, '--profile', 'tok', '--env-secrets'] });
    await t.waitFor('Replace it? [y/N]');
    await t.press('y', 'enter');
    expect(await t.exit()).toBe(0);
    expect(new ConfigStore(dir).getProfile('tok')?.authType).toBe('oauth2');
  });
});
