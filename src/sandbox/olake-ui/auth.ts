// Sign-in and sessions as olake-ui has them: the session cookie of `handlers/session.go` (30 days,
// `olake-session`), the middleware's refusals (`handlers/middleware.go`), Beego's idle end (the
// postgres provider's SessionRelease + Beego's GC, about an hour), SESSION_ON=false (no user id:
// 401 "Not authenticated"), and docker compose's signup-init.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, ok, readBody, ulid } from './http.js';
import { THIRTY_DAYS_S, type UiState } from './state.js';
import type { Handlers, Session } from './types.js';

/** The request's session; with SESSION_ON=false, none (the middleware lets it through anyway). */
export function sessionOf(state: UiState, req: IncomingMessage): Session | undefined {
  if (!state.sessionsOn) return undefined;
  const match = /(?:^|;\s*)olake-session=([^;]+)/.exec(req.headers.cookie ?? '');
  const session = match ? state.sessions.get(match[1] as string) : undefined;
  if (!session || session.expires <= Date.now()) return undefined;
  if (state.beego && Date.now() - session.seen > state.idleMs) return undefined;
  if (!state.users.has(session.username)) throw new HttpError(401, 'Invalid session: user not found');
  session.seen = Date.now();
  return session;
}

/** Handlers that need a user id (GetCurrentUserID); with sessions off there is none. */
export function userOf(session: Session | undefined): string {
  if (!session) throw new HttpError(401, 'Not authenticated');
  return session.username;
}

export function authHandlers(state: UiState): Pick<Handlers, 'login' | 'authCheck' | 'telemetry'> {
  const { users, beego } = state;
  return {
    login: async ({ req, res }) => {
      const body = await readBody(req);
      if (
        !isObject(body) ||
        typeof body.username !== 'string' ||
        typeof body.password !== 'string' ||
        !body.username ||
        !body.password
      )
        throw new HttpError(400, 'Invalid request format');
      if (beego && !users.has(body.username))
        throw new HttpError(401, 'user not found, sign up first: record not found');
      if (users.get(body.username) !== body.password)
        throw new HttpError(
          401,
          beego
            ? 'Invalid credentials: crypto/bcrypt: hashedPassword is not the hash of the given password'
            : 'Invalid credentials',
        );
      const id = ulid();
      state.sessions.set(id, {
        username: body.username,
        expires: Date.now() + state.sessionTtlMs,
        seen: Date.now(),
      });
      const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
      res.setHeader(
        'set-cookie',
        `olake-session=${id}; Path=/; Max-Age=${THIRTY_DAYS_S}; HttpOnly${secure}; SameSite=Lax`,
      );
      return ok(res, 'login successful', { username: body.username });
    },
    authCheck: ({ req, res }) => {
      if (!sessionOf(state, req)) throw new HttpError(401, 'Not authenticated');
      return ok(res, 'authenticated successfully');
    },
    telemetry: ({ res }) =>
      ok(res, 'telemetry id retrieved', { user_id: 'emulator', version: state.uiVersion }),
  };
}

/** A route the emulator serves beyond the client's table: docker compose's signup-init. */
export async function signup(state: UiState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (
    !isObject(body) ||
    !body.username ||
    !body.password ||
    typeof body.email !== 'string' ||
    !body.email.includes('@')
  )
    throw new HttpError(400, 'Invalid request format');
  if (state.users.has(String(body.username)))
    throw new HttpError(409, 'Username already exists: user already exists');
  state.users.set(String(body.username), String(body.password));
  return ok(res, 'user created successfully', { email: body.email, username: body.username });
}
