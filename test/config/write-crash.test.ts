// The write check killed (SIGKILL) at any point: `floe test --write` runs under fault-at.mjs, killed at
// its 1st, 11th, 21st… change of the config folder (each journal record is several such changes, so every
// stretch between two records is hit) until a run ends untouched. After each kill, `floe test --cleanup`
// (the next floe, run in process) must report nothing left: the table, the namespace and every object
// the dead run made are gone, the sandbox's bucket is as before, and the journal is empty.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { sandboxSecretEnv, setupArgs } from '../../src/sandbox/demo.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../support/cli.js';
import { cliEnv, runFloe } from '../support/faults.js';
import { floeInProcess } from '../support/in-process.js';

/** Calls between two kills: fewer than one journal record takes, so no stretch of the check is skipped. */
const STRIDE = 10;

let sandbox: Sandbox;
let s3: S3Client;
beforeAll(async () => {
  sandbox = await startSandbox({ catalog: 'polaris', jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: sandbox.s3.url,
    forcePathStyle: true,
    credentials: { accessKeyId: sandbox.s3.accessKey, secretAccessKey: sandbox.s3.secretKey },
  });
});
afterAll(async () => {
  s3?.destroy();
  await sandbox?.stop();
});

/** The bucket's keys, the storage check's probe objects (.floe-probe/, journaled too) included. */
async function keys(): Promise<string[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: sandbox.s3.bucket }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

describe('a write check killed at any point leaves nothing the next floe does not find', () => {
  it('every kill point: floe test --cleanup removes what the dead run made', async () => {
    const dir = tempConfigDir();
    const env = cliEnv(dir, sandboxSecretEnv(sandbox));
    const setup = await runFloe(['setup', ...setupArgs(sandbox), '--env-secrets'], env);
    expect(setup.code, setup.stderr).toBe(0);
    const baseline = await keys();
    const test = ['test', '--profile', 'sandbox', '--json', '--timeout', '10'];
    let killed = 0;
    for (let at = 1; at < 400; at += STRIDE) {
      const run = await runFloe([...test, '--write'], env, '', { mode: 'kill', at });
      if (run.hit === undefined) {
        // Untouched: the check ran to its end and cleaned up itself.
        expect(run.code, run.stderr).toBe(0);
        break;
      }
      expect(run.signal, run.stderr).toBe('SIGKILL');
      killed++;
      // The next floe, in this process: it finds the dead run's journal as a new process would.
      const cleanup = await floeInProcess([...test, '--cleanup'], { env });
      expect(cleanup.code, `${run.hit}\n${cleanup.stdout}${cleanup.stderr}`).toBe(0);
      const report = checkReportSchema.parse(JSON.parse(cleanup.stdout));
      expect(report.write?.leftovers, run.hit).toEqual([]);
      expect(await keys(), run.hit).toEqual(baseline);
      // Killed before its first record, the run left no journal at all.
      const path = join(dir, 'write-journal.json');
      const records = existsSync(path)
        ? (JSON.parse(readFileSync(path, 'utf8')) as { records: unknown[] }).records
        : [];
      expect(records, run.hit).toEqual([]);
    }
    // The check makes about ten records: the sweep killed it in the middle of most of them.
    expect(killed).toBeGreaterThan(4);
  }, 600_000);
});
