// `floe jobs` on a real 80x24 pseudo-terminal against the OLake UI emulator: the browser as
// @xterm/headless sees it, re-login with a typed password after the server drops the session,
// and Ctrl-C leaving the alternate screen with the cursor back (exit 130). Needs the built CLI.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../../src/sandbox/olake-ui/index.js';

const BIN = resolve(import.meta.dirname, '../../../bin/floe.js');
const PASSWORD = 'pw-Browser-8841';
let ui: OlakeUiEmulator;
let configDir: string;

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CI' && !key.startsWith('FLOE_')) env[key] = value;
  return {
    ...env,
    FLOE_CONFIG_DIR: configDir,
    TERM: 'xterm-256color',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-test-bus',
  };
}

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(40, 5), users: { admin: PASSWORD } });
  configDir = mkdtempSync(join(tmpdir(), 'floe-jobs-pty-'));
  // The emulator runs in this process, so the login must not block it (no spawnSync).
  const login = spawn(
    process.execPath,
    [BIN, 'login', '--url', ui.url, '--password-stdin', '--insecure-storage'],
    { env: cleanEnv() },
  );
  let stderr = '';
  login.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  login.stdin.end(PASSWORD);
  const status = await new Promise<number | null>((done) => login.on('close', done));
  expect(status, stderr).toBe(0);
});
afterAll(() => ui.close());

function browser() {
  const term = new xterm.Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [BIN, 'jobs'], { cols: 80, rows: 24, env: cleanEnv() });
  let raw = '';
  const waiters: { re: RegExp; test: () => boolean; done: () => void }[] = [];
  const screen = () => {
    const buffer = term.buffer.active;
    return Array.from({ length: term.rows }, (_, i) =>
      (buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '').trimEnd(),
    ).join('\n');
  };
  child.onData((data) => {
    raw += data;
    term.write(data, () => {
      for (const w of [...waiters])
        if (w.test()) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done();
        }
    });
  });
  const exit = new Promise<number>((done) => child.onExit(({ exitCode }) => done(exitCode)));
  onTestFailed(() => {
    const pending = waiters.map((w) => w.re).join(', ') || 'none';
    process.stderr.write(`floe jobs screen (waiting for ${pending}):\n${screen()}\n`);
    child.kill();
  });
  return {
    screen,
    raw: () => raw,
    exit,
    write: (text: string) => child.write(text),
    /** Resolves once the screen satisfies `check` (the test's timeout fails it otherwise). */
    waitUntil: (check: (screen: string) => boolean) =>
      new Promise<void>((done) => {
        const test = () => check(screen());
        if (test()) done();
        else waiters.push({ re: /a screen change/, test, done });
      }),
    /** Resolves once the screen matches (the test's timeout fails it otherwise). */
    waitFor: (re: RegExp) =>
      new Promise<void>((done) => {
        const test = () => re.test(screen());
        if (test()) done();
        else waiters.push({ re, test, done });
      }),
  };
}

describe('floe jobs on an 80x24 terminal', () => {
  it('browses, signs in again after the session ends, and leaves cleanly on Ctrl-C', async () => {
    const names = ui.jobs.map((job) => job.name.toLowerCase()).sort();
    const b = browser();
    await b.waitFor(/40 jobs · sort name +updated \d+s ago[\s\S]*q quit/);
    const lines = b.screen().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[22]).toMatch(/Enter open/);
    expect(lines.filter((line) => /^[› ] \S+_\d+ +\S+ → iceberg/.test(line))).toHaveLength(19);

    b.write('j');
    await b.waitFor(new RegExp(`^› ${names[1]?.slice(0, 20)}[\\s\\S]*q quit`, 'm'));
    ui.expireSessions();
    b.write('R');
    await b.waitFor(/Password:$/m);
    b.write(PASSWORD);
    await b.waitFor(new RegExp(`Password: \\*{${PASSWORD.length}}$`, 'm'));
    b.write('\r');
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    expect(b.screen()).toMatch(new RegExp(`^› ${names[1]?.slice(0, 20)}`, 'm'));
    expect(b.raw()).not.toContain(PASSWORD);

    b.write('\u0003');
    expect(await b.exit).toBe(130);
    expect(b.raw()).toContain('\u001B[?1049l');
    expect(b.raw()).toContain('\u001B[?25h');
    expect(b.screen()).not.toContain('40 jobs');
  });

  it('reads a run’s logs through the real client, one page older at a time', async () => {
    const job = ui.jobs.find((candidate) => candidate.tasks.length > 0);
    const run = job?.tasks[0];
    if (!job || !run) throw new Error('the seed has no job that ran');
    for (let second = 0; second < 30; second++)
      run.logs.push({
        level: 'info',
        time: `2031-01-01T00:00:${String(second).padStart(2, '0')}Z`,
        message: `extra line ${second}`,
      });
    const lines = run.logs.filter((line) => line.level !== 'debug');
    const b = browser();
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    b.write('/');
    await b.waitFor(/^\/$/m);
    b.write(job.name);
    await b.waitFor(new RegExp(`^/${job.name}$`, 'm'));
    b.write('\r');
    await b.waitFor(new RegExp(`filter: ${job.name}`));
    b.write('\r');
    await b.waitFor(new RegExp(`${job.name} #${job.id}[\\s\\S]*Runs \\(${job.tasks.length}\\)`));
    b.write('\r');
    // 24 rows leave 10 for the pane: its header and nine lines.
    const tail = lines.slice(-9);
    await b.waitFor(new RegExp(`^${tail.at(-1)?.time} `, 'm'));
    expect(b.screen()).toContain(`${tail[0]?.time} `);
    expect(b.screen()).not.toContain(`${lines.at(-10)?.time} `);
    b.write('[');
    await b.waitFor(new RegExp(`^${lines.at(-10)?.time} `, 'm'));
    expect(b.screen()).toContain(`${lines.at(-18)?.time} `);
    expect(b.screen()).not.toContain(`${tail.at(-1)?.time} `);
    for (const line of b.screen().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    b.write('q');
    expect(await b.exit).toBe(0);
  });
});
