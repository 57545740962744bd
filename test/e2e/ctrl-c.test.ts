// Ctrl-C on a real terminal: each full-screen command exits 130 and leaves the terminal as it found
// it — the cursor shown again after the last hide, and raw mode off (`stty -a`, run by the same shell
// right after floe, shows icanon and echo).
import { describe, expect, it } from 'vitest';
import { BIN } from '../../scripts/lib/terminal.mjs';
import { ConfigStore } from '../../src/config/store.js';
import { floe, tempDir } from './support.js';

const HIDE_CURSOR = '\u001B[?25l';
const SHOW_CURSOR = '\u001B[?25h';

function configWithProfile(): string {
  const dir = tempDir('floe-e2e-ctrlc-');
  new ConfigStore(dir).saveProfile(
    'refused',
    {
      preset: 'rest',
      authType: 'none',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: 'http://127.0.0.1:1/api/catalog',
        warehouse: 's3://warehouse',
        region: 'us-east-1',
        s3Endpoint: 'http://127.0.0.1:1',
      },
    },
    'env',
    [],
  );
  return dir;
}

const CASES: { name: string; args: string[]; ready: string | RegExp }[] = [
  { name: 'the home screen', args: [], ready: 'refused' },
  {
    name: 'the setup wizard',
    args: ['setup', '--profile', 'e2e', '--insecure-storage'],
    ready: 'Catalog: which Iceberg REST catalog',
  },
  { name: 'the connection test', args: ['test', '--profile', 'refused'], ready: /checks failed/ },
];

describe('Ctrl-C on a terminal', { timeout: 60_000 }, () => {
  it.each(CASES)('leaves $name with exit 130 and the terminal restored', async ({ args, ready }) => {
    const script = `"${process.execPath}" "${BIN}" ${args.join(' ')}; echo "floe exited $?"; stty -a`;
    const t = floe(configWithProfile(), { command: ['sh', '-c', script] });
    await t.waitFor(ready);
    await t.press('ctrlC');
    expect(await t.exit()).toBe(0);

    const raw = t.raw();
    expect(raw).toMatch(/floe exited \d+/);
    expect(raw.lastIndexOf(HIDE_CURSOR)).toBeGreaterThanOrEqual(0);
    expect(raw.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(raw.lastIndexOf(HIDE_CURSOR));
    const stty = raw.slice(raw.indexOf('floe exited'));
    expect(stty).toMatch(/(^|\s)icanon\b/);
    expect(stty).toMatch(/(^|\s)echo\b/);
    expect(stty).not.toMatch(/-icanon\b/);
    expect(stty).not.toMatch(/(^|\s)-echo\b/);
    expect(raw.match(/floe exited (\d+)/)?.[1]).toBe('130');
  });
});

// Issue 19, item 13: Ctrl-C on the test screen leaves a summary line in the shell, as q does.
describe('Ctrl-C on the test screen', { timeout: 60_000 }, () => {
  it('leaves a summary line in the shell', async () => {
    const t = floe(configWithProfile(), { args: ['test', '--profile', 'refused'] });
    await t.waitFor(/checks failed/);
    await t.press('ctrlC');
    expect(await t.exit()).toBe(130);
    await t.waitFor(/\(Ctrl-C\) for profile "refused": \d+ of \d+ checks had passed/);
  });
});
