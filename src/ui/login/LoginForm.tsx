// The sign-in form (home screen's l, or j without a session): URL, user and a masked password. Thin: the
// state is loginReducer's; the password lives in a ref, only its length is drawn, as stars.
import { Box } from 'ink';
import { useRef } from 'react';
import { isInterrupt, type Keypress } from '../../text/keys.js';
import { editLine, lineAtEnd } from '../components/line.js';
import { Paragraph } from '../components/Paragraph.js';
import { type Hint, Screen } from '../components/Screen.js';
import { Text } from '../components/Text.js';
import { TextInput } from '../components/TextInput.js';
import { useKeys } from '../components/useKeys.js';
import { useLatestReducer } from '../components/useLatestReducer.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { checkLogin, initialLogin, type LoginField, type LoginForm, loginReducer } from './state.js';

/** How the form ended: signed in, Esc (back, with what was typed but the password), or Ctrl-C. */
export type LoginOutcome = 'signed-in' | 'back' | 'interrupt';

export interface LoginFormProps {
  /** The URL and user shown first (what was typed last time, else the saved login, else the defaults). */
  initial: LoginForm;
  /** Why the form is shown, e.g. "Not logged in to http://… (no stored session)." */
  reason?: string;
  /** The warning before the password goes to this URL (plain http to another host), if any. */
  warning: (url: string) => string | undefined;
  /** Signs in and keeps the session; rejects with the reason (an Error with an optional `hint`). */
  submit: (form: LoginForm & { password: string }) => Promise<void>;
  /** Called once; `typed` is the URL and user as they stand (never the password). */
  onDone: (outcome: LoginOutcome, typed: LoginForm) => void;
}

const HINTS: Hint[] = [
  ['Tab/↓', 'next field'],
  ['↑', 'previous'],
  ['Enter', 'next / sign in'],
  ['Esc', 'back'],
  ['Ctrl-C', 'quit'],
];
const BUSY_HINTS: Hint[] = [['Ctrl-C', 'quit']];

const LABELS: Record<LoginField, string> = { url: 'URL', username: 'User', password: 'Password' };
const LABEL_WIDTH = 12;

export function LoginFormScreen({ initial, reason, warning, submit, onDone }: LoginFormProps) {
  const [state, dispatch, latest] = useLatestReducer(loginReducer, () =>
    initialLogin(initial.url, initial.username),
  );
  const password = useRef('');
  const done = useRef(false);
  const size = useTerminalSize();
  const width = Math.min(size.columns, 100);

  const typed = (): LoginForm => ({ url: latest().url.value, username: latest().username.value });
  const finish = (outcome: LoginOutcome) => {
    if (done.current) return;
    done.current = true;
    password.current = '';
    onDone(outcome, typed());
    return 'leave';
  };
  const typePassword = (value: string) => {
    password.current = value;
    dispatch({ type: 'password', length: [...value].length });
  };

  const send = () => {
    const checked = checkLogin(latest(), [...password.current].length);
    if ('field' in checked) return dispatch({ type: 'invalid', field: checked.field, text: checked.text });
    const secret = password.current;
    typePassword('');
    dispatch({ type: 'submit' });
    submit({ ...checked.form, password: secret }).then(
      () => finish('signed-in'),
      (error: unknown) => {
        const hint = (error as { hint?: unknown }).hint;
        dispatch({
          type: 'failed',
          text: error instanceof Error ? error.message : String(error),
          hint: typeof hint === 'string' ? hint : undefined,
        });
      },
    );
  };

  useKeys((key: Keypress) => {
    if (isInterrupt(key)) return finish('interrupt');
    const now = latest();
    if (now.busy) return;
    if (key.name === 'escape') return finish('back');
    if (key.name === 'tab') return dispatch({ type: 'focus', by: key.shift ? -1 : 1 });
    if (key.name === 'down') return dispatch({ type: 'focus', by: 1 });
    if (key.name === 'up') return dispatch({ type: 'focus', by: -1 });
    if (now.focus === 'password') {
      const edit = editLine(lineAtEnd(password.current), key, { breaks: 'firstLine' });
      if (!edit) return;
      if (edit.submitted) return send();
      return typePassword(edit.line.value);
    }
    const field = now.focus;
    const edit = editLine(now[field], key, { breaks: 'firstLine' });
    if (!edit) return;
    if (edit.submitted) return dispatch({ type: 'focus', by: 1 });
    dispatch({ type: 'edit', field, line: edit.line });
  });

  // The plain-http warning as soon as the URL is one (user and password do not matter to it).
  const checked = checkLogin({ ...state, username: lineAtEnd('-') }, 1);
  const clear = 'form' in checked ? warning(checked.form.url) : undefined;
  const row = (field: LoginField) => {
    const focused = state.focus === field && !state.busy;
    return (
      <Box key={field}>
        <Text bold={focused} color={focused ? 'cyan' : undefined}>
          {`${focused ? '›' : ' '} ${LABELS[field]}`.padEnd(LABEL_WIDTH)}
        </Text>
        {field === 'password' ? (
          <TextInput
            line={lineAtEnd('*'.repeat(state.passwordLength))}
            focus={focused}
            width={width - LABEL_WIDTH}
          />
        ) : (
          <TextInput
            line={state[field]}
            focus={focused}
            width={width - LABEL_WIDTH}
            placeholder={field === 'url' ? 'e.g. http://localhost:8000' : 'e.g. admin'}
          />
        )}
      </Box>
    );
  };
  return (
    <Screen
      title="floe · sign in to the OLake UI"
      subtitle="Sign in, then the jobs open"
      width={width}
      hints={state.busy ? BUSY_HINTS : HINTS}
    >
      {reason && <Paragraph text={reason} width={width} dimColor />}
      <Box flexDirection="column" marginTop={reason ? 1 : 0}>
        {(['url', 'username', 'password'] as const).map(row)}
      </Box>
      <Box flexDirection="column" marginTop={1}>
        {clear && <Paragraph color="yellow" text={`! ${clear}`} width={width} />}
        {state.busy && (
          <Text color="cyan">{`Signing in to ${state.url.value.trim()} as ${state.username.value.trim()}…`}</Text>
        )}
        {state.error && (
          <Paragraph color="red" text={`✗ ${LABELS[state.error.field]}: ${state.error.text}`} width={width} />
        )}
        {state.error?.hint && <Paragraph text={state.error.hint} width={width} />}
      </Box>
    </Screen>
  );
}
