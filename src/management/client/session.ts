// Signing in to the OLake UI and asking about it: POST /login, GET /auth/check, GET /telemetry-id.
import { ROUTES } from '../routes.js';
import { ManagementError } from '../types.js';
import type { Transport } from './transport.js';

/** POST /login; the session cookie lands in the jar. */
export async function login(
  http: Transport,
  username: string,
  password: string,
  signal?: AbortSignal,
): Promise<string> {
  const reply = await http.route(ROUTES.login, {}, { body: { username, password }, auth: false, signal });
  return reply.message;
}

/** GET /auth/check: true for a valid session, false for a 401. */
export async function authCheck(http: Transport, signal?: AbortSignal): Promise<boolean> {
  try {
    await http.route(ROUTES.authCheck, {}, { auth: false, signal });
    return true;
  } catch (error) {
    if (error instanceof ManagementError && error.kind === 'unauthorized') return false;
    throw error;
  }
}

/** The OLake UI's version from GET /telemetry-id, or undefined when it does not say. */
export async function uiVersion(http: Transport, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const reply = await http.route(ROUTES.telemetry, {}, { auth: false, signal, timeoutMs: 5_000 });
    return reply.data.version || undefined;
  } catch {
    return undefined;
  }
}
