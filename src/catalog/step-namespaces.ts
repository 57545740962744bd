// The catalog chain's last step: one page of ListNamespaces, the read access OLake needs.
import type { StepOutcome } from '../check/steps.js';
import { encodeQuery } from './auth.js';
import { badShape } from './classify.js';
import type { HttpRequest } from './http.js';
import { type CatalogRun, isStringRecord, plural } from './run.js';

export const LIST_NAMESPACES_ENDPOINT = 'GET /v1/{prefix}/namespaces';

export async function listNamespaces(run: CatalogRun): Promise<StepOutcome> {
  if (run.endpoints && !run.endpoints.includes(LIST_NAMESPACES_ENDPOINT))
    return { skip: `the server does not advertise ${LIST_NAMESPACES_ENDPOINT}` };
  const path = `/v1/${run.prefix ? `${run.prefix}/` : ''}namespaces`;
  const url = new URL(`${run.base}${path}?${encodeQuery({ pageToken: '', pageSize: '1' })}`);
  const req: HttpRequest = { method: 'GET', url, headers: run.authHeaders(url) };
  const got = await run.fetchJson('catalog.namespaces', 'namespaces', req);
  if ('outcome' in got) return got.outcome;
  const { value, res, ctx } = got;
  const body = value;
  const list = isStringRecord(body) ? body.namespaces : undefined;
  if (
    !isStringRecord(body) ||
    (list !== undefined &&
      !(
        Array.isArray(list) && list.every((ns) => Array.isArray(ns) && ns.every((p) => typeof p === 'string'))
      ))
  )
    return {
      ok: false,
      diagnosis: badShape('CATALOG_BAD_RESPONSE', req, res, ctx, 'is not a namespace list'),
    };
  const count = Array.isArray(list) ? list.length : 0;
  const more = typeof body['next-page-token'] === 'string' ? ' (more pages)' : '';
  return {
    ok: true,
    detail: `read access confirmed: ${plural(count, 'namespace')} on the first page${more}`,
  };
}
