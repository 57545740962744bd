// floe's folder and files are private whatever the umask: folders 0700 (a folder another user owns or may
// write refused, a linked folder judged by its target), and a file that is a symbolic link refused, since a
// whole replacement by rename would turn it into a file of its own.
import { chmodSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FloeError } from '../errors.js';

/** Creates `dir` (and missing parents) as 0700; narrows a folder floe created earlier with a wider mode. */
export function ensurePrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}

/**
 * Refuses a folder for floe's files that another user owns or may write: they could swap the config
 * or read the secrets file floe is about to write there (an existing folder is never changed silently).
 * A link (~/.config/floe -> dotfiles/floe) is followed: the folder checked, and named, is its target.
 */
export function checkPrivateDir(dir: string): void {
  const real = realpathSync.native(dir);
  const stat = statSync(real);
  const folder = real === resolve(dir) ? dir : `${dir} (really ${real}, the folder checked)`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new FloeError(
      `The config folder ${folder} belongs to another user (uid ${stat.uid}); floe keeps profiles and secrets there.`,
      'Use a folder of your own: unset FLOE_CONFIG_DIR, or point it at a folder you own.',
    );
  if ((stat.mode & 0o022) !== 0)
    throw new FloeError(
      `The config folder ${folder} may be written by other users (mode ${(stat.mode & 0o777).toString(8)}); floe keeps profiles and secrets there.`,
      `Make it private with: chmod 700 ${real}`,
    );
}

/** floe replaces its files by rename, which would turn a symbolic link into a file of its own: refused. */
export function refuseSymlink(path: string): void {
  let link: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return;
    link = readlinkSync(path);
  } catch {
    return;
  }
  throw new FloeError(
    `${path} is a symbolic link (to ${link}); floe replaces its files whole, which would turn the link into a file of its own. Nothing was changed.`,
    `Point FLOE_CONFIG_DIR at the folder the link leads to, or replace the link with the file itself.`,
  );
}
