// A validated profile as another engine's configuration: pyiceberg (YAML or PYICEBERG_… variables),
// Spark (catalog properties), Trino (a catalog file) and DuckDB (SQL). Which properties is decided by the
// table (table.ts); this module only serialises them, and turns secrets into placeholders or environment
// references unless they are to be included.
import { DEFAULT_CATALOG_NAME, FIELD_BY_ID, type SecretEnv, type Values } from '../destination/fields.js';
import { toYaml, type YamlMap } from '../stack/yaml.js';
import { type Engine, KEY_FILE, ROWS, type Row, TRINO_TARGET } from './table.js';

export const ENGINE_FORMATS = ['pyiceberg', 'pyiceberg-env', 'spark', 'trino', 'duckdb'] as const;
export type EngineFormat = (typeof ENGINE_FORMATS)[number];

const ENGINE_OF: Record<EngineFormat, Engine> = {
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

/** The engine's properties for these (validated, normalized) values, in table order. */
export function selectProperties(engine: Engine, v: Values): Property[] {
  const out: Property[] = [];
  const cannot: string[] = [];
  for (const row of ROWS) {
    const target = row.engines[engine];
    if (target === undefined || !row.when(v)) continue;
    if (typeof target === 'object' && 'unsupported' in target) {
      cannot.push(target.unsupported);
      continue;
    }
    const key = typeof target === 'string' ? target : target.key;
    const produce = typeof target === 'string' ? row.value : target.value;
    const value = typeof produce === 'function' ? produce(v) : produce;
    if (value !== undefined) out.push({ key, value, secret: row.secret, file: row.file });
  }
  if (cannot.length > 0)
    throw new UnsupportedError(`${ENGINE_LABEL[engine]} cannot read this profile: ${cannot.join('; ')}.`);
  return out;
}

export interface RenderOptions {
  /** Write secrets' values; otherwise placeholders or environment references. */
  includeSecrets: boolean;
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

function renderPyiceberg(name: string, props: Out[]): string {
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
    'pyiceberg: ~/.pyiceberg.yaml (or $PYICEBERG_HOME/.pyiceberg.yaml), written by floe export.',
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

function renderPyicebergEnv(name: string, props: Out[]): string {
  const nested = props.find(({ p }) => p.key.includes('/'));
  if (nested)
    throw new UnsupportedError(
      `pyiceberg reads "${nested.p.key.split('/')[0]}:" (Google authentication) only as a nested block of .pyiceberg.yaml, which its PYICEBERG_… variables cannot express: use --format pyiceberg.`,
    );
  const lines = [
    '# pyiceberg: PYICEBERG_… variables, written by floe export. Load them with ". ./<this file>", then in',
    `# Python: load_catalog("${pyicebergEnvCatalog(name)}") (pyiceberg reads "_" in variable names as "-").`,
  ];
  for (const { p, value } of props) {
    const text = flat(value);
    const rhs = p.secret && text === p.secret.env ? `"\${${text}:?set ${text} first}"` : shellWord(text);
    lines.push(`export ${pyicebergVariable(name, p.key)}=${rhs}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderSpark(name: string, props: Out[]): string {
  const lines = [
    '# Spark: spark-defaults.conf lines, written by floe export; or pass each line as --conf to',
    '# spark-sql, spark-submit or pyspark. Needs org.apache.iceberg:iceberg-spark-runtime-<spark>_<scala>',
    '# and org.apache.iceberg:iceberg-aws-bundle (iceberg-gcp-bundle for Google) in spark.jars.packages.',
  ];
  for (const { p, value } of props) {
    const key = p.key ? `spark.sql.catalog.${name}.${p.key}` : `spark.sql.catalog.${name}`;
    lines.push(`${key}=${propertiesValue(flat(value))}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderTrino(name: string, props: Out[]): string {
  const lines = [
    `# Trino: etc/catalog/${name}.properties (the file name is the catalog name), written by floe export`,
    `# for Trino ${TRINO_TARGET.release} or later. Older releases name two properties differently:`,
    ...TRINO_TARGET.older.map((line) => `#   ${line}`),
  ];
  for (const { p, value } of props) lines.push(`${p.key}=${propertiesValue(flat(value))}`);
  return `${lines.join('\n')}\n`;
}

function renderDuckdb(name: string, props: Out[], v: Values): string {
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
    '-- DuckDB (1.4 or later): run in the duckdb shell or with duckdb -f. Written by floe export.',
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
  const props = selectProperties(ENGINE_OF[format], v).map((p) => output(p, style, opts, seen));
  let text: string;
  switch (format) {
    case 'pyiceberg':
      text = renderPyiceberg(name, props);
      break;
    case 'pyiceberg-env':
      text = renderPyicebergEnv(name, props);
      break;
    case 'spark':
      text = renderSpark(name, props);
      break;
    case 'trino':
      text = renderTrino(name, props);
      break;
    case 'duckdb':
      text = renderDuckdb(name, props, v);
      break;
  }
  return { text, notes: notesFor(format, seen) };
}
