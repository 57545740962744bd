// floe's benchmarks, all in one run so ratios hold on a noisy machine: several runs each, medians.
// Writes bench/RESULTS.md. Run with `npm run bench` (builds first).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const bin = new URL('../bin/floe.js', import.meta.url).pathname;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeCommand(args, env = {}) {
  const samples = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i >= 2) samples.push(ms);
  }
  return median(samples);
}

const rows = [];
const baseline = timeCommand(['-e', '0']);
rows.push(['`node -e 0`', baseline, 1, '']);
const version = timeCommand([bin, '--version']);
rows.push(['`floe --version`', version, version / baseline, '≤ 1.3×']);
const help = timeCommand([bin, '--help']);
rows.push(['`floe --help` (loads the bundle)', help, help / baseline, '']);

const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const table = rows
  .map(([what, ms, ratio, target]) => `| ${what} | ${ms.toFixed(1)} ms | ${ratio.toFixed(2)}× | ${target} |`)
  .join('\n');
const md = `# Benchmarks

Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Medians of ${RUNS} runs (after 2 warm-ups), all
measured in the same run of \`npm run bench\`.

| What | Median | Ratio to \`node -e 0\` | Target |
|---|---|---|---|
${table}
`;
writeFileSync(new URL('./RESULTS.md', import.meta.url), md);
process.stdout.write(md);
