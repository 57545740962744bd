// Where the catalog keeps its data, for the storage check: its config's location, else the check
// namespace's `location` property; otherwise what was asked and why it named none.
import { OLAKE_CHECK_NAMESPACE } from '../destination/values.js';
import { type CatalogRun, isStringRecord } from './run.js';
import { catalogPath, serves } from './session.js';

/** Config properties that name where the catalog's data lives (Polaris, Nessie, other servers). */
export const LOCATION_PROPERTIES = ['default-base-location', 'warehouse', 'location'];
/** A value that is a data location. */
export const LOCATION_URL = /^(s3a?|gs):\/\/\S+$/;
const LOAD_NAMESPACE_ENDPOINT = 'GET /v1/{prefix}/namespaces/{namespace}';

/**
 * Hands the storage check the catalog's location: the config's, else the `location` property of the
 * check namespace (--namespace, or OLake's test_olake), and otherwise notes what was asked and why it
 * named none.
 */
export async function settleLocation(run: CatalogRun): Promise<void> {
  const shared = run.opts.shared;
  if (!shared || run.opts.signal.aborted) return;
  if (run.configLocation === undefined) {
    const failed = run.steps.failed();
    shared.locationTried.push(
      `the catalog was not reached (“${failed?.title ?? 'Read the catalog config'}” failed), so neither its config nor a namespace could be asked for a location`,
    );
    return;
  }
  if (run.configLocation) return shared.setCatalogLocation(run.configLocation);
  shared.locationTried.push(
    `the catalog’s config names no location (no ${LOCATION_PROPERTIES.join(', ')} in its defaults or overrides)`,
  );
  const namespace = run.opts.write?.namespace ?? [OLAKE_CHECK_NAMESPACE];
  const name = namespace.join('.');
  const session = run.session();
  if (!serves(session, LOAD_NAMESPACE_ENDPOINT)) {
    shared.locationTried.push(`the catalog does not serve ${LOAD_NAMESPACE_ENDPOINT}`);
    return;
  }
  const url = new URL(catalogPath(session, namespace));
  const sent = await run.exchange('catalog.namespaces', {
    method: 'GET',
    url,
    headers: run.authHeaders(url),
  });
  if (run.opts.signal.aborted) return;
  const found = sent.res?.status === 200 ? namespaceLocation(sent.res.body) : null;
  if (found) {
    shared.setCatalogLocation({
      url: found,
      property: 'location',
      from: `location property of namespace ${name}`,
    });
    return;
  }
  const outcome = sent.outcome;
  const why = sent.res
    ? `HTTP ${sent.res.status}`
    : ((outcome && 'diagnosis' in outcome && outcome.diagnosis?.what) ?? 'no answer');
  shared.locationTried.push(
    sent.res?.status === 200
      ? `namespace ${name} has no location property`
      : sent.res?.status === 404
        ? `namespace ${name} does not exist`
        : run.scrubber.scrub(`loading namespace ${name} failed (${why})`),
  );
}

/** A LoadNamespace answer's `location` property, when it is a data location. */
function namespaceLocation(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const properties = isStringRecord(parsed) ? parsed.properties : undefined;
    const location = isStringRecord(properties) ? properties.location : undefined;
    return typeof location === 'string' && LOCATION_URL.test(location) ? location : null;
  } catch {
    return null;
  }
}
