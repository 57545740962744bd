// Vitest global setup: a real, unlocked Secret Service (gnome-keyring) on a private D-Bus session
// bus, with a throwaway HOME, so keychain tests never touch a developer's own keyring. Tests read
// FLOE_TEST_KEYRING: "ready", or the reason it is missing (tests skip locally, fail under CI=true).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function which(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
}

export default async function setup(): Promise<() => void> {
  const home = mkdtempSync(join(tmpdir(), 'floe-test-home-'));
  process.env.HOME = home;
  process.env.XDG_CONFIG_HOME = join(home, '.config');
  process.env.XDG_DATA_HOME = join(home, '.local', 'share');
  process.env.XDG_RUNTIME_DIR = home;
  const children: ChildProcess[] = [];
  const cleanup = () => {
    for (const child of children.reverse()) child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  };

  const missing = ['dbus-daemon', 'gnome-keyring-daemon', 'secret-tool'].filter((b) => !which(b));
  if (missing.length > 0) {
    process.env.FLOE_TEST_KEYRING = `missing ${missing.join(', ')} (apt-get install dbus gnome-keyring libsecret-tools)`;
    return cleanup;
  }

  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(bus);
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    bus.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    bus.on('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
  });
  process.env.DBUS_SESSION_BUS_ADDRESS = address;

  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    stdio: ['pipe', 'ignore', 'ignore'],
    env: process.env,
  });
  children.push(keyring);
  keyring.stdin?.end('floe-test-keyring-password');
  if (!(await secretServiceAnswers())) {
    process.env.FLOE_TEST_KEYRING = 'gnome-keyring-daemon did not answer on the private D-Bus within 10 s';
    return cleanup;
  }
  process.env.FLOE_TEST_KEYRING = 'ready';
  return cleanup;
}

/** Polls until a secret can be stored and read back through the Secret Service. */
async function secretServiceAnswers(): Promise<boolean> {
  // Wait for our daemon to own the name first: asking earlier would make D-Bus activate a second,
  // locked gnome-keyring, and ours would then exit ("another secret service is running").
  const hasOwner = ['--session', '--dest=org.freedesktop.DBus', '--print-reply', '/org/freedesktop/DBus'];
  for (let i = 0; i < 100; i++) {
    const reply = spawnSync(
      'dbus-send',
      [...hasOwner, 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'],
      {
        encoding: 'utf8',
      },
    );
    if (reply.stdout.includes('boolean true')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const attrs = ['service', 'floe-test-probe', 'account', 'probe'];
  for (let i = 0; i < 100; i++) {
    spawnSync('secret-tool', ['store', '--label', 'probe', ...attrs], { input: 'ok', timeout: 2000 });
    if (spawnSync('secret-tool', ['lookup', ...attrs], { encoding: 'utf8', timeout: 2000 }).stdout === 'ok') {
      spawnSync('secret-tool', ['clear', ...attrs]);
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
