// Preloaded (`node --import`) into a process the bench measures: on exit, appends the process's peak
// resident set (KiB) to the file named by BENCH_MAXRSS_FILE.
import { appendFileSync } from 'node:fs';

process.on('exit', () => {
  appendFileSync(process.env.BENCH_MAXRSS_FILE, `${process.resourceUsage().maxRSS}\n`);
});
