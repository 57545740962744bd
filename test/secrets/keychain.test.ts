import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it as plainIt } from 'vitest';
import { explainKeychainError, KEYTAR_MISSING, keychainBackend } from '../../src/secrets/keychain.js';
import { itWithService } from '../support/services.js';

const it = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

/** What Node itself throws when `import('keytar')` finds no keytar (run where no node_modules is). */
function nodeError(code: string): Error {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: mkdtempSync(join(tmpdir(), 'floe-no-keytar-')),
    encoding: 'utf8',
  });
  return new Error(run.stdout);
}

describe('keytar missing after an install that could not build it', () => {
  plainIt('is one line saying so and what to do, without the path of the module that asked', () => {
    const missing = nodeError("import('keytar').catch((e) => process.stdout.write(e.message))");
    expect(missing.message).toMatch(/^Cannot find package 'keytar' imported from \//);
    expect(explainKeychainError(missing)).toBe(KEYTAR_MISSING);
    // keytar's JavaScript installed, its addon never built (keytar's lib/keytar.js requires it).
    const unbuilt = nodeError(
      "try { (await import('node:module')).createRequire(process.cwd() + '/')('./build/Release/keytar.node') } catch (e) { process.stdout.write(e.message.split('\\n')[0]) }",
    );
    expect(unbuilt.message).toMatch(/^Cannot find module '\.\/build\/Release\/keytar\.node'/);
    expect(explainKeychainError(unbuilt)).toBe(KEYTAR_MISSING);
    expect(KEYTAR_MISSING).toMatch(/^floe was installed without its keychain module; /);
    expect(KEYTAR_MISSING).not.toContain('\n');
  });
});

describe('keychain backend (real Secret Service)', () => {
  it('stores, finds (via secret-tool) and deletes a secret', async () => {
    const kc = keychainBackend('floe-test');
    await kc.set('profile/p/token', 'sentinel-abc');
    expect(await kc.get('profile/p/token')).toBe('sentinel-abc');
    const found = spawnSync('secret-tool', ['lookup', 'service', 'floe-test', 'account', 'profile/p/token'], {
      encoding: 'utf8',
    });
    expect(found.stdout).toBe('sentinel-abc');
    expect(await kc.delete('profile/p/token')).toBe(true);
    expect(await kc.get('profile/p/token')).toBeUndefined();
  });
});
