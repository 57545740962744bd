// The home screen on a real 80x24 terminal comes back from a test, an edit or an export with the
// same profile selected, so pressing t again tests the same profile.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { sample } from '../fixtures/samples.js';
import { floe, tempDir } from './support.js';

function configWithThree(): string {
  const dir = tempDir('floe-e2e-home-');
  const config = new ConfigStore(dir);
  for (const name of ['alpha', 'beta', 'gamma']) {
    const values = sample('token');
    values.fields.catalogUrl = 'http://127.0.0.1:1/api/catalog';
    config.saveProfile(name, values, 'env', []);
  }
  return dir;
}

const selectedRow = (screen: string[]) => screen.find((line) => line.startsWith('› '))?.split(/\s+/)[1];

describe('the home screen keeps the selection', { timeout: 90_000 }, () => {
  it('after a test and after an export', async () => {
    const dir = configWithThree();
    const t = floe(dir, { env: { FLOE_TOKEN: 'x', FLOE_ACCESS_KEY: 'x', FLOE_SECRET_KEY: 'x' } });
    await t.waitFor(/^› alpha/m);
    await t.press('down');
    await t.waitFor(/^› beta/m);
    await t.press('t');
    await t.waitFor(/checks failed/);
    await t.press('q');
    expect(selectedRow(await t.waitFor(/^› \w+ /m))).toBe('beta');

    await t.press('down');
    await t.waitFor(/^› gamma/m);
    await t.press('x');
    await t.waitFor('destination.json');
    // The pty runs in the repository: write the export into the temporary config folder instead.
    await t.press(
      ...Array<string>('destination.json'.length).fill('backspace'),
      join(dir, 'out.json'),
      'enter',
    );
    expect(selectedRow(await t.waitFor(/^› \w+ /m))).toBe('gamma');
    expect(existsSync(join(dir, 'out.json'))).toBe(true);
    await t.press('q');
    expect(await t.exit()).toBe(0);
  });
});
