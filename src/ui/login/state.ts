// The sign-in form's state (no React): URL and user as lines, which field has focus, how many characters
// of the password were typed (the password itself never enters the state), and what the last try said.
import { normalizeUrl } from '../../management/client.js';
import { type Line, lineAtEnd } from '../components/line.js';

export type LoginField = 'url' | 'username' | 'password';
export const LOGIN_FIELDS: LoginField[] = ['url', 'username', 'password'];

export interface LoginState {
  url: Line;
  username: Line;
  focus: LoginField;
  /** Stars shown for the password. */
  passwordLength: number;
  /** Signing in: keys wait. */
  busy: boolean;
  /** The field a problem is about (the server's refusal is about the password). */
  error?: { field: LoginField; text: string; hint?: string };
}

export type LoginEvent =
  | { type: 'edit'; field: 'url' | 'username'; line: Line }
  | { type: 'password'; length: number }
  | { type: 'focus'; by: 1 | -1 }
  | { type: 'invalid'; field: LoginField; text: string }
  | { type: 'submit' }
  | { type: 'failed'; text: string; hint?: string };

export function initialLogin(url: string, username: string): LoginState {
  return { url: lineAtEnd(url), username: lineAtEnd(username), focus: 'url', passwordLength: 0, busy: false };
}

export function loginReducer(state: LoginState, event: LoginEvent): LoginState {
  switch (event.type) {
    case 'edit':
      return {
        ...state,
        [event.field]: event.line,
        error: state.error?.field === event.field ? undefined : state.error,
      };
    case 'password':
      return {
        ...state,
        passwordLength: event.length,
        error: state.error?.field === 'password' ? undefined : state.error,
      };
    case 'focus': {
      const at = LOGIN_FIELDS.indexOf(state.focus) + event.by;
      return { ...state, focus: LOGIN_FIELDS[(at + LOGIN_FIELDS.length) % LOGIN_FIELDS.length]! };
    }
    case 'invalid':
      return { ...state, focus: event.field, error: { field: event.field, text: event.text } };
    case 'submit':
      return { ...state, busy: true, error: undefined };
    case 'failed':
      // The password is asked again; URL and user stay as typed.
      return {
        ...state,
        busy: false,
        focus: 'password',
        passwordLength: 0,
        error: { field: 'password', text: event.text, hint: event.hint },
      };
  }
}

export interface LoginForm {
  url: string;
  username: string;
}

/** The form's values, checked as `floe login` checks them, or the first field that is wrong and why. */
export function checkLogin(
  state: LoginState,
  passwordLength: number,
): { form: LoginForm } | { field: LoginField; text: string } {
  let url: string;
  try {
    url = normalizeUrl(state.url.value.trim());
  } catch (error) {
    return { field: 'url', text: (error as Error).message };
  }
  const username = state.username.value.trim();
  if (username === '') return { field: 'username', text: 'give the OLake UI user to sign in as, e.g. admin' };
  if (passwordLength === 0) return { field: 'password', text: 'No password given.' };
  return { form: { url, username } };
}
