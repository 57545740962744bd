// Preloaded into the built CLI by the crash sweep (test/support/faults.ts runs `node --import <this
// file> bin/floe.js …`). It counts the calls that change floe's config folder (FLOE_CONFIG_DIR: opens
// for writing, writes, syncs, renames, removals, the lock folders and their mtimes) and, for kill runs,
// the keychain (keytar's setPassword and deletePassword), and at the Nth one:
//   FLOE_TEST_FAULT=kill:N    sends itself SIGKILL just before the call (nothing after it runs);
//   FLOE_TEST_FAULT=snap:DIR  counts as kill does and, just before every counted call N, keeps what a
//                             kill there would leave: the folder in DIR/N/ and, in DIR/N.json, the call
//                             and the keychain changes done so far. The run itself goes on to its end.
// The call a kill hit is told on stderr ("fault-at: …") so a failing sweep says where it stopped.
// Imported in a test's own process (the disk-full sweep: floe runs in process there), it does nothing
// until armed: armFullDisk({ at: N, folder }) fails the Nth call in the folder that may need space with
// ENOSPC, as a full disk does; disarm() says which call it hit.
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join, resolve, sep } from 'node:path';

/** What is counted and what the Nth call gets: { mode, target | snaps, folder, count, hit? }. */
let armed;
if (process.env.FLOE_TEST_FAULT) {
  const [mode, at] = process.env.FLOE_TEST_FAULT.split(/:(.*)/s);
  if (!((mode === 'kill' && Number(at) > 0) || (mode === 'snap' && at)))
    throw new Error('fault-at.mjs needs FLOE_TEST_FAULT=kill:N or snap:DIR');
  if (!process.env.FLOE_CONFIG_DIR) throw new Error('fault-at.mjs needs FLOE_CONFIG_DIR');
  armed = {
    mode,
    target: Number(at),
    snaps: mode === 'snap' ? at : undefined,
    folder: resolve(process.env.FLOE_CONFIG_DIR),
    count: 0,
  };
}

/** Fails the `at`th call that may need space in `folder` with ENOSPC (in this process). */
export function armFullDisk({ at, folder }) {
  armed = { mode: 'enospc', target: at, folder: resolve(folder), count: 0 };
}

/** Stops counting; the call the fault hit ("enospc at call 3: renameSync …"), if it did. */
export function disarm() {
  const hit = armed?.hit;
  armed = undefined;
  return hit;
}

const { writeSync, readdirSync, lstatSync, mkdirSync: mkdirPlain, copyFileSync, writeFileSync } = fs;
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
  if (armed.mode === 'enospc' && !space) return;
  const count = ++armed.count;
  if (armed.snaps) {
    copyTree(armed.folder, join(armed.snaps, String(count)));
    writeFileSync(join(armed.snaps, `${count}.json`), JSON.stringify({ what, keychain: keychainDone }));
    return;
  }
  if (count !== armed.target) return;
  armed.hit = `${armed.mode} at call ${count}: ${what}`;
  if (armed.mode === 'kill') {
    writeSync(2, `fault-at: ${armed.hit}\n`);
    process.kill(process.pid, 'SIGKILL');
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
  throw Object.assign(new Error(`ENOSPC: no space left on device (${what})`), {
    code: 'ENOSPC',
    errno: -28,
  });
}

const inFolder = (path) => {
  if (!armed) return false;
  if (typeof path !== 'string' && !(path instanceof URL) && !Buffer.isBuffer(path)) return false;
  const full = resolve(String(path instanceof URL ? path.pathname : path));
  return full === armed.folder || full.startsWith(armed.folder + sep);
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
    if (armed && fds.has(fd)) reach(`${name} ${fds.get(fd)}`, space);
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

if (armed) {
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
