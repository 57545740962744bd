// The command that runs this floe from the user's shell, for the lines floe prints to paste.
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';
import { isSea } from 'node:sea';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * `floe` when the `floe` on the user's PATH is this very launcher (installed globally or linked), or
 * this very single executable; else, for the single executable, its own path (it runs from anywhere);
 * for the npm CLI, `npx floe` inside its package (a clone, where npm runs the package's bin) and
 * `node <path>/bin/floe.js` outside it, where `npx floe` would fetch an unrelated package.
 * PATH entries ending in node_modules/.bin are skipped: npm adds them only while it runs a script.
 */
export function floeCommand(
  env: NodeJS.ProcessEnv,
  launcher: string | undefined = process.argv[1],
  executable: string | undefined = isSea() ? process.execPath : undefined,
  cwd: string = process.cwd(),
): string {
  const self = real(executable ?? launcher ?? '');
  const fallback =
    executable !== undefined
      ? shellWord(executable)
      : self === undefined || inside(real(cwd) ?? cwd, dirname(dirname(self)))
        ? 'npx floe'
        : `node ${shellWord(self)}`;
  if (self === undefined) return fallback;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.endsWith(`node_modules${sep}.bin`)) continue;
    const candidate = join(dir, 'floe');
    if (existsSync(candidate)) return real(candidate) === self ? 'floe' : fallback;
  }
  return fallback;
}

/** Whether `path` is `folder` or lies under it. */
function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}${sep}`);
}

/** `path` as one shell word: as is when it holds only safe characters, else single-quoted. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
