// `floe test` on a real pseudo-terminal (built CLI, 80x24): the screen as @xterm/headless sees it,
// the keys, and a clean exit. The catalog and bucket are a loopback server that accepts
// connections and never answers, so requests stay in flight until they are aborted.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTerminal } from '../../../scripts/lib/terminal.mjs';
import { ConfigStore } from '../../../src/config/store.js';
import { tempConfigDir } from '../../support/cli.js';

const TOKEN = 'SENTINEL-pty-token-61af';

let server: Server;
const sockets = new Set<Socket>();
let configDir: string;

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  configDir = tempConfigDir();
  new ConfigStore(configDir).saveProfile(
    'silent',
    {
      preset: 'rest',
      authType: 'token',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: `http://127.0.0.1:${address.port}`,
        warehouse: 's3://warehouse',
        region: 'us-east-1',
        s3Endpoint: `http://127.0.0.1:${address.port}`,
      },
    },
    'env',
    [],
  );
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function startFloe(args: string[]) {
  const terminal = startTerminal({ args, env: { FLOE_CONFIG_DIR: configDir, FLOE_TOKEN: TOKEN } });
  onTestFailed(() => {
    console.error(`screen at failure:\n${terminal.screen().join('\n')}`);
  });
  return terminal;
}

describe('floe test on a terminal', () => {
  it('shows running steps, cancels with Esc, leaves with q (exit 1)', async () => {
    const floe = startFloe(['test', '--timeout', '60']);
    await floe.waitFor('Connection test · silent');
    // A finished step means the screen has been up for a while, its keyboard handler included.
    // (A frame may be parsed half-drawn: the footer is waited for too.)
    await floe.waitFor('✓ Connect to the catalog');
    const shown = (await floe.waitFor(/Testing… \d+\/\d+ steps done/)).join('\n');
    expect(shown).toContain('Esc cancel');
    floe.write('\u001B');
    await floe.waitFor('Test cancelled');
    expect(floe.screen().join('\n')).toMatch(/⊘ /);
    await floe.waitFor('Cancelled: the steps that did not finish checked nothing');
    expect(floe.screen().join('\n')).not.toContain('No problems found');
    floe.write('q');
    expect(await floe.exit()).toBe(1);
    expect(floe.raw()).not.toContain(TOKEN);
  });

  it('Ctrl-C aborts the requests in flight, restores the terminal and exits 130', async () => {
    const floe = startFloe(['test', '--timeout', '60']);
    await floe.waitFor('✓ Connect to the catalog');
    floe.write('v');
    await floe.waitFor('HTTP trace (');
    for (const line of floe.screen()) expect(line.length).toBeLessThanOrEqual(80);
    floe.write('\x03');
    expect(await floe.exit()).toBe(130);
    expect(floe.raw()).toContain('\u001B[?25h');
    expect(floe.raw()).not.toContain(TOKEN);
  });
});
