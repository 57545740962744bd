// The connection-test screen on a wide real terminal uses the whole width (the connect step's
// DNS/TCP timings are readable, never cut), and its HTTP trace pages with PgUp/PgDn and g/G; at 80x24
// nothing it shows is out of reach.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ConfigStore, profileValues } from '../../src/config/store.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { spawnCli } from '../support/cli.js';
import { floe, type Terminal, tempDir } from './support.js';

let sandbox: Sandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 0 });
  configDir = tempDir('floe-e2e-wide-');
  new ConfigStore(configDir).saveProfile(
    'sandbox',
    {
      preset: 'rest',
      authType: 'token',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: sandbox.catalog.url,
        warehouse: `s3://${SANDBOX.bucket}`,
        region: 'us-east-1',
        s3Endpoint: sandbox.s3.url,
      },
    },
    'env',
    [],
  );
});

afterAll(() => sandbox?.stop());

const environment = () => ({
  FLOE_TOKEN: SANDBOX.token,
  FLOE_ACCESS_KEY: sandbox.s3.accessKey,
  FLOE_SECRET_KEY: sandbox.s3.secretKey,
});

const position = (screen: string[], panel = 'HTTP trace') =>
  new RegExp(`${panel} \\(\\d+\\) · lines (\\d+)–(\\d+) of (\\d+)`).exec(screen.join('\n'));

describe('the test screen on a 160x24 terminal', { timeout: 60_000 }, () => {
  it('uses the full width and pages the HTTP trace', async () => {
    const t = floe(configDir, {
      args: ['test', '--profile', 'sandbox'],
      cols: 160,
      env: environment(),
    });
    const screen = await t.waitFor('✓ All checks passed');
    const connect = screen.find((line) => line.includes('Connect to the catalog')) ?? '';
    expect(connect).toMatch(/TCP/);
    expect(connect).not.toContain('…');
    expect(Math.max(...screen.map((line) => line.length))).toBeGreaterThan(80);

    await t.press('v');
    const first = position(await t.waitFor(/HTTP trace \(\d+\) · lines 1–/));
    const [, , end, total] = (first ?? []).map(Number);
    expect(total).toBeGreaterThan(end as number);
    expect(t.screen().join('\n')).toContain('PgUp/Dn scroll');
    await t.press('pgdn');
    const paged = position(await t.waitFor(/HTTP trace \(\d+\) · lines (?!1–)\d+–/));
    expect(Number(paged?.[1])).toBe(end as number);
    await t.press('G');
    await t.waitFor(new RegExp(`lines \\d+–${total} of ${total}`));
    await t.press('g');
    await t.waitFor(/HTTP trace \(\d+\) · lines 1–/);
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expect(t.wrappedLines()).toEqual([]);
  });
});

function start(args: string[]): Terminal {
  const t = floe(configDir, { args, env: environment() });
  onTestFailed(() => console.error(`screen at failure:\n${t.screen().join('\n')}`));
  return t;
}

const FINISHED = /checks? (passed|failed)[\s\S]*Ctrl-C quit/;

/** Every screen from the panel's first line to its last, a page at a time. */
async function pages(t: Terminal, panel: string): Promise<string[][]> {
  const screens = [t.screen()];
  for (let i = 0; i < 100; i++) {
    const at = position(t.screen(), panel);
    if (!at || at[2] === at[3]) return screens;
    await t.press('pgdn');
    screens.push(await t.waitFor(new RegExp(`${panel} \\(\\d+\\) · lines (?!${at[1]}–)\\d+–`)));
  }
  throw new Error('the panel never reached its end');
}

/** A detail as a pattern over text with its whitespace removed: numbers and ids (timings, probe keys) vary. */
function detailPattern(detail: string): RegExp {
  const parts = detail.replace(/\s+/g, '').split(/[0-9a-f]*[0-9][0-9a-f.-]*/);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[0-9a-f.-]+'));
}

// Issue 30, item 3: at 80x24 every step detail is reachable whole (a passed step's too), the diagnoses
// get the rows the passed and skipped steps do not need, and a trace of 150+ lines scrolls to its end
// with no line cut.
describe('the test screen at 80x24', { timeout: 120_000 }, () => {
  beforeAll(() => {
    const store = new ConfigStore(configDir);
    const values = profileValues(store.getProfile('sandbox')!);
    store.saveProfile(
      'bad',
      { ...values, fields: { ...values.fields, warehouse: 's3://no-such-bucket-30a' } },
      'env',
      [],
    );
  });

  it('shows every step detail whole, a passed step’s too', async () => {
    const run = await spawnCli(['test', '--profile', 'sandbox', '--json'], {
      ...process.env,
      FLOE_CONFIG_DIR: configDir,
      ...environment(),
    });
    const steps = (JSON.parse(run.stdout) as { steps: { state: string; detail?: string }[] }).steps;
    const details = steps.filter((s) => s.state === 'ok' && s.detail).map((s) => s.detail as string);
    expect(details.some((d) => d.length > 40)).toBe(true);

    const t = start(['test', '--profile', 'sandbox']);
    await t.waitFor(FINISHED);
    const text = (await pages(t, 'Diagnoses'))
      .map((s) => s.join('\n'))
      .join('\n')
      .replace(/\s+/g, '');
    for (const detail of details) expect(text).toMatch(detailPattern(detail));
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expect(t.wrappedLines()).toEqual([]);
  });

  it('gives the diagnoses the rows the passed and skipped steps do not need', async () => {
    const t = start(['test', '--profile', 'bad']);
    const screen = await t.waitFor(FINISHED);
    const [, first, last, total] = (position(screen, 'Diagnoses') ?? []).map(Number);
    expect(first).toBe(1);
    expect(total).toBeGreaterThan(last as number);
    expect((last as number) - (first as number) + 1).toBeGreaterThan(10);
    expect(screen.join('\n')).toMatch(/^Object store +– 4 skipped$/m);
    await t.press('q');
    expect(await t.exit()).toBe(1);
    expect(t.wrappedLines()).toEqual([]);
  });

  it('scrolls an HTTP trace of 150+ lines to its end, no line cut', async () => {
    const t = start(['test', '--profile', 'sandbox', '--write']);
    await t.waitFor(FINISHED);
    await t.press('v');
    await t.waitFor(/HTTP trace \(\d+\) · lines 1–/);
    const screens = await pages(t, 'HTTP trace');
    const [, , last, total] = (position(screens.at(-1) as string[], 'HTTP trace') ?? []).map(Number);
    expect(total).toBeGreaterThanOrEqual(150);
    expect(last).toBe(total);
    const panel = (screen: string[]) => {
      const top = screen.findIndex((line) => line.startsWith('HTTP trace ('));
      return screen.slice(top + 1, -1);
    };
    const lines = screens.flatMap(panel);
    expect(lines.filter((line) => line.endsWith('…'))).toEqual([]);
    // A request's 64-character payload hash is whole, not cut at the edge.
    expect(lines.join('\n')).toMatch(/x-amz-content-sha256:\s+(UNSIGNED-PAYLOAD|[0-9a-f]{64}|STREAMING)/);
    await t.press('G');
    await t.waitFor(new RegExp(`lines \\d+–${total} of ${total}`));
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expect(t.wrappedLines()).toEqual([]);
  });
});
