// The sign-in form (issue 30, item 2): its reducer alone, then the screen in ink-testing-library with a
// fake submit: field rules as floe login's, the password only ever drawn as stars and never in the
// state, a refusal asking for the password again, and Esc handing back what was typed but the password.
import { describe, expect, it } from 'vitest';
import { passwordWarning } from '../../../src/commands/login-session.js';
import { lineAtEnd } from '../../../src/ui/components/line.js';
import { LoginFormScreen, type LoginOutcome } from '../../../src/ui/login/LoginForm.js';
import { checkLogin, initialLogin, type LoginForm, loginReducer } from '../../../src/ui/login/state.js';
import { expectFits, KEY, renderScreen } from '../setup/support.js';

const PASSWORD = 'SENTINEL-form-pw-77';

describe('the sign-in form reducer', () => {
  it('moves the focus around the three fields, both ways', () => {
    let state = initialLogin('http://localhost:8000', 'admin');
    expect(state.focus).toBe('url');
    state = loginReducer(state, { type: 'focus', by: 1 });
    state = loginReducer(state, { type: 'focus', by: 1 });
    expect(state.focus).toBe('password');
    expect(loginReducer(state, { type: 'focus', by: 1 }).focus).toBe('url');
    expect(loginReducer(initialLogin('', ''), { type: 'focus', by: -1 }).focus).toBe('password');
  });

  it('checks the URL as floe login does, then the user, then that a password was typed', () => {
    const at = (url: string, user = 'admin') => initialLogin(url, user);
    expect(checkLogin(at('localhost:8000'), 3)).toEqual({
      field: 'url',
      text: '"localhost:8000" must start with http:// or https://',
    });
    expect(checkLogin(at('http://me:pw@h:8000'), 3)).toMatchObject({ field: 'url', text: /no credentials/ });
    expect(checkLogin(at('not a url'), 3)).toMatchObject({
      field: 'url',
      text: /e\.g\. http:\/\/localhost:8000/,
    });
    expect(checkLogin(at('http://h:8000', '  '), 3)).toMatchObject({
      field: 'username',
      text: /e\.g\. admin/,
    });
    expect(checkLogin(at('http://h:8000/'), 0)).toEqual({ field: 'password', text: 'No password given.' });
    expect(checkLogin(at(' http://h:8000/ '), 3)).toEqual({
      form: { url: 'http://h:8000', username: 'admin' },
    });
  });

  it('a refusal keeps URL and user, empties the password and focuses it; an edit clears its own error', () => {
    let state = initialLogin('http://h:8000', 'admin');
    state = loginReducer(state, { type: 'password', length: 5 });
    state = loginReducer(state, { type: 'submit' });
    expect(state.busy).toBe(true);
    state = loginReducer(state, { type: 'failed', text: 'Invalid credentials', hint: 'Check them.' });
    expect(state).toMatchObject({
      busy: false,
      focus: 'password',
      passwordLength: 0,
      url: { value: 'http://h:8000' },
      username: { value: 'admin' },
      error: { field: 'password', text: 'Invalid credentials', hint: 'Check them.' },
    });
    expect(loginReducer(state, { type: 'edit', field: 'url', line: lineAtEnd('x') }).error).toBeDefined();
    expect(loginReducer(state, { type: 'password', length: 1 }).error).toBeUndefined();
    // Nothing in the state can hold the password: only its length.
    expect(Object.keys(state).sort()).toEqual([
      'busy',
      'error',
      'focus',
      'passwordLength',
      'url',
      'username',
    ]);
  });
});

function form(submit: (f: LoginForm & { password: string }) => Promise<void>) {
  const done: { outcome: LoginOutcome; typed: LoginForm }[] = [];
  const tree = (
    <LoginFormScreen
      initial={{ url: 'http://localhost:8000', username: 'admin' }}
      reason="Not logged in to http://localhost:8000: floe has no session for it."
      warning={passwordWarning}
      submit={submit}
      onDone={(outcome, typed) => done.push({ outcome, typed })}
    />
  );
  return { tree, done };
}

describe('the sign-in form on an 80x24 screen', () => {
  it('masks the password, warns about plain http, signs in with what was typed', async () => {
    const sent: (LoginForm & { password: string })[] = [];
    const { tree, done } = form(async (f) => {
      sent.push(f);
    });
    const t = await renderScreen(tree);
    expect(t.frame()).toContain('Not logged in to http://localhost:8000');
    expect(t.frame()).toMatch(/Tab\/↓ next field[\s\S]*Esc back/);
    // Keys in one burst: clear the URL, a remote plain-http one, on to the password.
    await t.burst('\u0015', 'http://olake.example.com:8000', KEY.tab, KEY.tab, PASSWORD);
    expect(t.text()).toContain(
      '! The password (and then the session cookie) is sent to http://olake.example.com:8000 over plain http://',
    );
    expect(t.frame()).toContain('*'.repeat(PASSWORD.length));
    await t.press(KEY.enter);
    expect(sent).toEqual([{ url: 'http://olake.example.com:8000', username: 'admin', password: PASSWORD }]);
    expect(done).toEqual([
      { outcome: 'signed-in', typed: { url: 'http://olake.example.com:8000', username: 'admin' } },
    ]);
    for (const frame of t.frames()) expect(frame).not.toContain(PASSWORD);
    expectFits(t.frames());
    await t.unmount();
  });

  it('says why a sign-in was refused and asks for the password again; Esc goes back without it', async () => {
    const refusal = Object.assign(
      new Error('Invalid credentials: the OLake UI did not accept that username and password.'),
      {
        hint: 'Check the user and the password.',
      },
    );
    const { tree, done } = form(async () => {
      throw refusal;
    });
    const t = await renderScreen(tree);
    await t.press(KEY.enter, KEY.enter, 'wrong', KEY.enter);
    expect(t.text()).toContain('✗ Password: Invalid credentials');
    expect(t.text()).toContain('Check the user and the password.');
    // Focused and empty: its cursor is an inverse blank, or █ without colour (TextInput's colourless()
    // reads NO_COLOR and FORCE_COLOR from the process, which a shared fast worker once had set).
    expect(t.frame()).toMatch(/^› Password( +█)? *$/m);
    await t.press('abc', KEY.esc);
    expect(done).toEqual([{ outcome: 'back', typed: { url: 'http://localhost:8000', username: 'admin' } }]);
    await t.unmount();
  });

  it('a field problem names the field and the rule; nothing is sent', async () => {
    const sent: unknown[] = [];
    const { tree } = form(async (f) => {
      sent.push(f);
    });
    const t = await renderScreen(tree);
    await t.burst('\u0015', 'ftp://x', KEY.enter, KEY.enter, PASSWORD, KEY.enter);
    expect(t.text()).toContain('✗ URL: "ftp://x" must start with http:// or https://');
    expect(t.frame()).toMatch(/^› URL/m);
    expect(sent).toEqual([]);
    await t.unmount();
  });
});
