// The stack's two files: compose.yaml and .env (mode 0600, the only place its secrets are written).
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../config/files.js';
import { FloeError } from '../errors.js';
import { renderCompose } from './compose.js';
import { ENV, type StackPlan } from './plan.js';

export interface StackFile {
  path: string;
  text: string;
  mode: number;
  secret: boolean;
}

/** `.env` lines; the values are single-quoted, which compose and a POSIX shell both keep verbatim. */
export function renderEnv(plan: StackPlan): string {
  const { secrets } = plan;
  return [
    '# Secrets of the local stack (written by "floe stack"). Keep this file private (mode 0600).',
    '# docker compose reads it to fill in the variables compose.yaml refers to. floe itself reads',
    '# FLOE_ACCESS_KEY and FLOE_SECRET_KEY from the environment (e.g. after: set -a; . ./.env; set +a).',
    `${ENV.accessKey}='${secrets.accessKey}'`,
    `${ENV.secretKey}='${secrets.secretKey}'`,
    `${ENV.dbPassword}='${secrets.dbPassword}'`,
    '',
  ].join('\n');
}

export function stackFiles(dir: string, plan: StackPlan): StackFile[] {
  return [
    { path: join(dir, 'compose.yaml'), text: renderCompose(plan.settings), mode: 0o644, secret: false },
    { path: join(dir, '.env'), text: renderEnv(plan), mode: 0o600, secret: true },
  ];
}

/** Writes every file, or none when one exists and `force` is off. */
export function writeStackFiles(dir: string, files: StackFile[], force: boolean): void {
  const existing = files.filter((f) => existsSync(f.path)).map((f) => f.path);
  if (existing.length > 0 && !force)
    throw new FloeError(
      `Not overwriting ${existing.join(' and ')}.`,
      'Pass --force to replace them (new secrets are generated unless the profile has keys), or choose another --output DIR.',
    );
  try {
    // 0700 whatever the umask: the folder holds the .env with secrets.
    ensurePrivateDir(dir);
    for (const file of files) {
      // Narrow an existing file's mode before the secrets go in, not after.
      if (existsSync(file.path)) chmodSync(file.path, file.mode);
      writeFileSync(file.path, file.text, { mode: file.mode, flag: force ? 'w' : 'wx' });
      chmodSync(file.path, file.mode);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FloeError(`Cannot write the stack in ${dir}: ${code ?? (error as Error).message}`);
  }
}
