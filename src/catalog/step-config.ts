// The catalog chain's config step: GET /v1/config (SigV4 credentials first when signing), its prefix,
// separator, endpoints, the location it names, and an overrides.uri followed or refused.
import { safeUrl } from '../check/scrub.js';
import type { StepOutcome } from '../check/steps.js';
import type { Diagnosis } from '../check/types.js';
import { encodeQuery, resolveAwsCredentials, sigV4Signer } from './auth.js';
import { badShape } from './classify.js';
import { diagnosis } from './diagnoses.js';
import type { HttpRequest } from './http.js';
import { LOCATION_PROPERTIES, LOCATION_URL } from './location.js';
import { type CatalogRun, isStringRecord, normaliseBaseUrl, plural, text } from './run.js';
import { judgeUriOverride } from './transport.js';

/**
 * Whether the config's `overrides.uri` may replace the base URL: a host change is followed with a
 * warning; https → http with the bearer token attached is refused unless allowed (the failed outcome).
 */
export function followUriOverride(run: CatalogRun, uri: string): StepOutcome | null {
  const attached = run.authHeaders().authorization !== undefined;
  const judged = judgeUriOverride(run.base, uri, attached, run.opts.allowInsecureUriOverride === true);
  if (!judged.follow)
    return {
      ok: false,
      diagnosis: diagnosis('CATALOG_URI_DOWNGRADE', 'catalog.config', {
        what: `The catalog config sets overrides.uri ${judged.to}, which would send the bearer token in clear text instead of to ${judged.from}`,
        evidence: { url: safeUrl(uri, run.scrubber), extra: { from: judged.from, to: judged.to } },
      }),
    };
  if (judged.warning) run.warn(judged.warning);
  return null;
}

export async function setUpSigV4(run: CatalogRun): Promise<Diagnosis | null> {
  const service = text(run.values, 'signingName') || 'execute-api';
  const region = text(run.values, 'signingRegion') || text(run.values, 'region');
  try {
    const credentials = await resolveAwsCredentials(
      { accessKeyId: text(run.values, 'accessKey'), secretAccessKey: text(run.values, 'secretKey') },
      run.opts.signal,
      run.opts.timeoutMs,
    );
    run.scrubber.add(credentials.secretAccessKey);
    run.scrubber.add(credentials.sessionToken);
    run.signer = sigV4Signer(service, region, credentials);
    return null;
  } catch (error) {
    if (run.opts.signal.aborted) return null;
    const message = run.scrubber.scrub((error as Error).message);
    const denied = /is not authorized to perform: sts:AssumeRole/i.test(message);
    return diagnosis(
      denied ? 'CATALOG_ASSUME_ROLE_DENIED' : 'CATALOG_SIGV4_NO_CREDENTIALS',
      'catalog.config',
      {
        what: denied
          ? 'The AWS credential chain could not assume the configured role'
          : 'No AWS credentials: the profile has no access keys and the default chain found none',
        evidence: { extra: { message: message.slice(0, 300) } },
      },
    );
  }
}

export async function readConfig(run: CatalogRun): Promise<StepOutcome> {
  if (run.values.authType === 'sigv4') {
    const problem = await setUpSigV4(run);
    if (problem || run.opts.signal.aborted) return { ok: false, diagnosis: problem };
  }
  const warehouse = text(run.values, 'warehouse');
  const url = new URL(`${run.base}/v1/config${warehouse ? `?${encodeQuery({ warehouse })}` : ''}`);
  const req: HttpRequest = { method: 'GET', url, headers: run.authHeaders(url) };
  const got = await run.fetchJson('catalog.config', 'config', req);
  if ('outcome' in got) return got.outcome;
  const { value: config, res, ctx } = got;
  const bad = (why: string): StepOutcome => ({
    ok: false,
    diagnosis: badShape('CATALOG_BAD_CONFIG', req, res, ctx, why),
  });
  if (!isStringRecord(config) || !isStringRecord(config.defaults) || !isStringRecord(config.overrides))
    return bad('lacks the "defaults" and "overrides" objects');
  const { defaults, overrides } = config;
  if (
    config.endpoints !== undefined &&
    (!Array.isArray(config.endpoints) || !config.endpoints.every((e) => typeof e === 'string'))
  )
    return bad('has "endpoints" that is not a list of strings');
  run.endpoints = config.endpoints as string[] | undefined;
  const merged = { ...defaults, ...overrides };
  const property = LOCATION_PROPERTIES.find(
    (p) => typeof merged[p] === 'string' && LOCATION_URL.test(merged[p] as string),
  );
  run.configLocation = property
    ? {
        url: merged[property] as string,
        property,
        from: `catalog's config (${property in overrides ? 'overrides' : 'defaults'}.${property})`,
      }
    : null;
  run.prefix = typeof merged.prefix === 'string' && merged.prefix ? merged.prefix : undefined;
  const separator = merged['namespace-separator'];
  if (typeof separator === 'string' && separator) run.separator = separator;
  const parts = [run.prefix ? `prefix “${run.prefix}”` : 'no prefix'];
  const overridden = Object.keys(overrides);
  parts.push(overridden.length ? `server overrides ${overridden.join(', ')}` : 'no overrides');
  parts.push(plural(Object.keys(defaults).length, 'default'));
  parts.push(run.endpoints ? plural(run.endpoints.length, 'endpoint') : 'default endpoints');
  if (typeof merged.uri === 'string' && merged.uri) {
    const uri = normaliseBaseUrl(merged.uri);
    if (uri) {
      const refused = followUriOverride(run, uri);
      if (refused) return refused;
      if (uri !== run.base) run.serverUri = uri;
      run.base = uri;
      parts.push(`uri → ${safeUrl(uri, run.scrubber)}`);
    } else {
      run.warn(
        `The catalog config sets an unusable uri “${safeUrl(merged.uri, run.scrubber)}”; kept ${safeUrl(run.base)}`,
      );
    }
  }
  return { ok: true, detail: parts.join('; ') };
}
