// Preloaded into the built CLI by the crash and disk-full sweeps (test/support/faults.ts runs
// `node --import <this file> bin/floe.js …`). It counts the calls that change floe's config folder
// (FLOE_CONFIG_DIR: opens for writing, writes, syncs, renames, removals, the lock folders and their
// mtimes) and, for kill runs, the keychain (keytar's setPassword and deletePassword), and at the Nth one:
//   FLOE_TEST_FAULT=kill:N    sends itself SIGKILL just before the call (nothing after it runs);
//   FLOE_TEST_FAULT=enospc:N  fails the Nth call that may need space with ENOSPC, as a full disk does.
// The call it hit is told on stderr ("fault-at: …") so a failing sweep says where it stopped. Or:
//   FLOE_TEST_FAULT=snap:DIR  counts as kill does and, just before every counted call N, keeps what a
//                             kill there would leave: the folder in DIR/N/ and, in DIR/N.json, the call
//                             and the keychain changes done so far. The run itself goes on to its end.
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join, resolve, sep } from 'node:path';

const [mode, at] = (process.env.FLOE_TEST_FAULT ?? '').split(/:(.*)/s);
const target = Number(at);
const folder = process.env.FLOE_CONFIG_DIR ? resolve(process.env.FLOE_CONFIG_DIR) : undefined;
const snaps = mode === 'snap' ? at : undefined;
if (!((mode === 'kill' || mode === 'enospc') && target > 0) && !snaps)
  throw new Error('fault-at.mjs needs FLOE_TEST_FAULT=kill:N, enospc:N or snap:DIR');
if (!folder) throw new Error('fault-at.mjs needs FLOE_CONFIG_DIR');

const { writeSync, readdirSync, lstatSync, mkdirSync: mkdirPlain, copyFileSync, writeFileSync } = fs;
let count = 0;
/** The keychain changes done so far (snap): [call, service, account, password?]. */
const keychainDone = [];

/** `from` (a folder, its lock folders inside) copied to `to`, with each file's mode. */
function copyTree(from, to) {
  mkdirPlain(to, { mode: 0o700 });
  for (const name of readdirSync(from)) {
    const stat = lstatSync(join(from, name));
    if (stat.isDirectory()) copyTree(join(from, name), join(to, name));
    else {
      copyFileSync(join(from, name), join(to, name));
      fs.chmodSync(join(to, name), stat.mode & 0o777);
    }
  }
}

/** Counts one call; at the target, kills the process or throws ENOSPC. `space`: it may need disk space. */
function reach(what, space) {
  if (mode === 'enospc' && !space) return;
  count++;
  if (snaps) {
    copyTree(folder, join(snaps, String(count)));
    writeFileSync(join(snaps, `${count}.json`), JSON.stringify({ what, keychain: keychainDone }));
    return;
  }
  if (count !== target) return;
  writeSync(2, `fault-at: ${mode} at call ${count}: ${what}\n`);
  if (mode === 'kill') {
    process.kill(process.pid, 'SIGKILL');
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
  throw Object.assign(new Error(`ENOSPC: no space left on device (${what})`), {
    code: 'ENOSPC',
    errno: -28,
  });
}

const inFolder = (path) => {
  if (typeof path !== 'string' && !(path instanceof URL) && !Buffer.isBuffer(path)) return false;
  const full = resolve(String(path instanceof URL ? path.pathname : path));
  return full === folder || full.startsWith(folder + sep);
};

/** Descriptors opened in the folder: path, and whether for writing. */
const fds = new Map();

const writes = (flags) =>
  typeof flags === 'number'
    ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT)) !== 0
    : /[wa+]/.test(String(flags ?? 'r'));

function wrap(name, check) {
  const original = fs[name];
  fs[name] = function (...args) {
    check(...args);
    return original.apply(this, args);
  };
}

const byPath = (name, space) =>
  wrap(name, (path) => {
    if (inFolder(path)) reach(`${name} ${path}`, space);
  });
/** mkdir of a folder that exists changes nothing (and never fails for want of space). */
const mkdir = (name) =>
  wrap(name, (path) => {
    if (inFolder(path) && !fs.existsSync(path)) reach(`${name} ${path}`, true);
  });
const byFd = (name, space) =>
  wrap(name, (fd) => {
    if (fds.has(fd)) reach(`${name} ${fds.get(fd)}`, space);
  });

const openSync = fs.openSync;
fs.openSync = function (path, flags, ...rest) {
  const watched = inFolder(path);
  if (watched && writes(flags)) reach(`openSync ${path} ${flags}`, true);
  const fd = openSync.call(this, path, flags, ...rest);
  if (watched) fds.set(fd, String(path));
  return fd;
};
const closeSync = fs.closeSync;
fs.closeSync = function (fd) {
  fds.delete(fd);
  return closeSync.call(this, fd);
};
byFd('writeSync', true);
byFd('fsyncSync', true);
byPath('writeFileSync', true);
mkdir('mkdirSync');
mkdir('mkdir');
byPath('renameSync', true);
byPath('rename', true);
byPath('chmodSync', false);
byPath('utimesSync', false);
byPath('utimes', false);
byPath('rmSync', false);
byPath('rmdirSync', false);
byPath('rmdir', false);
byPath('unlinkSync', false);
byPath('unlink', false);
syncBuiltinESMExports();

if (mode !== 'enospc') {
  let keytar;
  try {
    keytar = createRequire(import.meta.url)('keytar');
  } catch {
    // No keytar here: floe has no keychain either, so there is nothing of it to count.
  }
  for (const name of ['setPassword', 'deletePassword']) {
    const original = keytar?.[name];
    if (!original) continue;
    keytar[name] = async (service, account, ...rest) => {
      reach(`keytar.${name} ${service} ${account}`, false);
      const result = await original(service, account, ...rest);
      keychainDone.push([name, service, account, ...rest]);
      return result;
    };
  }
}
