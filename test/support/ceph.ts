// A throwaway single-node Ceph cluster with an S3 gateway, for tests: one monitor (msgr v2, auth
// none), one memstore OSD (data in RAM), radosgw with the beast frontend, all on free loopback ports
// and under one temporary directory. Daemons run detached; stop() ends exactly those (rgw, osd, mon).
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The Debian packages these tests rely on. */
export const CEPH_PACKAGES = ['ceph-mon', 'ceph-osd', 'radosgw', 'ceph-common'] as const;
const BINARIES = ['monmaptool', 'ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph'];

export interface CephUser {
  uid: string;
  accessKey: string;
  secretKey: string;
}

/** What tests get through FLOE_TEST_CEPH. */
export interface CephInfo {
  endpoint: string;
  port: number;
  region: string;
  /** `owner` creates buckets; `reader` starts with no access to them. */
  users: { owner: CephUser; reader: CephUser };
}

export interface CephCluster extends CephInfo {
  stop(): Promise<void>;
}

const run = promisify(execFile);

export function missingCephBinaries(): string[] {
  return BINARIES.filter((bin) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0);
}

/** Reads FLOE_TEST_CEPH: `ready` with the cluster's details, or the reason it is missing. */
export function cephFromEnv(value = process.env.FLOE_TEST_CEPH): { status: string; info?: CephInfo } {
  if (!value?.startsWith('{')) return { status: value ?? 'not started' };
  return { status: 'ready', info: JSON.parse(value) as CephInfo };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
}

function key(length: number, alphabet: string): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

function newUser(uid: string): CephUser {
  const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return { uid, accessKey: key(20, upper), secretKey: key(40, `${upper}abcdefghijklmnopqrstuvwxyz`) };
}

function config(dir: string, fsid: string, monPort: number, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
auth cluster required = none
auth service required = none
auth client required = none
ms bind msgr1 = false
ms bind msgr2 = true
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
pid file = ${dir}/run/$name.pid
mon data = ${dir}/mon/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
osd objectstore = memstore
memstore device bytes = 268435456
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd crush chooseleaf type = 0
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
paxos propose interval = 0.1
paxos min wait = 0.01

[client.rgw.floe]
auth client required = none
ms mon client mode = crc
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`;
}

export async function startCeph(): Promise<CephCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'floe-ceph-'));
  for (const sub of ['run', 'log', 'mon', 'osd', 'rgw']) mkdirSync(join(dir, sub));
  const monPort = await freePort();
  let rgwPort = await freePort();
  while (rgwPort === monPort) rgwPort = await freePort();
  const fsid = randomUUID();
  const conf = join(dir, 'ceph.conf');
  writeFileSync(conf, config(dir, fsid, monPort, rgwPort));
  const env = { ...process.env, CEPH_CONF: conf };
  const ceph = (cmd: string, args: string[]) => run(cmd, args, { env, timeout: 30_000, cwd: dir });
  const daemons: { name: string; child: ChildProcess }[] = [];

  const start = (name: string, cmd: string, args: string[]) => {
    const log = openSync(join(dir, 'log', `${name}.out`), 'a');
    const child = spawn(cmd, args, { detached: true, stdio: ['ignore', log, log], env, cwd: dir });
    closeSync(log);
    child.unref();
    daemons.push({ name, child });
    writeFileSync(join(dir, 'pids'), daemons.map((d) => d.child.pid).join(' '));
  };

  // If the test runner dies without calling stop() (killed, crashed), a watchdog ends exactly the
  // daemons listed in `pids` and removes the directory.
  const watchdog = spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -9 $(cat "$2/pids") 2>/dev/null; rm -rf "$2"',
      'floe-ceph-watchdog',
      String(process.pid),
      dir,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();

  const stop = async () => {
    watchdog.kill('SIGKILL');
    for (const name of ['rgw', 'osd', 'mon']) {
      const daemon = daemons.find((d) => d.name === name);
      if (!daemon || daemon.child.exitCode !== null || daemon.child.signalCode !== null) continue;
      const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
      daemon.child.kill('SIGTERM');
      const killer = setTimeout(() => daemon.child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const alive = (name: string) => {
    const child = daemons.find((d) => d.name === name)?.child;
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      const log = readFileSync(join(dir, 'log', `${name}.out`), 'utf8')
        .trim()
        .split('\n')
        .slice(-5)
        .join(' | ');
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}): ${log}`);
    }
  };

  try {
    await ceph('monmaptool', [
      '--create',
      '--fsid',
      fsid,
      '--addv',
      'a',
      `[v2:127.0.0.1:${monPort}]`,
      'monmap',
    ]);
    await ceph('ceph-mon', ['--id', 'a', '--mkfs', '--monmap', 'monmap', '--keyring', '/dev/null']);
    start('mon', 'ceph-mon', ['--id', 'a', '-f']);
    await waitFor('the Ceph monitor answering', async () => {
      alive('mon');
      await ceph('ceph', ['--connect-timeout', '3', 'mon', 'stat']);
      return true;
    });

    const osdUuid = randomUUID();
    const osdId = (await ceph('ceph', ['osd', 'new', osdUuid])).stdout.trim();
    mkdirSync(join(dir, 'osd', `ceph-${osdId}`));
    await ceph('ceph-osd', ['--id', osdId, '--mkfs', '--osd-uuid', osdUuid]);
    start('osd', 'ceph-osd', ['--id', osdId, '-f']);
    await waitFor('the OSD coming up', async () => {
      alive('osd');
      const { stdout } = await ceph('ceph', ['osd', 'stat', '-f', 'json']);
      return (JSON.parse(stdout) as { num_up_osds: number }).num_up_osds >= 1;
    });

    start('rgw', 'radosgw', ['-n', 'client.rgw.floe', '-f']);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await waitFor('radosgw answering GET /', async () => {
      alive('rgw');
      return (await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(1000) })).status === 200;
    });

    const users = { owner: newUser('floe-owner'), reader: newUser('floe-reader') };
    await Promise.all(
      Object.values(users).map((user) =>
        ceph('radosgw-admin', [
          'user',
          'create',
          `--uid=${user.uid}`,
          `--display-name=${user.uid}`,
          `--access-key=${user.accessKey}`,
          `--secret-key=${user.secretKey}`,
        ]),
      ),
    );
    return { endpoint, port: rgwPort, region: 'us-east-1', users, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates `bucket` as the cluster's owner user; a bucket that already exists is fine. */
export async function createCephBucket(info: CephInfo, bucket: string): Promise<void> {
  const { CreateBucketCommand, S3Client } = await import('@aws-sdk/client-s3');
  const owner = new S3Client({
    region: info.region,
    endpoint: info.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: info.users.owner.accessKey, secretAccessKey: info.users.owner.secretKey },
  });
  try {
    await owner.send(new CreateBucketCommand({ Bucket: bucket })).catch((error: { name?: string }) => {
      if (error.name !== 'BucketAlreadyOwnedByYou') throw error;
    });
  } finally {
    owner.destroy();
  }
}
