// The home screen on a real 80x24 terminal comes back from a test, an edit or an export with the
// same profile selected, so pressing t again tests the same profile.
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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
    // Write the export into the temporary config folder, under another name.
    await t.press('\u0015', join(dir, 'out.json'), 'enter');
    expect(selectedRow(await t.waitFor(/^› \w+ /m))).toBe('gamma');
    expect(existsSync(join(dir, 'out.json'))).toBe(true);
    await t.press('q');
    expect(await t.exit()).toBe(0);
  });
});

// Issue 19, item 10: the export asks before replacing a file, says where it wrote and that the file
// holds secrets; from a git work tree (the pty runs in the repository) it defaults to the config folder.
describe('export from the home screen', { timeout: 90_000 }, () => {
  it('defaults outside the git work tree, says where it wrote, and asks before replacing', async () => {
    const dir = configWithThree();
    const t = floe(dir, { env: { FLOE_TOKEN: 'x' } });
    await t.waitFor(/^› alpha/m);
    await t.press('x');
    await t.waitFor('exports/alpha-destination.json');
    await t.press('enter');
    const out = join(dir, 'exports', 'alpha-destination.json');
    await t.waitFor(/✓ Wrote[\s\S]*mode 0600; it holds the profile's secrets/);
    expect(t.screen().join('').replace(/\s+/g, '')).toContain(`Wrote${out}`.replace(/\s+/g, ''));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'exports')).mode & 0o777).toBe(0o700);
    writeFileSync(out, 'kept');
    chmodSync(out, 0o600);

    await t.press('x');
    await t.waitFor('exports/alpha-destination.json');
    await t.press('enter');
    await t.waitFor('exists. Replace it? (y/N)');
    await t.press('n');
    await t.waitFor('exports/alpha-destination.json');
    expect(readFileSync(out, 'utf8')).toBe('kept');
    t.burst('enter', 'y');
    await t.waitFor(/✓ Wrote/);
    expect(readFileSync(out, 'utf8')).toContain('"writer"');
    await t.press('q');
    expect(await t.exit()).toBe(0);
  });
});

describe('full-screen views use the alternate screen', { timeout: 90_000 }, () => {
  it('a screen left leaves nothing behind, and quitting gives the shell its screen back with the result', async () => {
    const dir = configWithThree();
    const t = floe(dir, {
      command: ['sh', '-c', `echo before-floe; exec "${process.execPath}" bin/floe.js`],
      env: { FLOE_TOKEN: 'x', FLOE_ACCESS_KEY: 'x', FLOE_SECRET_KEY: 'x' },
    });
    await t.waitFor(/^› alpha/m);
    expect(t.screen().join('\n')).not.toContain('before-floe');
    // One burst: down to beta, test it.
    t.write('\u001b[Bt');
    await t.waitFor(/Connection test · beta[\s\S]*checks failed/);
    expect(t.screen().join('\n')).not.toMatch(/^› alpha/m);
    await t.press('v');
    await t.waitFor('HTTP trace (');
    await t.press('q');
    await t.waitFor(/^› beta/m);
    const home = t.screen().join('\n');
    expect(home).not.toContain('Connection test');
    expect(home).not.toContain('HTTP trace');
    await t.press('q');
    expect(await t.exit()).toBe(0);
    const shell = t.screen().join('\n');
    expect(shell).toContain('before-floe');
    expect(shell).toMatch(/checks failed for profile "beta" \(CATALOG_/);
    expect(shell).not.toContain('floe · OLake Iceberg REST destinations');
    expect(t.raw()).toContain('\u001b[?1049h');
    expect(t.raw()).toContain('\u001b[?1049l');
  });
});
