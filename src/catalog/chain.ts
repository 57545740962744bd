// The catalog half of the connection test: connect, get a token, read /v1/config, list namespaces.

import type { CatalogLocation, Chain, ChainOptions } from '../check/chain.js';
import { SecretScrubber, safeUrl } from '../check/scrub.js';
import { type StepOutcome, StepRunner } from '../check/steps.js';
import type { Diagnosis } from '../check/types.js';
import {
  AUTH_TYPE_INFO,
  DEFAULT_GCP_SCOPES,
  DEFAULT_OAUTH2_SCOPE,
  FIELD_BY_ID,
  type FieldId,
  fieldText,
  splitCredential,
  type Values,
} from '../destination/fields.js';
import { PRESETS } from '../destination/presets.js';
import { OLAKE_CHECK_NAMESPACE } from '../write/names.js';
import {
  encodeQuery,
  GoogleKeyError,
  googleAssertion,
  JWT_BEARER_GRANT,
  resolveAwsCredentials,
  type SigV4Signer,
  sigV4Signer,
} from './auth.js';
import {
  badShape,
  type ClassifyContext,
  diagnoseFailure,
  headerProblem,
  type Route,
  readJson,
} from './classify.js';
import { probeConnection } from './connect.js';
import { diagnosis } from './diagnoses.js';
import { HttpClient, type HttpRequest, type HttpResponse, NetworkFailure } from './http.js';
import { type CatalogSession, catalogPath, serves } from './session.js';
import { cleartextWarning, judgeUriOverride } from './transport.js';

export const CATALOG_STEPS = [
  { id: 'catalog.connect', title: 'Connect to the catalog' },
  { id: 'catalog.token', title: 'Get an access token' },
  { id: 'catalog.config', title: 'Read the catalog config' },
  { id: 'catalog.namespaces', title: 'List namespaces' },
] as const;
export type CatalogStepId = (typeof CATALOG_STEPS)[number]['id'];

export const LIST_NAMESPACES_ENDPOINT = 'GET /v1/{prefix}/namespaces';

/** Config properties that name where the catalog's data lives (Polaris, Nessie, other servers). */
const LOCATION_PROPERTIES = ['default-base-location', 'warehouse', 'location'];
/** A value that is a data location. */
const LOCATION_URL = /^(s3a?|gs):\/\/\S+$/;
const LOAD_NAMESPACE_ENDPOINT = 'GET /v1/{prefix}/namespaces/{namespace}';

function text(values: Values, id: FieldId): string {
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

function isStringRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface CatalogChainOptions {
  /** Trusted CA certificates (PEM) replacing Node's roots, e.g. a private CA. */
  ca?: string;
}

class Run {
  private readonly steps: StepRunner<CatalogStepId>;
  readonly scrubber = new SecretScrubber();
  readonly http: HttpClient;
  private token?: string;
  private signer?: SigV4Signer;
  private base = '';
  /** The `uri` the server's config sent, when floe switched to it. */
  private serverUri?: string;
  private prefix?: string;
  private separator = '%1F';
  private endpoints?: string[];
  /** The location /v1/config names (null: none); undefined until the config was read. */
  private configLocation?: CatalogLocation | null;

  constructor(
    private readonly values: Values,
    private readonly opts: ChainOptions,
    private readonly chainOpts: CatalogChainOptions,
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
      ...(chainOpts.ca ? { ca: chainOpts.ca } : {}),
    });
  }

  private warn(message: string): void {
    this.opts.emit({ type: 'warning', message: this.scrubber.scrub(message) });
  }

  private readonly warnedCleartext = new Set<string>();

  /** Warns once per destination that `what` goes to `url` over plain http. */
  private warnCleartext(url: URL, what: string): void {
    const warning = cleartextWarning(url, what);
    const key = `${what} ${url.origin}`;
    if (!warning || this.warnedCleartext.has(key)) return;
    this.warnedCleartext.add(key);
    this.warn(warning);
  }

  /**
   * Whether the config's `overrides.uri` may replace the base URL: a host change is followed with a
   * warning; https → http with the bearer token attached is refused unless allowed (the failed outcome).
   */
  private followUriOverride(uri: string): StepOutcome | null {
    const attached = this.authHeaders().authorization !== undefined;
    const judged = judgeUriOverride(this.base, uri, attached, this.opts.allowInsecureUriOverride === true);
    if (!judged.follow)
      return {
        ok: false,
        diagnosis: diagnosis('CATALOG_URI_DOWNGRADE', 'catalog.config', {
          what: `The catalog config sets overrides.uri ${judged.to}, which would send the bearer token in clear text instead of to ${judged.from}`,
          evidence: { url: safeUrl(uri, this.scrubber), extra: { from: judged.from, to: judged.to } },
        }),
      };
    if (judged.warning) this.warn(judged.warning);
    return null;
  }

  private ctx(step: string, route: Route): ClassifyContext {
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

  async run(): Promise<void> {
    this.steps.begin();
    const bodies: Record<CatalogStepId, () => Promise<StepOutcome>> = {
      'catalog.connect': () => this.connect(),
      'catalog.token': () => this.fetchToken(),
      'catalog.config': () => this.readConfig(),
      'catalog.namespaces': () => this.listNamespaces(),
    };
    try {
      for (const { id, title } of CATALOG_STEPS) {
        if (this.opts.signal.aborted) break;
        const outcome = await this.runStep(id, bodies[id]);
        if (this.opts.signal.aborted) break;
        if ('ok' in outcome && !outcome.ok) {
          this.steps.skipPending(`not run: “${title}” failed`);
          break;
        }
      }
      if (!this.opts.signal.aborted && this.steps.state('catalog.config') === 'ok')
        this.opts.shared?.setCatalogSession(this.session());
      await this.settleLocation();
    } finally {
      this.opts.shared?.setCatalogLocation(null);
      this.steps.cancelUnfinished();
      await this.http.close();
    }
  }

  /** How the write check reaches this catalog, once the config was read. */
  private session(): CatalogSession {
    return {
      base: this.base,
      ...(this.prefix ? { prefix: this.prefix } : {}),
      separator: this.separator,
      ...(this.endpoints ? { endpoints: this.endpoints } : {}),
      scrubber: this.scrubber,
      ...(this.chainOpts.ca ? { ca: this.chainOpts.ca } : {}),
      headers: (url) => this.authHeaders(url),
      ...(this.signer ? { prepare: (req: HttpRequest) => this.signer!.sign(req) } : {}),
      context: (step, route) => this.ctx(step, route),
    };
  }

  private async runStep(id: CatalogStepId, body: () => Promise<StepOutcome>): Promise<StepOutcome> {
    this.steps.start(id);
    let outcome: StepOutcome;
    try {
      outcome = await body();
    } catch (error) {
      outcome = {
        ok: false,
        diagnosis: diagnosis('CATALOG_NETWORK', id, {
          what: `${this.steps.title(id)} failed: ${(error as Error).message}`,
        }),
      };
    }
    if (!this.opts.signal.aborted) this.steps.settle(id, outcome);
    return outcome;
  }

  /** `what` and the evidence may quote the server; cause and remedy are floe's own text. */
  private scrubDiagnosis(d: Diagnosis): Diagnosis {
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

  /** Sends a request; a network failure becomes a failed outcome (null diagnosis if cancelled). */
  /** Sends `req` and reads its JSON body; a failure comes back as the step's outcome. */
  private async fetchJson(
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

  private async exchange(
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
  private fromServerUri(req: HttpRequest, found: Diagnosis): Diagnosis {
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

  private async connect(): Promise<StepOutcome> {
    const raw = text(this.values, 'catalogUrl');
    const base = normaliseBaseUrl(raw);
    if (!base)
      return {
        ok: false,
        diagnosis: diagnosis('CATALOG_URL_INVALID', 'catalog.connect', {
          what: raw
            ? `“${safeUrl(raw, this.scrubber)}” is not an absolute http(s) URL`
            : 'The REST Catalog URL is empty',
        }),
      };
    this.base = base;
    const url = new URL(base);
    try {
      const r = await probeConnection(url, {
        signal: this.opts.signal,
        timeoutMs: this.opts.timeoutMs,
        ...(this.chainOpts.ca ? { ca: this.chainOpts.ca } : {}),
      });
      const tls = r.tlsMs === undefined ? '' : `, TLS ${r.tlsMs} ms (${r.tlsProtocol ?? 'TLS'})`;
      if (r.proxy)
        return {
          ok: true,
          detail: `${url.host} through proxy ${r.proxy}: DNS ${r.dnsMs} ms, TCP ${r.tcpMs} ms, CONNECT ${r.tunnelMs} ms${tls}`,
        };
      const where = r.address === url.hostname ? url.host : `${url.host} (${r.address})`;
      return { ok: true, detail: `${where}: DNS ${r.dnsMs} ms, TCP ${r.tcpMs} ms${tls}` };
    } catch (error) {
      // probeConnection only throws NetworkFailure.
      const failure = error as NetworkFailure;
      return {
        ok: false,
        diagnosis: diagnoseFailure(
          'catalog.connect',
          { method: 'CONNECT', url },
          failure,
          this.scrubber,
          this.opts.timeoutMs,
        ),
      };
    }
  }

  private async fetchToken(): Promise<StepOutcome> {
    const { authType } = this.values;
    if (authType === 'oauth2') return this.oauth2Token();
    if (authType === 'google') return this.googleToken();
    return { skip: `not needed for ${AUTH_TYPE_INFO[authType].label}` };
  }

  private tokenUrl(raw: string): URL | Diagnosis {
    const normal = normaliseBaseUrl(raw);
    if (!normal)
      return diagnosis('CATALOG_URL_INVALID', 'catalog.token', {
        what: `The token URL “${safeUrl(raw, this.scrubber)}” is not an absolute http(s) URL`,
      });
    return new URL(normal);
  }

  private async postToken(url: URL, form: Record<string, string>, describe: string): Promise<StepOutcome> {
    const req: HttpRequest = {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    };
    const got = await this.fetchJson('catalog.token', 'token', req);
    if ('outcome' in got) return got.outcome;
    const { value, res, ctx } = got;
    const body = isStringRecord(value) ? value : {};
    if (typeof body.access_token !== 'string' || !body.access_token)
      return {
        ok: false,
        diagnosis: badShape('CATALOG_BAD_RESPONSE', req, res, ctx, 'has no "access_token"'),
      };
    this.scrubber.add(body.access_token);
    if (typeof body.refresh_token === 'string') this.scrubber.add(body.refresh_token);
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
    this.token = body.access_token;
    const expires = typeof body.expires_in === 'number' ? `, expires in ${body.expires_in} s` : '';
    return { ok: true, detail: `${describe} from ${url.host} (${tokenType}${expires})` };
  }

  private async oauth2Token(): Promise<StepOutcome> {
    const configured = text(this.values, 'oauth2Uri');
    const url = this.tokenUrl(configured || `${this.base}/v1/oauth/tokens`);
    if (!(url instanceof URL)) return { ok: false, diagnosis: url };
    if (!configured)
      this.warn(
        `REST Auth URI is empty: used the deprecated ${safeUrl(url)} endpoint; set REST Auth URI to the identity provider’s token endpoint`,
      );
    this.warnCleartext(url, 'The OAuth2 client secret');
    const { clientId, clientSecret } = splitCredential(text(this.values, 'credential'));
    if (!clientId) this.warn('REST Credential has no client id (no colon): only a client secret was sent');
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      ...(clientId ? { client_id: clientId } : {}),
      client_secret: clientSecret,
      scope: text(this.values, 'scope') || DEFAULT_OAUTH2_SCOPE,
    };
    return this.postToken(url, form, clientId ? `token for client ${clientId}` : 'token');
  }

  private async googleToken(): Promise<StepOutcome> {
    const scopes = (text(this.values, 'gcpAuthScopes') || DEFAULT_GCP_SCOPES)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    let assertion: ReturnType<typeof googleAssertion>;
    try {
      assertion = googleAssertion(text(this.values, 'gcpServiceAccountJson'), scopes);
    } catch (error) {
      if (!(error instanceof GoogleKeyError)) throw error;
      return {
        ok: false,
        diagnosis: diagnosis('CATALOG_GOOGLE_KEY_INVALID', 'catalog.token', {
          what: `The GCP Service Account JSON cannot be used: ${error.message}`,
        }),
      };
    }
    this.scrubber.add(assertion.assertion);
    const url = this.tokenUrl(assertion.tokenUri);
    if (!(url instanceof URL)) return { ok: false, diagnosis: url };
    this.warnCleartext(url, 'The signed service-account assertion');
    return this.postToken(
      url,
      { grant_type: JWT_BEARER_GRANT, assertion: assertion.assertion },
      `token for ${assertion.clientEmail}`,
    );
  }

  /** The auth headers; with `to`, warns when the bearer token goes there over plain http. */
  private authHeaders(to?: URL): Record<string, string> {
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

  private async setUpSigV4(): Promise<Diagnosis | null> {
    const service = text(this.values, 'signingName') || 'execute-api';
    const region = text(this.values, 'signingRegion') || text(this.values, 'region');
    try {
      const credentials = await resolveAwsCredentials(
        { accessKeyId: text(this.values, 'accessKey'), secretAccessKey: text(this.values, 'secretKey') },
        this.opts.signal,
        this.opts.timeoutMs,
      );
      this.scrubber.add(credentials.secretAccessKey);
      this.scrubber.add(credentials.sessionToken);
      this.signer = sigV4Signer(service, region, credentials);
      return null;
    } catch (error) {
      if (this.opts.signal.aborted) return null;
      const message = this.scrubber.scrub((error as Error).message);
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

  private async readConfig(): Promise<StepOutcome> {
    if (this.values.authType === 'sigv4') {
      const problem = await this.setUpSigV4();
      if (problem || this.opts.signal.aborted) return { ok: false, diagnosis: problem };
    }
    const warehouse = text(this.values, 'warehouse');
    const url = new URL(`${this.base}/v1/config${warehouse ? `?${encodeQuery({ warehouse })}` : ''}`);
    const req: HttpRequest = { method: 'GET', url, headers: this.authHeaders(url) };
    const got = await this.fetchJson('catalog.config', 'config', req);
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
    this.endpoints = config.endpoints as string[] | undefined;
    const merged = { ...defaults, ...overrides };
    const property = LOCATION_PROPERTIES.find(
      (p) => typeof merged[p] === 'string' && LOCATION_URL.test(merged[p] as string),
    );
    this.configLocation = property
      ? {
          url: merged[property] as string,
          property,
          from: `catalog's config (${property in overrides ? 'overrides' : 'defaults'}.${property})`,
        }
      : null;
    this.prefix = typeof merged.prefix === 'string' && merged.prefix ? merged.prefix : undefined;
    const separator = merged['namespace-separator'];
    if (typeof separator === 'string' && separator) this.separator = separator;
    const parts = [this.prefix ? `prefix “${this.prefix}”` : 'no prefix'];
    const overridden = Object.keys(overrides);
    parts.push(overridden.length ? `server overrides ${overridden.join(', ')}` : 'no overrides');
    parts.push(plural(Object.keys(defaults).length, 'default'));
    parts.push(this.endpoints ? plural(this.endpoints.length, 'endpoint') : 'default endpoints');
    if (typeof merged.uri === 'string' && merged.uri) {
      const uri = normaliseBaseUrl(merged.uri);
      if (uri) {
        const refused = this.followUriOverride(uri);
        if (refused) return refused;
        if (uri !== this.base) this.serverUri = uri;
        this.base = uri;
        parts.push(`uri → ${safeUrl(uri, this.scrubber)}`);
      } else {
        this.warn(
          `The catalog config sets an unusable uri “${safeUrl(merged.uri, this.scrubber)}”; kept ${safeUrl(this.base)}`,
        );
      }
    }
    return { ok: true, detail: parts.join('; ') };
  }

  /**
   * Hands the storage check the catalog's location: the config's, else the `location` property of the
   * check namespace (--namespace, or OLake's test_olake), and otherwise notes what was asked and why it
   * named none.
   */
  private async settleLocation(): Promise<void> {
    const shared = this.opts.shared;
    if (!shared || this.opts.signal.aborted) return;
    if (this.configLocation === undefined) {
      const failed = this.steps.failed();
      shared.locationTried.push(
        `the catalog was not reached (“${failed?.title ?? 'Read the catalog config'}” failed), so neither its config nor a namespace could be asked for a location`,
      );
      return;
    }
    if (this.configLocation) return shared.setCatalogLocation(this.configLocation);
    shared.locationTried.push(
      `the catalog’s config names no location (no ${LOCATION_PROPERTIES.join(', ')} in its defaults or overrides)`,
    );
    const namespace = this.opts.write?.namespace ?? [OLAKE_CHECK_NAMESPACE];
    const name = namespace.join('.');
    const session = this.session();
    if (!serves(session, LOAD_NAMESPACE_ENDPOINT)) {
      shared.locationTried.push(`the catalog does not serve ${LOAD_NAMESPACE_ENDPOINT}`);
      return;
    }
    const url = new URL(catalogPath(session, namespace));
    const sent = await this.exchange('catalog.namespaces', {
      method: 'GET',
      url,
      headers: this.authHeaders(url),
    });
    if (this.opts.signal.aborted) return;
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
          : this.scrubber.scrub(`loading namespace ${name} failed (${why})`),
    );
  }

  private async listNamespaces(): Promise<StepOutcome> {
    if (this.endpoints && !this.endpoints.includes(LIST_NAMESPACES_ENDPOINT))
      return { skip: `the server does not advertise ${LIST_NAMESPACES_ENDPOINT}` };
    const path = `/v1/${this.prefix ? `${this.prefix}/` : ''}namespaces`;
    const url = new URL(`${this.base}${path}?${encodeQuery({ pageToken: '', pageSize: '1' })}`);
    const req: HttpRequest = { method: 'GET', url, headers: this.authHeaders(url) };
    const got = await this.fetchJson('catalog.namespaces', 'namespaces', req);
    if ('outcome' in got) return got.outcome;
    const { value, res, ctx } = got;
    const body = value;
    const list = isStringRecord(body) ? body.namespaces : undefined;
    if (
      !isStringRecord(body) ||
      (list !== undefined &&
        !(
          Array.isArray(list) &&
          list.every((ns) => Array.isArray(ns) && ns.every((p) => typeof p === 'string'))
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

export function createCatalogChain(chainOpts: CatalogChainOptions = {}): Chain {
  return async (values, opts) => {
    const run = new Run(values, opts, chainOpts);
    try {
      await run.run();
    } catch (error) {
      opts.emit({
        type: 'warning',
        message: run.scrubber.scrub(`catalog test stopped: ${(error as Error).message}`),
      });
    }
  };
}

/** The catalog chain with Node's trusted CAs (plus NODE_EXTRA_CA_CERTS). */
export const catalogChain: Chain = createCatalogChain();
