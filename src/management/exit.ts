// Management failures as CLI errors: a 401 (not logged in, expired session, wrong password) exits 4.
import { EXIT, FloeError } from '../errors.js';
import { ManagementError } from './types.js';

export const LOGIN_HINT = 'Run "floe login", or set FLOE_PASSWORD to log in again without a prompt.';

export function toFloeError(error: unknown): unknown {
  if (!(error instanceof ManagementError)) return error;
  if (error.kind === 'unauthorized') return new FloeError(`${error.message}.`, LOGIN_HINT, EXIT.AUTH);
  if (error.kind === 'cancelled') return new FloeError('Cancelled.', undefined, EXIT.INTERRUPTED);
  return new FloeError(error.message.endsWith('.') ? error.message : `${error.message}.`);
}

/** Runs `fn`, turning management failures into FloeErrors. */
export async function explained<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toFloeError(error);
  }
}
