// Issue 30, item 6, on a real 80x24 terminal: BigLake's one authentication type is chosen and said, not
// asked; the storage list opens on Google Cloud Storage (one Enter keeps it); the GCS form talks about
// the service-account key.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { expectCleanOutput, floe, tempDir } from './support.js';

it('BigLake: Enter through the defaults reaches the GCS storage form', { timeout: 60_000 }, async () => {
  const configDir = tempDir('floe-e2e-defaults-');
  const keyFile = join(configDir, 'key.json');
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      client_email: 'olake@p.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n',
    }),
  );
  const t = floe(configDir, {
    args: ['setup', '--profile', 'g', '--gcp-service-account-file', keyFile, '--skip-test'],
    env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-bus' },
    color: false,
  });
  await t.waitFor('› ● Generic REST catalog');
  for (let i = 0; i < 8; i++) await t.press('down');
  await t.waitFor('› ● Google BigLake metastore');
  await t.press('enter');
  const form = (await t.waitFor('Catalog and authentication: Google')).join('\n');
  expect(form).toContain('offers one authentication type, used here: Google.');
  expect(form).toContain('step 3 of 7');
  await t.press('enter');
  await t.waitFor(/^› BigLake Catalog Path/m);
  await t.press('gs://lake');
  await t.press('enter');
  for (let i = 0; i < 3; i++) await t.press('enter');
  await t.waitFor('› ● Google Cloud Storage');
  await t.press('enter');
  const storage = (await t.waitFor('Object storage: Google Cloud Storage')).join('\n');
  expect(storage).toContain('(the service-account key)');
  expect(storage).not.toMatch(/Access Key|IAM role/);
  expectCleanOutput(t, []);
});
