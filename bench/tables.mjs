// `floe tables` with 1,000 tables and 50 ms per catalog request: the list's first row after the list
// answer, every row, peak RSS, and the ratio to a plain script that only loads the same tables (16 at a
// time, as floe). The sandbox's Polaris-flavoured catalog (its slow fault) and s3rver, seeded by floe's
// write path (one table in twenty committed, one in five of those without summary totals, so their
// manifests are read). Each measurement is a child process of its own (`node bench/tables.mjs floe` or
// `plain`), so its maxRSS is its own; both import the same bundle of floe's sources.
//
// `npm run bench` runs it (bench.mjs); alone, `node bench/tables.mjs` measures only these rows and
// replaces their section of bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { importSources } from '../scripts/lib/sources.mjs';

const TABLES = 1000;
const DELAY_MS = 50;
const IN_FLIGHT = 16;
const RUNS = Number(process.env.BENCH_TABLES_RUNS ?? 3);
const NAMESPACE = ['bench'];
const MODULES = {
  'src/sandbox/index.ts': ['startSandbox'],
  'src/sandbox/profile.ts': ['sandboxProfile'],
  'src/sandbox/seed-tables.ts': ['seedTables'],
  'src/tables/session.ts': ['openSession'],
  'src/tables/index.ts': ['listTables'],
  'src/tables/health.ts': ['DEFAULT_THRESHOLDS'],
  'src/catalog/session.ts': ['catalogPath'],
};
const SELF = fileURLToPath(import.meta.url);
const MARK = '<!-- floe tables bench -->';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A child's session: the catalog chain run once, before any time is taken. */
async function childSession(s) {
  const values = JSON.parse(process.env.BENCH_TABLES_VALUES ?? '{}');
  const opened = await s.openSession(values, { signal: new AbortController().signal, timeoutMs: 60_000 });
  if (!opened.session) throw new Error(`no session: ${JSON.stringify(opened.diagnoses)}`);
  return { values, session: opened.session };
}

/** floe's own listing: time to the first tables page's answer, the first row, every row. */
async function floeChild() {
  const s = await importSources(MODULES);
  const { values, session } = await childSession(s);
  const start = performance.now();
  let listAnswer;
  let firstRow;
  const { rows } = await s.listTables({
    values,
    session,
    catalogName: 'bench',
    thresholds: s.DEFAULT_THRESHOLDS,
    signal: new AbortController().signal,
    timeoutMs: 60_000,
    now: Date.now,
    namespace: NAMESPACE,
    emit: (event) => {
      if (event.type === 'trace' && listAnswer === undefined && /\/tables\?pageToken=/.test(event.entry.url))
        listAnswer = performance.now() - start;
    },
    onRow: () => {
      firstRow ??= performance.now() - start;
    },
  });
  const allMs = performance.now() - start;
  return { rows: rows.length, listMs: listAnswer, firstRowMs: firstRow, allMs };
}

/** The plain script: the same pages and table loads with fetch, 16 at a time, each answer parsed. */
async function plainChild() {
  const s = await importSources(MODULES);
  const { session } = await childSession(s);
  const get = async (url) => {
    const target = new URL(url);
    const res = await fetch(target, { headers: session.headers(target) });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return JSON.parse(await res.text());
  };
  const start = performance.now();
  const names = [];
  let token = '';
  do {
    const page = await get(
      `${s.catalogPath(session, NAMESPACE, 'tables')}?pageToken=${encodeURIComponent(token)}`,
    );
    names.push(...page.identifiers.map((id) => id.name));
    token = page['next-page-token'] ?? '';
  } while (token);
  let next = 0;
  const loaded = [];
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < names.length)
        loaded.push(await get(s.catalogPath(session, NAMESPACE, 'tables', names[next++])));
    }),
  );
  return { rows: loaded.length, allMs: performance.now() - start };
}

/** Data files of the table `show` reads: 20 manifests of 5,000 entries, and two delete manifests. */
const SCAN_MANIFESTS = 20;
const SCAN_PER_MANIFEST = 5000;

/**
 * `floe tables show`'s read of a table with 100,000 data files: the manifests (written by floe's own
 * Avro writer, as test/tables/scan.test.ts checks them exactly) are made first and held in memory, then
 * `scanManifests` reads them as the command does, through an object reader.
 */
async function scanChild() {
  const s = await importSources({
    'src/tables/manifests.ts': ['scanManifests'],
    'src/write/avro.ts': ['writeManifestEntries', 'writeManifestListFiles'],
    'src/write/files.ts': ['olakeRawSchema'],
  });
  const schema = s.olakeRawSchema(true);
  const files = new Map();
  const list = [];
  for (let m = 0; m < SCAN_MANIFESTS + 2; m++) {
    const deletes = m >= SCAN_MANIFESTS;
    const entries = Array.from({ length: deletes ? 50 : SCAN_PER_MANIFEST }, (_, i) => {
      const n = m * SCAN_PER_MANIFEST + i;
      return {
        status: 1,
        snapshotId: 1,
        sequenceNumber: null,
        content: deletes ? (m === SCAN_MANIFESTS ? 1 : 2) : 0,
        path: `s3://lake/t/data/${n}.parquet`,
        recordCount: (n % 7) + 1,
        sizeInBytes: (n % 1000) * 700_000 + 100,
        ...(deletes && m > SCAN_MANIFESTS ? { equalityIds: [1] } : {}),
      };
    });
    const bytes = await s.writeManifestEntries({
      schema,
      formatVersion: 2,
      specId: 0,
      content: deletes ? 'deletes' : 'data',
      entries,
    });
    const path = `s3://lake/t/metadata/m${m}.avro`;
    files.set(path, bytes);
    list.push({
      path,
      length: bytes.length,
      specId: 0,
      content: deletes ? 1 : 0,
      sequenceNumber: 1,
      minSequenceNumber: 1,
      addedSnapshotId: 1,
      addedFilesCount: entries.length,
      existingFilesCount: 0,
      deletedFilesCount: 0,
      addedRowsCount: 0,
      existingRowsCount: 0,
      deletedRowsCount: 0,
    });
  }
  const listPath = 's3://lake/t/metadata/snap-1.avro';
  files.set(
    listPath,
    await s.writeManifestListFiles({
      snapshotId: 1,
      parentSnapshotId: null,
      sequenceNumber: 1,
      manifests: list,
    }),
  );
  const heldMiB = [...files.values()].reduce((n, b) => n + b.length, 0) / 2 ** 20;
  const start = performance.now();
  const stats = await s.scanManifests(listPath, {
    reader: { read: async (url) => files.get(url), close: () => {} },
    signal: new AbortController().signal,
    smallFileBytes: 1 << 20,
    onProgress: () => {},
  });
  return { dataFiles: stats.dataFiles, scanMs: performance.now() - start, heldMiB };
}

/** One child run: its JSON answer and its own peak RSS. */
function runChild(role, values) {
  const child = spawn(process.execPath, [SELF, role], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BENCH_TABLES_VALUES: JSON.stringify(values) },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => {
    out += c;
  });
  child.stderr.on('data', (c) => {
    err += c;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${role}: ${err}`)),
    ),
  );
}

/** The rows for RESULTS.md (bench.mjs's shape) and how they were measured. */
export async function benchTables() {
  const s = await importSources(MODULES);
  const sandbox = await s.startSandbox({
    catalog: 'polaris',
    jobs: 0,
    ports: { catalog: 0, olake: 0, s3: 0 },
  });
  try {
    const values = s.sandboxProfile({
      flavour: 'polaris',
      facts: sandbox.catalog.facts,
      catalogUrl: sandbox.catalog.url,
      tokenUrl: sandbox.catalog.tokenUrl,
      s3: sandbox.s3,
    });
    const opened = await s.openSession(values, { signal: new AbortController().signal, timeoutMs: 30_000 });
    if (!opened.session) throw new Error(`no session: ${JSON.stringify(opened.diagnoses)}`);
    const seedStart = performance.now();
    const now = Date.now();
    // s3rver may reset a connection under load: a table whose seeding failed is seeded again under
    // another name (a half-made one stays, so the count is what the catalog lists).
    for (let i = 0; i < TABLES; i++)
      for (let attempt = 0; ; attempt++) {
        try {
          await s.seedTables(
            [
              {
                namespace: NAMESPACE,
                name: `t${String(i).padStart(4, '0')}${attempt ? `_${attempt}` : ''}`,
                noTotals: i % 100 === 0,
                commits: i % 20 === 0 ? [{ files: 2, rows: 5, timestampMs: now - i * 60_000 }] : [],
              },
            ],
            { values, session: opened.session, signal: new AbortController().signal },
          );
          break;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    const seedMs = performance.now() - seedStart;
    sandbox.catalog.bearer.setFault({ kind: 'slow', delayMs: DELAY_MS });
    const floe = [];
    const plain = [];
    for (let run = 0; run < RUNS; run++) {
      floe.push(await runChild('floe', values));
      plain.push(await runChild('plain', values));
    }
    const scans = [];
    for (let run = 0; run < RUNS; run++) scans.push(await runChild('scan', values));
    if (scans.some((r) => r.dataFiles !== SCAN_MANIFESTS * SCAN_PER_MANIFEST))
      throw new Error(`a scan counted ${scans.map((r) => r.dataFiles).join(', ')} data files`);
    const listed = plain[0].rows;
    for (const r of [...floe, ...plain])
      if (r.rows !== listed || listed < TABLES)
        throw new Error(`a run listed ${r.rows} tables, not ${listed}`);
    const m = (xs, key) => median(xs.map((x) => x[key]));
    const first = median(floe.map((r) => r.firstRowMs - r.listMs));
    const all = m(floe, 'allMs');
    const plainAll = m(plain, 'allMs');
    const rss = m(floe, 'rssMiB');
    const plainRss = m(plain, 'rssMiB');
    const rows = [
      {
        id: 'tables-first',
        what: `\`floe tables\`, ${TABLES.toLocaleString('en')} tables, ${DELAY_MS} ms per catalog request: first row after the list answer`,
        value: first,
        unit: 'ms',
        target: '≤ 1000 ms',
        met: first <= 1000,
      },
      {
        id: 'tables-all',
        what: `\`floe tables\`, ${TABLES.toLocaleString('en')} tables: every row`,
        value: all,
        unit: 'ms',
        target: '≤ 10000 ms',
        met: all <= 10_000,
        extra: `${(all / plainAll).toFixed(2)}× the plain script (${plainAll.toFixed(0)} ms); the floor is ${TABLES} loads × ${DELAY_MS} ms / ${IN_FLIGHT} = ${((TABLES * DELAY_MS) / IN_FLIGHT).toFixed(0)} ms`,
      },
      {
        id: 'tables-rss',
        what: `\`floe tables\`, ${TABLES.toLocaleString('en')} tables: peak RSS`,
        value: rss,
        unit: 'MiB',
        target: '≤ 200 MiB',
        met: rss <= 200,
        extra: `the plain script: ${plainRss.toFixed(0)} MiB (both load the same bundle of floe's sources)`,
      },
      {
        id: 'tables-scan',
        what: `\`floe tables show\`, a table with ${(SCAN_MANIFESTS * SCAN_PER_MANIFEST).toLocaleString('en')} data files: reading its ${SCAN_MANIFESTS + 2} manifests exactly`,
        value: m(scans, 'scanMs'),
        unit: 'ms',
        target: '≤ 30000 ms',
        met: m(scans, 'scanMs') <= 30_000,
      },
      {
        id: 'tables-scan-rss',
        what: `\`floe tables show\`, ${(SCAN_MANIFESTS * SCAN_PER_MANIFEST).toLocaleString('en')} data files: peak RSS`,
        value: m(scans, 'rssMiB'),
        unit: 'MiB',
        target: '≤ 200 MiB',
        met: m(scans, 'rssMiB') <= 200,
        extra: `the ${m(scans, 'heldMiB').toFixed(1)} MiB of manifests included (held in memory by the bench)`,
      },
    ];
    const how = `- \`floe tables\`: the sandbox's Polaris-flavoured catalog with its slow fault (${DELAY_MS} ms before every
  answer) and s3rver, seeded by floe's write path with ${TABLES.toLocaleString('en')} tables in one namespace (one in
  twenty committed, one in five of those without summary totals: their manifests are read; seeding took
  ${(seedMs / 1000).toFixed(0)} s, not counted). Each run is a child process: the catalog session is opened first
  (not counted), then \`listTables\` (floe's code, bundled from src/) runs with at most ${IN_FLIGHT} requests in
  flight (the cap itself is asserted in test/tables/tables.test.ts with a counting catalog). "First row"
  is the first row handed to the screen after the first tables page's answer; peak RSS is the child's
  maxRSS. The plain script (same file, \`plain\`) pages the same list and loads every table with fetch,
  ${IN_FLIGHT} at a time, parsing each answer and nothing more. Medians of ${RUNS} runs of each, alternating.
- \`floe tables show\` of ${(SCAN_MANIFESTS * SCAN_PER_MANIFEST).toLocaleString('en')} data files: a child process writes the manifests with
  floe's own Avro writer (not counted), holds them in memory and reads them with \`scanManifests\`, the
  command's reader, which counts entries as they stream and keeps none (exactness: test/tables/scan.test.ts).
  Fetching 22 objects from a store is left out. Medians of ${RUNS} runs.
- Reading the rows: floe takes ${(all / plainAll).toFixed(2)}× the plain script's time for the same requests, so
  what lies above the floor of ${((TABLES * DELAY_MS) / IN_FLIGHT).toFixed(0)} ms is the emulator's time to answer (the catalog emulator
  and s3rver share one Node process, here on a loaded machine), not floe's; a miss of the time targets
  with a ratio near 1 is the server's.`;
    return { rows, how };
  } finally {
    await sandbox.stop();
  }
}

/** The section of RESULTS.md these rows make. */
export function tablesSection({ rows, how }, machine) {
  const cell = (r) => `${Number.isInteger(r.value) ? r.value : r.value.toFixed(1)} ${r.unit}`;
  const table = rows
    .map(
      (r) =>
        `| ${r.what} | ${cell(r)} | ${r.target ?? ''} | ${r.met ? '✓ met' : '✗ missed'} | ${r.extra ?? ''} |`,
    )
    .join('\n');
  return `${MARK}
## \`floe tables\`

${machine}

| What | Median | Target | Met | Notes |
|---|---|---|---|---|
${table}

${how}
`;
}

const role = process.argv[2];
if (role === 'floe' || role === 'plain' || role === 'scan') {
  const result = await (role === 'floe' ? floeChild() : role === 'plain' ? plainChild() : scanChild());
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ...result, rssMiB }));
  process.exit(0);
} else if (process.argv[1] === SELF) {
  const load = loadavg();
  const result = await benchTables();
  const cpu = cpus();
  const fmt = (l) => l.map((x) => x.toFixed(1)).join(' ');
  const machine = `Measured alone (\`node bench/tables.mjs\`) on ${cpu.length} × ${cpu[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, while other work ran on the machine (load average ${fmt(load)} at the start, ${fmt(loadavg())} at the end).`;
  const path = new URL('./RESULTS.md', import.meta.url);
  const current = readFileSync(path, 'utf8');
  const at = current.indexOf(MARK);
  const kept = at === -1 ? `${current.trimEnd()}\n\n` : current.slice(0, at);
  // The sections after this one (the test suite's times) stay.
  const after = at === -1 ? '' : (/\n## (?!`floe tables`)[\s\S]*$/.exec(current.slice(at))?.[0] ?? '');
  const section = tablesSection(result, machine);
  writeFileSync(path, after ? `${kept}${section.trimEnd()}\n${after}` : `${kept}${section}`);
  process.stdout.write(section);
  process.exit(0);
}
