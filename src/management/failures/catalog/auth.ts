// The writer's catalog credential: OAuth2 token endpoint errors (Iceberg's OAuthErrorHandler), a token
// that could not be renewed or has expired, a 401. Texts and their sources: ../catalog.ts.
import { CATALOG_DIAGNOSIS_INFO as INFO } from '../../../catalog/diagnoses.js';
import { capture, type FailureRule, facts } from '../rule.js';

function oauth(code: keyof typeof INFO, type: string, example: string): FailureRule {
  return {
    code,
    component: 'catalog',
    summary: `${INFO[code].summary} In a log: ${example.split(':').slice(0, 2).join(':')}: …`,
    example,
    match: new RegExp(`(?:Not authorized|Malformed request): ${type}\\b`),
    facts: (text) => facts({ description: capture(text, new RegExp(`${type}: ([^\\n(]{1,200})`)) }),
    what: (f) =>
      `The catalog’s token endpoint refused the writer’s client credentials (${type}${f.description ? `: ${f.description.trim()}` : ''})`,
    cause: () => INFO[code].cause,
    remedy: () =>
      `${INFO[code].remedy.replace(/ Verify with .*$/, '')} Update the destination’s credential in the OLake UI; "floe jobs test ID" checks it.`,
  };
}

export const RUN_TOKEN_REFRESH_FAILED: FailureRule = {
  code: 'RUN_TOKEN_REFRESH_FAILED',
  component: 'catalog',
  summary:
    'The writer could not renew its OAuth2 token during a long sync (Iceberg OAuth2Util “Failed to refresh token”).',
  example: 'WARN  org.apache.iceberg.rest.auth.OAuth2Util - Failed to refresh token',
  match: /Failed to refresh token/,
  what: () => 'The writer could not renew its catalog token during the run',
  cause: () =>
    'Iceberg’s client renews the OAuth2 token before it expires; the token endpoint refused or could not be reached, so the next catalog call was rejected.',
  remedy: () =>
    'Check the destination’s OAuth2 credential and token URL (oauth2_uri) with "floe jobs test ID": they must still issue tokens (a rotated secret fails only at renewal); then run the sync again.',
};

export const CATALOG_OAUTH_INVALID_CLIENT = oauth(
  'CATALOG_OAUTH_INVALID_CLIENT',
  'invalid_client',
  'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: invalid_client: The Client is invalid',
);

export const CATALOG_OAUTH_UNAUTHORIZED_CLIENT = oauth(
  'CATALOG_OAUTH_UNAUTHORIZED_CLIENT',
  'unauthorized_client',
  'org.apache.iceberg.exceptions.BadRequestException: Malformed request: unauthorized_client: The client is not authorized',
);

export const CATALOG_OAUTH_INVALID_SCOPE = oauth(
  'CATALOG_OAUTH_INVALID_SCOPE',
  'invalid_scope',
  'org.apache.iceberg.exceptions.BadRequestException: Malformed request: invalid_scope: The scope is invalid',
);

export const CATALOG_OAUTH_ERROR = oauth(
  'CATALOG_OAUTH_ERROR',
  '(?:invalid_grant|invalid_request|unsupported_grant_type)',
  'org.apache.iceberg.exceptions.BadRequestException: Malformed request: invalid_grant: The grant is invalid',
);

export const RUN_TOKEN_EXPIRED: FailureRule = {
  code: 'RUN_TOKEN_EXPIRED',
  component: 'catalog',
  summary: 'The catalog rejected the writer’s token as expired (a static token outlived).',
  example:
    'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: <the server’s text naming an expired token, JWT or ExpiredSignature>',
  match:
    /(?:Not authorized|NotAuthorized|401)[^\n]{0,300}?(?:[Tt]oken (?:has )?expired|[Ee]xpired token|[Jj]wt (?:is )?expired|[Tt]oken is expired|ExpiredSignature)/,
  what: () => 'The catalog rejected the writer’s token as expired',
  cause: () =>
    'The destination uses a static token that expired while the job ran (or since it was set); the writer does not renew static tokens.',
  remedy: () =>
    'Give the destination OAuth2 client credentials (credential + oauth2_uri) so the writer fetches fresh tokens, or a token that lives longer than the longest sync; update the destination in the OLake UI.',
  follows: ['RUN_TOKEN_REFRESH_FAILED'],
};

export const CATALOG_UNAUTHORIZED: FailureRule = {
  code: 'CATALOG_UNAUTHORIZED',
  component: 'catalog',
  summary: 'The catalog rejected the writer’s credentials (NotAuthorizedException, 401).',
  example: 'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: …',
  match: /NotAuthorizedException|Not authorized: /,
  what: () => 'The catalog rejected the writer’s credentials',
  cause: () =>
    'The token or client credentials in the destination are wrong, expired, revoked or for another catalog.',
  remedy: () =>
    'Check the destination’s token or credential with "floe jobs test ID" (or "floe test" on a profile), then update the destination in the OLake UI.',
  follows: ['RUN_TOKEN_REFRESH_FAILED'],
};
