// The built `floe sandbox` (npm run build) as a user runs it: the banner (the Polaris flavour by
// default), busy default ports announced, SIGINT stopping everything and removing the data (exit 130),
// --open refused without a terminal, and a --catalog that names no flavour refused. The sandbox that
// keeps running (until SIGINT, exit 130) is the built CLI's process; the refusals run in process
// (management/support.ts floe).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../src/sandbox/index.js';
import { floe, tempConfigDir } from '../management/support.js';

const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;

/** Listens on a port, or undefined when another process holds it. */
async function listen(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Holds a port for this file, waiting while another process holds it: a sandbox of a test file running
 * beside this one may be on its default ports, and would leave them free again mid-test.
 */
async function occupy(port: number): Promise<Server> {
  for (let waited = 0; waited < 50_000; waited += 200) {
    const server = await listen(port);
    if (server) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`port ${port} stayed busy for 50 s`);
}

const blockers: Server[] = [];

/** A free port with the 10 after it free too, below the ephemeral range (see freePortBase). */
async function freeBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const held = await Promise.all([0, 1, 10].map((i) => listen(base + i)));
    await Promise.all(held.map((server) => server && new Promise<void>((r) => server.close(() => r()))));
    if (held.every(Boolean)) return base;
  }
}

beforeAll(async () => {
  blockers.push(await occupy(8181), await occupy(8000));
});

afterAll(async () => {
  for (const server of blockers) await new Promise<void>((r) => server.close(() => r()));
});

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  waitFor(text: string): Promise<void>;
}

function startSandboxCli(args: string[]): Running {
  const env: NodeJS.ProcessEnv = { ...process.env, FLOE_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const w of [...waiters])
      if (stdout.includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor: (text) =>
      new Promise((resolve) => {
        if (stdout.includes(text)) resolve();
        else waiters.push({ text, resolve });
      }),
  };
}

describe('floe sandbox', () => {
  it('prints the endpoints, moves off busy ports, and stops cleanly on SIGINT with exit 130', async () => {
    const run = startSandboxCli(['--jobs', '7']);
    try {
      await run.waitFor('Ctrl-C stops the sandbox');
      const out = run.stdout();
      const catalog = /^! 8181 is busy; the catalog is on (\d+)$/m.exec(out);
      const olake = /^! 8000 is busy; the OLake UI is on (\d+)$/m.exec(out);
      expect(catalog, out).not.toBeNull();
      expect(olake, out).not.toBeNull();
      expect(out).toContain(`REST catalog   http://127.0.0.1:${catalog?.[1]}/api/catalog`);
      expect(out).toContain('behaves like Apache Polaris');
      expect(out).toContain('warehouse    olake_catalog (data location s3://warehouse)');
      expect(out).toContain(`token URI http://127.0.0.1:${catalog?.[1]}/api/catalog/v1/oauth/tokens`);
      expect(out).toContain('scope PRINCIPAL_ROLE:ALL');
      expect(out).toContain(`OLake UI       http://127.0.0.1:${olake?.[1]}`);
      expect(out).toContain(`credential ${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`);
      expect(out).toContain('s3rver does not verify signatures');
      expect(out).toContain('7 jobs');
      // No floe on this PATH: the lines to paste say how it runs from the clone.
      expect(out).toContain(`  npx floe login --url http://127.0.0.1:${olake?.[1]}`);
      expect(out).toMatch(
        /^ {4}npx floe setup --profile sandbox --yes --preset polaris --auth-type oauth2 /m,
      );
      expect(out).toContain('  npx floe test --profile sandbox\n');
      const dir = /^Data +removed when the sandbox stops, in\n +(\S+)$/m.exec(out)?.[1] as string;
      expect(existsSync(dir)).toBe(true);

      const res = await fetch(`http://127.0.0.1:${olake?.[1]}/health`, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(200);

      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
      expect(existsSync(dir)).toBe(false);
      expect(run.stderr()).toContain('Sandbox stopped; its temporary data was removed.');
      await expect(
        fetch(`http://127.0.0.1:${olake?.[1]}/health`, { signal: AbortSignal.timeout(5000) }),
      ).rejects.toThrow();
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('--open without a terminal exits 2 saying it needs one, starting nothing', async () => {
    const run = await floe(['sandbox', '--open'], { configDir: tempConfigDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--open needs a terminal');
    expect(run.stdout).toBe('');
  });

  it('--catalog must name a flavour', async () => {
    const run = await floe(['sandbox', '--catalog', 'hive'], { configDir: tempConfigDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--catalog must be one of rest, polaris, lakekeeper, nessie, unity, glue, s3tables, biglake, not "hive"',
    );
    expect(run.stdout).toBe('');
  });

  it('--deny: the banner says which privileges the catalog refuses; an unknown privilege is a usage error', async () => {
    const run = startSandboxCli(['--deny', 'create-table,write-data', '--jobs', '0']);
    try {
      await run.waitFor('Ctrl-C stops the sandbox');
      expect(run.stdout()).toContain(
        '  denied       create-table, write-data (refused like the real server)',
      );
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
    } finally {
      run.child.kill('SIGKILL');
    }
    const wrong = await floe(['sandbox', '--deny', 'create-table,delete-everything'], {
      configDir: tempConfigDir(),
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      '--deny must be a comma-separated list of create-namespace, create-table, write-data, drop-table, drop-namespace, read, update-namespace, not "delete-everything" (e.g. --deny create-table,write-data)',
    );
    expect(wrong.stdout).toBe('');
  });

  // Issue 28, item 3: stable addresses.
  it('--ports BASE and --port-*: the services on exactly those ports; the S3 port is stable by default', async () => {
    const base = await freeBase();
    const run = startSandboxCli(['--ports', String(base), '--port-s3', String(base + 10), '--jobs', '0']);
    try {
      await run.waitFor('Ctrl-C stops the sandbox');
      const out = run.stdout();
      expect(out).toContain(`REST catalog   http://127.0.0.1:${base}/api/catalog`);
      expect(out).toContain(`OLake UI       http://127.0.0.1:${base + 1}`);
      expect(out).toContain(`Object store   http://127.0.0.1:${base + 10} (s3rver, path style)`);
      expect(out).not.toContain('is busy');
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
    } finally {
      run.child.kill('SIGKILL');
    }
    const defaults = startSandboxCli(['--jobs', '0']);
    try {
      await defaults.waitFor('Ctrl-C stops the sandbox');
      // s3rver's own default port, else (another sandbox holds it) the banner says where it went.
      expect(defaults.stdout()).toMatch(
        /Object store {3}http:\/\/127\.0\.0\.1:4568 |^! 4568 is busy; the object store is on \d+$/m,
      );
      defaults.child.kill('SIGINT');
      expect(await defaults.exited).toBe(130);
    } finally {
      defaults.child.kill('SIGKILL');
    }
  });

  it('a port flag names a busy port: exit 1 naming the flag, nothing moved silently', async () => {
    const held = await occupy(0);
    const port = (held.address() as { port: number }).port;
    try {
      const run = await floe(['sandbox', '--port-olake', String(port)], { configDir: tempConfigDir() });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `floe: --port-olake ${port}: port ${port} is busy (another program listens there)`,
      );
      expect(run.stderr).toContain(`Pick a free one, e.g. --port-olake ${port + 100}`);
      expect(run.stdout).toBe('');
    } finally {
      await new Promise<void>((r) => held.close(() => r()));
    }
  });

  it.each([
    [['--ports', '65534'], '--ports must be a port number from 1 to 65533, not "65534" (e.g. --ports 8181)'],
    [
      ['--port-s3', 'abc'],
      '--port-s3 must be a port number from 1 to 65535, not "abc" (e.g. --port-s3 4568)',
    ],
    [
      ['--port-catalog', '0'],
      '--port-catalog must be a port number from 1 to 65535, not "0" (e.g. --port-catalog 8181)',
    ],
    [
      ['--port-olake', '8000', '--port-s3', '8000'],
      '--port-olake and --port-s3 must differ, not both 8000 (e.g. --ports 8181 for 8181, 8182 and 8183)',
    ],
  ])('bad ports %j: a usage error naming the flag, the rule and an example', async (args, message) => {
    const run = await floe(['sandbox', ...args], { configDir: tempConfigDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`floe: ${message}`);
    expect(run.stdout).toBe('');
  });

  it('--jobs must be a number', async () => {
    const run = await floe(['sandbox', '--jobs', 'many'], { configDir: tempConfigDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--jobs must be a whole number');
  });
});
