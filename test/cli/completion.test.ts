// floe completion bash|zsh|fish: each script passes its shell's syntax check, and bash and fish
// complete commands, flags, fixed flag values and the profile names of the config in use.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { sample } from '../fixtures/samples.js';
import { runCli, tempConfigDir } from '../support/cli.js';

const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'floe-completion-'));
let configDir: string;
let env: NodeJS.ProcessEnv;
const scripts: Record<string, string> = {};

/** A shell that must be installed here (.ci/run installs zsh and fish): absent, the test fails saying so. */
function shell(name: string, args: string[], input?: string) {
  const r = spawnSync(name, args, { env, input, encoding: 'utf8', timeout: 20_000 });
  if (r.error)
    throw new Error(`${name} is needed for this test (apt-get install ${name}): ${r.error.message}`);
  return r;
}

beforeAll(() => {
  configDir = tempConfigDir();
  const store = new ConfigStore(configDir);
  store.saveProfile('alpha', sample('none'), 'env', []);
  store.saveProfile('beta', sample('none'), 'env', []);
  // "floe" on PATH, as an installed floe would be.
  const bin = join(dir, 'bin');
  spawnSync('mkdir', ['-p', bin]);
  writeFileSync(join(bin, 'floe'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'floe'), 0o755);
  env = { ...process.env, FLOE_CONFIG_DIR: configDir, PATH: `${bin}:${process.env.PATH}` };
  for (const name of ['bash', 'zsh', 'fish']) {
    const r = runCli(['completion', name], { env });
    expect(r.status, r.stderr).toBe(0);
    scripts[name] = join(dir, `floe.${name}`);
    writeFileSync(scripts[name], r.stdout);
  }
});

/** What bash's completion offers for the words typed so far (the last one being completed). */
function bashComplete(words: string[]): string[] {
  const script = `source ${scripts.bash}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_floe; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = shell('bash', ['-c', script]);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

describe('floe completion', () => {
  it('each script passes its shell’s syntax check', () => {
    for (const name of ['bash', 'zsh', 'fish']) {
      const r = shell(name, ['-n', scripts[name] as string]);
      expect(r.status, `${name}: ${r.stderr}`).toBe(0);
    }
  });

  it('bash completes commands, actions, flags, flag values and profile names', () => {
    expect(bashComplete(['floe', 'te'])).toEqual(['test']);
    expect(bashComplete(['floe', 'jobs', 's'])).toEqual(['sync', 'show']);
    expect(bashComplete(['floe', 'setup', '--pre'])).toEqual(['--preset']);
    expect(bashComplete(['floe', 'setup', '--preset', 'po'])).toEqual(['polaris']);
    expect(bashComplete(['floe', 'export', '--format', 'py'])).toEqual(['pyiceberg', 'pyiceberg-env']);
    expect(bashComplete(['floe', 'test', '--profile', ''])).toEqual(['alpha', 'beta']);
    expect(bashComplete(['floe', 'completion', ''])).toEqual(['bash', 'zsh', 'fish', '--help']);
  });

  // Issue 19, item 13: -p completes profile names (not file names); --auth-type the preset's own.
  it("bash completes -p with profile names and --auth-type with the chosen preset's types", () => {
    expect(bashComplete(['floe', 'test', '-p', ''])).toEqual(['alpha', 'beta']);
    expect(bashComplete(['floe', 'setup', '--preset', 'glue', '--auth-type', ''])).toEqual(['sigv4']);
    expect(bashComplete(['floe', 'setup', '--preset', 'polaris', '--auth-type', ''])).toEqual([
      'oauth2',
      'token',
    ]);
    expect(bashComplete(['floe', 'setup', '--auth-type', 'n'])).toEqual(['none']);
  });

  it('bash never expands a profile name (a name like $(touch …) from a hand-edited file stays text)', () => {
    const marker = join(dir, 'expanded');
    const fake = join(dir, 'fake-floe');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' alpha '$(touch ${marker})' '\`touch ${marker}\`'\n`, {
      mode: 0o755,
    });
    const script = `source ${scripts.bash}
COMP_WORDS=('${fake}' 'test' '-p' ''); COMP_CWORD=3
_floe; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = shell('bash', ['-c', script]);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'alpha',
      `\\$\\(touch\\ ${marker.replace(/\//g, '/')}\\)`,
      expect.stringContaining('touch'),
    ]);
  });

  it('fish completes the same from its script', () => {
    const complete = (line: string) => {
      const r = shell('fish', ['--no-config', '-c', `source ${scripts.fish}; complete -C '${line}'`]);
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    };
    expect(complete('floe sand')).toEqual(['sandbox']);
    expect(complete('floe setup --auth-type ')).toEqual(['google', 'none', 'oauth2', 'sigv4', 'token']);
    expect(complete('floe test --profile ')).toEqual(['alpha', 'beta']);
    expect(complete(`floe import ${dir}/floe.ba`)).toEqual([`${dir}/floe.bash`]);
  });

  it('names the shells when none or an unknown one is given (exit 2)', () => {
    const r = runCli(['completion', 'tcsh'], { env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('name one shell: bash, zsh, fish (not "tcsh"), e.g. floe completion bash');
  });
});
