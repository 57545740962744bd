// The command that runs this floe from the user's shell, for the lines floe prints to paste.
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * `floe` when the `floe` on the user's PATH is this very launcher (installed globally or linked),
 * else `npx floe` (a clone, or a project dependency: npm runs the package's bin from there).
 * PATH entries ending in node_modules/.bin are skipped: npm adds them only while it runs a script.
 */
export function floeCommand(
  env: NodeJS.ProcessEnv = process.env,
  launcher: string | undefined = process.argv[1],
): string {
  const self = launcher === undefined ? undefined : real(launcher);
  if (self === undefined) return 'npx floe';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.endsWith(`node_modules${sep}.bin`)) continue;
    const candidate = join(dir, 'floe');
    if (existsSync(candidate)) return real(candidate) === self ? 'floe' : 'npx floe';
  }
  return 'npx floe';
}
