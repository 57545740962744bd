// A validated profile as another engine's configuration: pyiceberg (YAML or PYICEBERG_… variables),
// Spark (catalog properties), Trino (a catalog file) and DuckDB (SQL). Which properties is decided by the
// table (table.ts); this module only serialises them, and turns secrets into placeholders or environment
// references unless they are to be included.
import { DEFAULT_CATALOG_NAME, FIELD_BY_ID, type SecretEnv, type Values } from '../destination/fields.js';
import { toYaml, type YamlMap } from '../stack/yaml.js';
import {
  compareReleases,
  ENGINE_VERSIONS,
  type Engine,
  inRelease,
  KEY_FILE,
  RELEASE_PATTERN,
  ROWS,
  type Row,
  type Target,
} from './table.js';

export const ENGINE_FORMATS = ['pyiceberg', 'pyiceberg-env', 'spark', 'trino', 'duckdb'] as const;
export type EngineFormat = (typeof ENGINE_FORMATS)[number];

export const ENGINE_OF: Record<EngineFormat, Engine> = {
  pyiceberg: 'pyiceberg',
  'pyiceberg-env': 'pyiceberg',
  spark: 'spark',
  trino: 'trino',
  duckdb: 'duckdb',
};

const ENGINE_LABEL: Record<Engine, string> = {
  pyiceberg: 'pyiceberg',
  spark: 'Spark',
  trino: 'Trino',
  duckdb: 'DuckDB',
};

/** The profile asks for something the engine cannot express: nothing is written. */
export class UnsupportedError extends Error {}

export interface Property {
  key: string;
  value: string | string[];
  secret?: Row['secret'];
  file?: string;
}

/** The release an export targets: --engine-version, or the newest floe checked. Throws a reason. */
export function engineRelease(engine: Engine, requested?: string): string {
  const versions = ENGINE_VERSIONS[engine];
  if (requested === undefined) return versions.latest;
  const release = requested.replace(/^v/, '');
  if (!RELEASE_PATTERN.test(release))
    throw new UnsupportedError(
      `--engine-version: "${requested}" is not a release number (e.g. ${versions.latest})`,
    );
  if (compareReleases(release, versions.oldest) < 0)
    throw new UnsupportedError(
      `${versions.product} ${release} is older than floe's exports go (${versions.oldest}): export for ${versions.oldest} or later`,
    );
  return release;
}

/** The row's targets for this engine that apply to the release and these values. */
function targetsOf(row: Row, engine: Engine, release: string, v: Values): Target[] {
  const target = row.engines[engine];
  if (target === undefined) return [];
  return (Array.isArray(target) ? target : [target]).filter(
    (t) => inRelease(t, release) && (typeof t === 'string' || t.when === undefined || t.when(v)),
  );
}

/**
 * The engine's properties for these (validated, normalized) values, in table order, for one release of
 * the engine (default: the newest floe checked). A key two rows write with the same value is written once.
 */
export function selectProperties(engine: Engine, v: Values, release?: string): Property[] {
  const target = release ?? ENGINE_VERSIONS[engine].latest;
  const out: Property[] = [];
  const cannot: string[] = [];
  for (const row of ROWS) {
    if (!row.when(v)) continue;
    for (const t of targetsOf(row, engine, target, v)) {
      if (typeof t === 'object' && 'unsupported' in t) {
        cannot.push(t.unsupported);
        continue;
      }
      const key = typeof t === 'string' ? t : t.key;
      const produce = typeof t === 'string' || t.value === undefined ? row.value : t.value;
      const value = typeof produce === 'function' ? produce(v) : produce;
      if (value === undefined) continue;
      const same = out.find((p) => p.key === key);
      if (same && JSON.stringify(same.value) === JSON.stringify(value)) continue;
      out.push({ key, value, secret: row.secret, file: row.file });
    }
  }
  if (cannot.length > 0)
    throw new UnsupportedError(
      `${ENGINE_LABEL[engine]} ${target} cannot read this profile: ${cannot.join('; ')}.`,
    );
  return out;
}

/**
 * The words that name the releases an export is for: the band of releases between two property-name
 * changes that holds the target release (`for Trino 484 or later`, `for Trino 471 to before 481`).
 */
export function targetLine(engine: Engine, release: string): string {
  const versions = ENGINE_VERSIONS[engine];
  const next = versions.changes.find((c) => compareReleases(c.at, release) > 0);
  const from =
    versions.changes.filter((c) => compareReleases(c.at, release) <= 0).at(-1)?.at ?? versions.oldest;
  return `for ${versions.product} ${from} ${next ? `to before ${next.at}` : 'or later'}`;
}

export interface RenderOptions {
  /** Write secrets' values; otherwise placeholders or environment references. */
  includeSecrets: boolean;
  /** The engine release to write for (--engine-version); default: the newest floe checked. */
  engineVersion?: string;
}

export interface Rendered {
  text: string;
  /** Lines for the user (stderr): which variables to set, which placeholders to fill. */
  notes: string[];
}

/** How a format writes a secret it must not include. */
type SecretStyle = 'placeholder' | 'trino-env' | 'shell-env';

const SECRET_STYLE: Record<EngineFormat, SecretStyle> = {
  pyiceberg: 'placeholder',
  'pyiceberg-env': 'shell-env',
  spark: 'placeholder',
  trino: 'trino-env',
  duckdb: 'placeholder',
};

export function placeholder(secret: NonNullable<Row['secret']>): string {
  return secret.part ? `<${secret.env} ${secret.part}>` : `<${secret.env}>`;
}

/** The catalog's name in every engine: the profile's Catalog Name (letters and underscores). */
export function catalogName(v: Values): string {
  const name = v.fields.catalogName;
  return typeof name === 'string' && name ? name : DEFAULT_CATALOG_NAME;
}

interface Collected {
  env: Set<SecretEnv>;
  placeholders: Map<string, SecretEnv>;
  keyFile: boolean;
}

/** A property as written: its value, or the variable it refers to. */
interface Out {
  p: Property;
  value: string | string[];
  ref?: SecretEnv;
}

function output(p: Property, style: SecretStyle, opts: RenderOptions, seen: Collected): Out {
  if (p.file) seen.keyFile = true;
  if (!p.secret || opts.includeSecrets) return { p, value: p.value };
  if (style === 'placeholder' || p.secret.part) {
    const text = placeholder(p.secret);
    seen.placeholders.set(text, p.secret.env);
    return { p, value: text };
  }
  seen.env.add(p.secret.env);
  const env = p.secret.env;
  return { p, value: style === 'trino-env' ? `\${ENV:${env}}` : env, ref: env };
}

/** A Java properties value (Spark's and Trino's loaders use java.util.Properties). */
function propertiesValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replace(/^\s/, (c) => `\\${c}`);
}

const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;
const shellWord = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

function flat(value: string | string[]): string {
  return Array.isArray(value) ? value.join(',') : value;
}

/** A `$NAME` key: a variable of the engine's process environment, not a catalog property. */
const isEnvKey = (key: string) => key.startsWith('$');

/**
 * pyiceberg before 0.10.0 signs SigV4 requests with boto3's default credentials (table.ts), so the keys go
 * in its environment: why, and which variables (the env format writes them; the YAML cannot).
 */
function awsEnvNote(selected: Property[], written: boolean): string[] {
  const env = selected.filter((p) => isEnvKey(p.key));
  if (env.length === 0) return [];
  const names = env.map((p) => `${p.key.slice(1)}${p.secret ? ` (the ${p.secret.env})` : ''}`);
  return [
    `pyiceberg before 0.10.0 signs catalog requests with boto3's default AWS credentials (boto3.Session() without arguments), not client.access-key-id: ${written ? 'this file sets' : 'set'} ${names.join(' and ')} in its environment (or AWS_PROFILE naming a profile with these keys), or use pyiceberg 0.10.0 or later (--engine-version 0.10.0), which reads them from the catalog's properties.`,
  ];
}

function renderPyiceberg(name: string, props: Out[], target: string): string {
  const catalog: YamlMap = {};
  for (const { p, value } of props) {
    const path = p.key.split('/');
    let map = catalog;
    for (const part of path.slice(0, -1)) {
      map[part] ??= {};
      map = map[part] as YamlMap;
    }
    map[path.at(-1)!] = value;
  }
  return toYaml({ catalog: { [name]: catalog } }, [
    `pyiceberg: ~/.pyiceberg.yaml (or $PYICEBERG_HOME/.pyiceberg.yaml), written by floe export ${target}.`,
    `Python: from pyiceberg.catalog import load_catalog; catalog = load_catalog("${name}")`,
  ]);
}

/** pyiceberg's name for PYICEBERG_CATALOG__<NAME>__…: lowercased, `_` read as `-` (utils/config.py). */
export function pyicebergEnvCatalog(name: string): string {
  return name.replaceAll('_', '-');
}

function pyicebergVariable(name: string, key: string): string {
  const part = (s: string) => s.toUpperCase().replaceAll('.', '__').replaceAll('-', '_');
  return `PYICEBERG_CATALOG__${part(name)}__${part(key)}`;
}

function renderPyicebergEnv(name: string, props: Out[], target: string): string {
  const nested = props.find(({ p }) => p.key.includes('/'));
  if (nested)
    throw new UnsupportedError(
      `pyiceberg reads "${nested.p.key.split('/')[0]}:" (Google authentication) only as a nested block of .pyiceberg.yaml, which its PYICEBERG_… variables cannot express: use --format pyiceberg.`,
    );
  const lines = [
    `# pyiceberg: PYICEBERG_… variables, written by floe export ${target}.`,
    '# Load them with ". ./<this file>", then in',
    `# Python: load_catalog("${pyicebergEnvCatalog(name)}") (pyiceberg reads "_" in variable names as "-").`,
  ];
  for (const { p, value } of props) {
    const text = flat(value);
    const rhs = p.secret && text === p.secret.env ? `"\${${text}:?set ${text} first}"` : shellWord(text);
    const variable = isEnvKey(p.key) ? p.key.slice(1) : pyicebergVariable(name, p.key);
    lines.push(`export ${variable}=${rhs}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderSpark(name: string, props: Out[], target: string): string {
  const lines = [
    `# Spark: spark-defaults.conf lines, written by floe export ${target}`,
    '# (iceberg-spark-runtime). Or pass each line as --conf to spark-sql, spark-submit or pyspark.',
    '# Needs org.apache.iceberg:iceberg-spark-runtime-<spark>_<scala>',
    '# and org.apache.iceberg:iceberg-aws-bundle (iceberg-gcp-bundle for Google) in spark.jars.packages.',
  ];
  for (const { p, value } of props) {
    const key = p.key ? `spark.sql.catalog.${name}.${p.key}` : `spark.sql.catalog.${name}`;
    lines.push(`${key}=${propertiesValue(flat(value))}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Trino expands `${ENV:NAME}` (and `${FILE:…}`) anywhere in a catalog file's values, and has no escape
 * for it: a profile value holding one would read the server's environment or files. Refused, with the
 * property named; floe's own `${ENV:FLOE_…}` references (no --include-secrets) are written on purpose.
 */
function refuseTrinoExpansion(props: Out[]): void {
  for (const { p, value, ref } of props) {
    const text = flat(value);
    if (ref !== undefined && text === `\${ENV:${ref}}`) continue;
    if (/\$\{(ENV|FILE):/i.test(text))
      throw new UnsupportedError(
        `Trino would expand the \${ENV:…} / \${FILE:…} in ${p.key}'s value (it has no escape for them), reading the server's environment or files; change that value in the profile`,
      );
  }
}

function renderTrino(name: string, props: Out[], target: string): string {
  refuseTrinoExpansion(props);
  const lines = [
    `# Trino: etc/catalog/${name}.properties (the file name is the catalog name), written by floe export`,
    `# ${target} (another release: --engine-version <release>).`,
  ];
  for (const { p, value } of props) lines.push(`${p.key}=${propertiesValue(flat(value))}`);
  return `${lines.join('\n')}\n`;
}

function renderDuckdb(name: string, props: Out[], v: Values, forRelease: string): string {
  const group = (prefix: string) =>
    props
      .filter(({ p }) => p.key.startsWith(`${prefix}.`))
      .map(({ p, value }) => {
        const text = flat(value);
        return `${p.key.slice(prefix.length + 1)} ${text === 'true' || text === 'false' ? text : sqlString(text)}`;
      });
  const target = props.find(({ p }) => p.key === 'attach');
  const s3 = group('s3');
  const iceberg = group('iceberg');
  const extensions = v.authType === 'sigv4' ? ['httpfs', 'aws', 'iceberg'] : ['httpfs', 'iceberg'];
  const lines = [
    `-- DuckDB: run in the duckdb shell or with duckdb -f. Written by floe export ${forRelease}.`,
    ...extensions.map((e) => `INSTALL ${e}; LOAD ${e};`),
    `CREATE OR REPLACE SECRET ${name}_s3 (${['TYPE s3', ...s3].join(', ')});`,
  ];
  const attach = ['TYPE iceberg', ...group('attach')];
  if (iceberg.length > 0) {
    lines.push(`CREATE OR REPLACE SECRET ${name}_catalog (${['TYPE iceberg', ...iceberg].join(', ')});`);
    attach.push(`SECRET ${name}_catalog`);
  }
  lines.push(`ATTACH ${sqlString(flat(target?.value ?? ''))} AS ${name} (${attach.join(', ')});`);
  lines.push('SHOW ALL TABLES;');
  return `${lines.join('\n')}\n`;
}

function notesFor(format: EngineFormat, seen: Collected): string[] {
  const notes: string[] = [];
  const label = (env: SecretEnv) => Object.values(FIELD_BY_ID).find((f) => f.env === env)?.label ?? env;
  for (const [text, env] of seen.placeholders)
    notes.push(
      `Replace ${text} with the ${label(env)} (floe reads it from ${env} or the profile's storage).`,
    );
  const env = [...seen.env];
  if (env.length > 0 && format === 'trino')
    notes.push(`Set ${env.join(', ')} in the Trino server's environment: the file reads \${ENV:NAME}.`);
  if (env.length > 0 && format === 'pyiceberg-env')
    notes.push(`Set ${env.join(', ')} before loading the file: it reads them from the shell.`);
  if (seen.keyFile)
    notes.push(
      `Save the service-account key (FLOE_GCP_SERVICE_ACCOUNT_JSON) to a file readable only by you, and put its path in place of ${KEY_FILE}.`,
    );
  if (env.length > 0 || seen.placeholders.size > 0)
    notes.push('Or export again with --include-secrets to write the values themselves (0600 file).');
  return notes;
}

/** The profile (validated and normalized) in the format; throws UnsupportedError. */
export function renderEngine(format: EngineFormat, v: Values, opts: RenderOptions): Rendered {
  const name = catalogName(v);
  const style = SECRET_STYLE[format];
  const seen: Collected = { env: new Set(), placeholders: new Map(), keyFile: false };
  const engine = ENGINE_OF[format];
  const release = engineRelease(engine, opts.engineVersion);
  const selected = selectProperties(engine, v, release);
  // The YAML cannot set the process environment: those variables are only named in a note.
  const props = selected
    .filter((p) => format !== 'pyiceberg' || !isEnvKey(p.key))
    .map((p) => output(p, style, opts, seen));
  const target = targetLine(engine, release);
  let text: string;
  switch (format) {
    case 'pyiceberg':
      text = renderPyiceberg(name, props, target);
      break;
    case 'pyiceberg-env':
      text = renderPyicebergEnv(name, props, target);
      break;
    case 'spark':
      text = renderSpark(name, props, target);
      break;
    case 'trino':
      text = renderTrino(name, props, target);
      break;
    case 'duckdb':
      text = renderDuckdb(name, props, v, target);
      break;
  }
  const notes = [...notesFor(format, seen), ...awsEnvNote(selected, format === 'pyiceberg-env')];
  if (v.storage === 'gcs' && (engine === 'pyiceberg' || engine === 'spark'))
    notes.push(
      `${ENGINE_LABEL[engine]} reads gs:// with Google's Application Default Credentials: set GOOGLE_APPLICATION_CREDENTIALS to the path of the service-account key file (FLOE_GCP_SERVICE_ACCOUNT_JSON), as OLake does for its writer.`,
    );
  return { text, notes };
}
