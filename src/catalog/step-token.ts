// The catalog chain's token step: OAuth2 client credentials, or a Google service account's JWT-bearer
// grant; not needed for the other auth types.
import { safeUrl } from '../check/scrub.js';
import type { StepOutcome } from '../check/steps.js';
import type { Diagnosis } from '../check/types.js';
import {
  AUTH_TYPE_INFO,
  DEFAULT_GCP_SCOPES,
  DEFAULT_OAUTH2_SCOPE,
  splitCredential,
} from '../destination/fields.js';
import { GoogleKeyError, googleAssertion, JWT_BEARER_GRANT } from './auth.js';
import { badShape, headerProblem } from './classify.js';
import { diagnosis } from './diagnoses.js';
import type { HttpRequest } from './http.js';
import { type CatalogRun, isStringRecord, normaliseBaseUrl, text } from './run.js';

export async function fetchToken(run: CatalogRun): Promise<StepOutcome> {
  const { authType } = run.values;
  if (authType === 'oauth2') return oauth2Token(run);
  if (authType === 'google') return googleToken(run);
  return { skip: `not needed for ${AUTH_TYPE_INFO[authType].label}` };
}

export function tokenUrl(run: CatalogRun, raw: string): URL | Diagnosis {
  const normal = normaliseBaseUrl(raw);
  if (!normal)
    return diagnosis('CATALOG_URL_INVALID', 'catalog.token', {
      what: `The token URL “${safeUrl(raw, run.scrubber)}” is not an absolute http(s) URL`,
    });
  return new URL(normal);
}

export async function postToken(
  run: CatalogRun,
  url: URL,
  form: Record<string, string>,
  describe: string,
): Promise<StepOutcome> {
  const req: HttpRequest = {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  };
  const got = await run.fetchJson('catalog.token', 'token', req);
  if ('outcome' in got) return got.outcome;
  const { value, res, ctx } = got;
  const body = isStringRecord(value) ? value : {};
  if (typeof body.access_token !== 'string' || !body.access_token)
    return {
      ok: false,
      diagnosis: badShape('CATALOG_BAD_RESPONSE', req, res, ctx, 'has no "access_token"'),
    };
  run.scrubber.add(body.access_token);
  if (typeof body.refresh_token === 'string') run.scrubber.add(body.refresh_token);
  const unusable = headerProblem(body.access_token);
  if (unusable)
    return {
      ok: false,
      diagnosis: badShape(
        'CATALOG_TOKEN_UNUSABLE',
        req,
        res,
        ctx,
        `has an "access_token" an HTTP header cannot carry (it holds ${unusable})`,
      ),
    };
  const tokenType = typeof body.token_type === 'string' ? body.token_type : '';
  if (!/^(bearer|n_a)$/i.test(tokenType))
    return {
      ok: false,
      diagnosis: badShape(
        'CATALOG_BAD_RESPONSE',
        req,
        res,
        ctx,
        `has token_type "${tokenType}" (expected bearer or N_A)`,
      ),
    };
  run.token = body.access_token;
  const expires = typeof body.expires_in === 'number' ? `, expires in ${body.expires_in} s` : '';
  return { ok: true, detail: `${describe} from ${url.host} (${tokenType}${expires})` };
}

export async function oauth2Token(run: CatalogRun): Promise<StepOutcome> {
  const configured = text(run.values, 'oauth2Uri');
  const url = tokenUrl(run, configured || `${run.base}/v1/oauth/tokens`);
  if (!(url instanceof URL)) return { ok: false, diagnosis: url };
  if (!configured)
    run.warn(
      `REST Auth URI is empty: used the deprecated ${safeUrl(url)} endpoint; set REST Auth URI to the identity provider’s token endpoint`,
    );
  run.warnCleartext(url, 'The OAuth2 client secret');
  const { clientId, clientSecret } = splitCredential(text(run.values, 'credential'));
  if (!clientId) run.warn('REST Credential has no client id (no colon): only a client secret was sent');
  const form: Record<string, string> = {
    grant_type: 'client_credentials',
    ...(clientId ? { client_id: clientId } : {}),
    client_secret: clientSecret,
    scope: text(run.values, 'scope') || DEFAULT_OAUTH2_SCOPE,
  };
  return postToken(run, url, form, clientId ? `token for client ${clientId}` : 'token');
}

export async function googleToken(run: CatalogRun): Promise<StepOutcome> {
  const scopes = (text(run.values, 'gcpAuthScopes') || DEFAULT_GCP_SCOPES)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let assertion: ReturnType<typeof googleAssertion>;
  try {
    assertion = googleAssertion(text(run.values, 'gcpServiceAccountJson'), scopes);
  } catch (error) {
    if (!(error instanceof GoogleKeyError)) throw error;
    return {
      ok: false,
      diagnosis: diagnosis('CATALOG_GOOGLE_KEY_INVALID', 'catalog.token', {
        what: `The GCP Service Account JSON cannot be used: ${error.message}`,
      }),
    };
  }
  run.scrubber.add(assertion.assertion);
  const url = tokenUrl(run, assertion.tokenUri);
  if (!(url instanceof URL)) return { ok: false, diagnosis: url };
  run.warnCleartext(url, 'The signed service-account assertion');
  return postToken(
    run,
    url,
    { grant_type: JWT_BEARER_GRANT, assertion: assertion.assertion },
    `token for ${assertion.clientEmail}`,
  );
}
