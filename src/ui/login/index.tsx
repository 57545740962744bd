// The sign-in form on the alternate screen, until it signs in, goes back or is interrupted. What was
// typed (never the password) is kept for the next time it opens in this process.
import { render } from 'ink';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import { type LoginFormProps, LoginFormScreen, type LoginOutcome } from './LoginForm.js';
import type { LoginForm } from './state.js';

export type { LoginOutcome } from './LoginForm.js';

let draft: LoginForm | undefined;

export function runLoginForm(options: Omit<LoginFormProps, 'onDone'>): Promise<LoginOutcome> {
  return fullScreen(() => loginForm(options));
}

async function loginForm(options: Omit<LoginFormProps, 'onDone'>): Promise<LoginOutcome> {
  let outcome: LoginOutcome = 'back';
  holdKeys();
  const app = render(
    <LoginFormScreen
      {...options}
      initial={draft ?? options.initial}
      onDone={(how, typed) => {
        outcome = how;
        draft = how === 'signed-in' ? undefined : typed;
        app.unmount();
      }}
    />,
    { exitOnCtrlC: false },
  );
  await app.waitUntilExit();
  return outcome;
}
