// One catalog check's state (what its steps read and learn: the base URL, token, signer, prefix,
// endpoints) and the requests every step sends through it; the steps are step-*.ts, chain.ts runs them.
import type { CatalogLocation, ChainOptions } from '../check/chain.js';
import { SecretScrubber, safeUrl } from '../check/scrub.js';
import { type StepOutcome, StepRunner } from '../check/steps.js';
import type { Diagnosis } from '../check/types.js';
import { FIELD_BY_ID, type FieldId, fieldText, type Values } from '../destination/fields.js';
import { PRESETS } from '../destination/presets.js';
import type { SigV4Signer } from './auth.js';
import { type ClassifyContext, diagnoseFailure, type Route, readJson } from './classify.js';
import { diagnosis } from './diagnoses.js';
import { HttpClient, type HttpRequest, type HttpResponse, NetworkFailure } from './http.js';
import type { CatalogSession } from './session.js';
import { cleartextWarning } from './transport.js';

export const CATALOG_STEPS = [
  { id: 'catalog.connect', title: 'Connect to the catalog' },
  { id: 'catalog.token', title: 'Get an access token' },
  { id: 'catalog.config', title: 'Read the catalog config' },
  { id: 'catalog.namespaces', title: 'List namespaces' },
] as const;
export type CatalogStepId = (typeof CATALOG_STEPS)[number]['id'];

export function text(values: Values, id: FieldId): string {
  const value = values.fields[id];
  return typeof value === 'string' ? value.trim() : '';
}

/** The base URL without trailing slashes; null when it is not an absolute http(s) URL. */
export function normaliseBaseUrl(raw: string): string | null {
  const trimmed = raw.trim().replace(/\/+$/, '');
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? trimmed : null;
  } catch {
    return null;
  }
}

export function isStringRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface CatalogChainOptions {
  /** Trusted CA certificates (PEM) replacing Node's roots, e.g. a private CA. */
  ca?: string;
}

/** One catalog check: what its steps (step-*.ts) read and learn, and the requests they send. */
export class CatalogRun {
  readonly steps: StepRunner<CatalogStepId>;
  readonly scrubber = new SecretScrubber();
  readonly http: HttpClient;
  token?: string;
  signer?: SigV4Signer;
  base = '';
  /** The `uri` the server's config sent, when floe switched to it. */
  serverUri?: string;
  prefix?: string;
  separator = '%1F';
  endpoints?: string[];
  /** The location /v1/config names (null: none); undefined until the config was read. */
  configLocation?: CatalogLocation | null;

  constructor(
    readonly values: Values,
    readonly opts: ChainOptions,
    readonly chainOpts: CatalogChainOptions,
  ) {
    this.scrubber.addProfileSecrets(values);
    this.steps = new StepRunner({
      chain: 'catalog',
      steps: CATALOG_STEPS,
      emit: opts.emit,
      signal: opts.signal,
      scrub: (text) => this.scrubber.scrub(text),
      scrubDiagnosis: (d) => this.scrubDiagnosis(d),
    });
    this.http = new HttpClient({
      emit: opts.emit,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      scrubber: this.scrubber,
      env: opts.env,
      ...(chainOpts.ca ? { ca: chainOpts.ca } : {}),
    });
  }

  warn(message: string): void {
    this.opts.emit({ type: 'warning', message: this.scrubber.scrub(message) });
  }

  readonly warnedCleartext = new Set<string>();

  /** Warns once per destination that `what` goes to `url` over plain http. */
  warnCleartext(url: URL, what: string): void {
    const warning = cleartextWarning(url, what);
    const key = `${what} ${url.origin}`;
    if (!warning || this.warnedCleartext.has(key)) return;
    this.warnedCleartext.add(key);
    this.warn(warning);
  }

  ctx(step: string, route: Route): ClassifyContext {
    const { label, example } = fieldText(FIELD_BY_ID.warehouse, this.values);
    return {
      step,
      route,
      scrubber: this.scrubber,
      ...(this.signer ? { signingScope: this.signer.scope() } : {}),
      warehouse: {
        label,
        example,
        value: text(this.values, 'warehouse'),
        catalog: PRESETS[this.values.preset].label,
      },
    };
  }

  /** How the write check reaches this catalog, once the config was read. */
  session(): CatalogSession {
    return {
      base: this.base,
      ...(this.prefix ? { prefix: this.prefix } : {}),
      separator: this.separator,
      ...(this.endpoints ? { endpoints: this.endpoints } : {}),
      scrubber: this.scrubber,
      ...(this.chainOpts.ca ? { ca: this.chainOpts.ca } : {}),
      env: this.opts.env,
      headers: (url) => this.authHeaders(url),
      ...(this.signer ? { prepare: (req: HttpRequest) => this.signer!.sign(req) } : {}),
      context: (step, route) => this.ctx(step, route),
    };
  }

  /** `what` and the evidence may quote the server; cause and remedy are floe's own text. */
  scrubDiagnosis(d: Diagnosis): Diagnosis {
    const scrub = (text: string) => this.scrubber.scrub(text);
    const { url, errorCode, requestId, extra } = d.evidence;
    return {
      ...d,
      what: scrub(d.what),
      evidence: {
        ...d.evidence,
        ...(url === undefined ? {} : { url: scrub(url) }),
        ...(errorCode === undefined ? {} : { errorCode: scrub(errorCode) }),
        ...(requestId === undefined ? {} : { requestId: scrub(requestId) }),
        ...(extra === undefined
          ? {}
          : { extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, scrub(v)])) }),
      },
    };
  }

  /** Sends `req` and reads its JSON body; a failure comes back as the step's outcome. */
  async fetchJson(
    step: CatalogStepId,
    route: Route,
    req: HttpRequest,
  ): Promise<{ outcome: StepOutcome } | { value: unknown; res: HttpResponse; ctx: ClassifyContext }> {
    const sent = await this.exchange(step, req);
    if (sent.outcome) return { outcome: sent.outcome };
    const ctx = this.ctx(step, route);
    const json = readJson(req, sent.res, ctx);
    if ('diagnosis' in json) return { outcome: { ok: false as const, diagnosis: json.diagnosis } };
    return { value: json.value, res: sent.res, ctx };
  }

  async exchange(
    step: CatalogStepId,
    req: HttpRequest,
  ): Promise<{ res: HttpResponse; outcome?: undefined } | { res?: undefined; outcome: StepOutcome }> {
    try {
      const prepare = this.signer ? (r: HttpRequest) => this.signer!.sign(r) : undefined;
      return { res: await this.http.send(req, prepare) };
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      const found = diagnoseFailure(step, req, error, this.scrubber, this.opts.timeoutMs);
      return { outcome: { ok: false as const, diagnosis: found && this.fromServerUri(req, found) } };
    }
  }

  /** A failure on the host that the server's config supplied (overrides.uri) says where it came from. */
  fromServerUri(req: HttpRequest, found: Diagnosis): Diagnosis {
    if (!this.serverUri || req.url.origin !== new URL(this.serverUri).origin) return found;
    const configured = normaliseBaseUrl(text(this.values, 'catalogUrl')) ?? '';
    return diagnosis('CATALOG_SERVER_URI_UNREACHABLE', found.step, {
      what: `${found.what}: the catalog’s config told floe to use ${safeUrl(this.serverUri, this.scrubber)} (overrides.uri) instead of ${safeUrl(configured, this.scrubber)}`,
      evidence: {
        ...found.evidence,
        extra: { ...found.evidence.extra, networkDiagnosis: found.code, serverUri: safeUrl(this.serverUri) },
      },
    });
  }

  /** The auth headers; with `to`, warns when the bearer token goes there over plain http. */
  authHeaders(to?: URL): Record<string, string> {
    const headers: Record<string, string> = {};
    const bearer = this.token ?? text(this.values, 'token');
    if (bearer && this.values.authType !== 'none') {
      headers.authorization = `Bearer ${bearer}`;
      if (to) this.warnCleartext(to, 'The bearer token');
    }
    const project = text(this.values, 'gcpProjectId');
    if (this.values.authType === 'google' && project) headers['x-goog-user-project'] = project;
    return headers;
  }
}
