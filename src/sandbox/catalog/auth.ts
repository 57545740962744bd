// How the emulator authenticates a catalog request: nothing, a bearer token (static or issued by
// its token endpoints) or a SigV4 signature (verify.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { awsError, icebergError } from './http.js';
import { type SigV4Config, verifySigV4 } from './verify.js';

export interface IssuedToken {
  principal: string;
  expiresAt: number;
}

export interface AuthDeps {
  mode: 'none' | 'bearer' | 'sigv4';
  sigv4: SigV4Config;
  staticTokens: ReadonlySet<string>;
  tokens: ReadonlyMap<string, IssuedToken>;
  /** Tokens another issuer gave: their principal, or undefined. */
  trusted?: (token: string) => string | undefined;
  now(): number;
  /** Status for an expired issued token: 401 or 419. */
  expiredTokenStatus: 401 | 419;
}

export function authenticator(deps: AuthDeps) {
  /** The principal of an authenticated catalog request, or null once an answer was sent. */
  return async function authenticate(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
  ): Promise<string | null> {
    if (deps.mode === 'none') return 'anonymous';
    if (deps.mode === 'sigv4') {
      const result = await verifySigV4(
        { method: req.method ?? 'GET', rawUrl: req.url ?? '/', headers: req.headers, body },
        deps.sigv4,
        new Date(deps.now()),
      );
      if ('status' in result) {
        awsError(res, result);
        return null;
      }
      return result.accessKeyId;
    }
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token && deps.staticTokens.has(token)) return token;
    const known = token ? deps.tokens.get(token) : undefined;
    if (known && known.expiresAt > deps.now()) return known.principal;
    const trusted = token && !known ? deps.trusted?.(token) : undefined;
    if (trusted) return trusted;
    if (known && deps.expiredTokenStatus === 419)
      icebergError(res, 419, 'AuthenticationTimeoutException', 'Credentials have timed out');
    else
      icebergError(
        res,
        401,
        'NotAuthorizedException',
        known
          ? 'Token expired'
          : token
            ? 'Not authorized to make this request'
            : 'Missing Authorization header',
      );
    return null;
  };
}
