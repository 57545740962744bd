// --timeout SECONDS, the same for floe test and floe jobs test: each request's time-out, in ms.
import { UsageError } from '../errors.js';

export const DEFAULT_TIMEOUT_SECONDS = 10;
export const MAX_TIMEOUT_SECONDS = 300;

export function parseTimeout(value: string | undefined, command = 'test'): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS)
    throw new UsageError(
      [
        `--timeout: "${value}" is not a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, e.g. --timeout 15`,
      ],
      command,
    );
  return Math.round(seconds * 1000);
}
