// Signing in on a screen (the home screen's l, or the jobs browser opened without a session): the form
// submits through login-session.ts as `floe login` does, then the jobs browser opens.

import { keychainHint } from '../app/secrets-choice.js';
import type { Io } from '../cli/command-io.js';
import { FloeError } from '../cli/io.js';
import { explained } from '../management/exit.js';
import { DEFAULT_PROJECT, DEFAULT_URL, DEFAULT_USERNAME, settingsFor } from '../management/session.js';
import { loadScreen } from '../ui/load.js';
import type { LoginOutcome } from '../ui/login/index.js';
import { keepLogin, passwordWarning, signIn } from './login-session.js';

/**
 * Shows the sign-in form (`reason` says why) until it signs in (the session stored where `floe login`
 * stores it), goes back, or is interrupted. `url`: the OLake UI to offer (default: the saved one).
 */
export async function signInOnScreen(io: Io, reason?: string, url?: string): Promise<LoginOutcome> {
  const ctx = await io.openContext();
  const saved = ctx.config.getManagement();
  const { runLoginForm } = await loadScreen(() => import('../ui/login/index.js'));
  return runLoginForm({
    initial: { url: url ?? saved?.url ?? DEFAULT_URL, username: saved?.username ?? DEFAULT_USERNAME },
    reason,
    warning: passwordWarning,
    submit: ({ url, username, password }) =>
      explained(async () => {
        const previous = settingsFor(ctx, url);
        const session = await signIn(url, username, password, 'Check the user and the password.', io.env);
        const login = {
          url,
          username,
          project: previous?.project ?? DEFAULT_PROJECT,
          session,
          password,
          remember: previous?.rememberPassword ?? false,
        };
        await keepLogin(
          ctx,
          login,
          {},
          async (why, choice) => {
            throw new FloeError(`The OS keychain cannot be used: ${why}`, keychainHint(choice, false));
          },
          io.env,
        );
      }),
  });
}
