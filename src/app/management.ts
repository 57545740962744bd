// Opening the stored OLake UI session for a management command: the session from the secret store,
// re-login with FLOE_PASSWORD or the remembered password, else (on a terminal) a password prompt.

import type { Io } from '../cli/command-io.js';
import { line, type Shown } from '../cli/output.js';
import { explained } from '../management/exit.js';
import { openSession, type PasswordRequest, type Session, urlFlag } from '../management/session.js';

export interface OpenOptions {
  /** Ask for the password when the session expired (default: when there is a terminal). */
  prompt?: boolean;
  /** No stored session for the server: exit 4 at once, without the network (default true). */
  requireLogin?: boolean;
}

/** The terminal prompt: names the server and the user, and says "expired" only when a session did. */
export function passwordPrompt({ url, username, expired }: PasswordRequest): Shown {
  return expired
    ? line`The session at ${url} has expired. Password for ${username}: `
    : line`Sign in to the OLake UI at ${url}. Password for ${username}: `;
}

export async function openManagement(
  io: Io,
  command: string,
  flags: { url?: string | undefined; project?: string | undefined },
  { prompt = io.canPrompt(), requireLogin = true }: OpenOptions = {},
): Promise<Session> {
  const ctx = await io.openContext();
  return explained(() =>
    openSession(ctx, {
      url: urlFlag(flags.url, command),
      project: flags.project,
      askPassword: prompt ? (request) => io.prompter.password(passwordPrompt(request)) : undefined,
      warn: (message) => io.err`floe: ${message}`,
      requireLogin,
      env: io.env,
    }),
  );
}
