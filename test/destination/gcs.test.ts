import { describe, expect, it } from 'vitest';
import { applicableFields } from '../../src/destination/fields.js';
import { fromDestinationJson, toDestinationJson } from '../../src/destination/olake.js';
import { validate } from '../../src/destination/schema.js';
import { sample } from '../fixtures/samples.js';

/** A BigLake profile over Google Cloud Storage, as the wizard leaves it. */
function biglake() {
  const v = sample('google');
  v.preset = 'biglake';
  v.storage = 'gcs';
  v.fields.warehouse = 'gs://my-lake';
  delete v.fields.region;
  return v;
}

describe('Google Cloud Storage as a storage kind (OLake: ResolvingFileIO → GCSFileIO with the key)', () => {
  it('asks no S3 endpoint, keys or region, and validates', () => {
    const v = biglake();
    const ids = applicableFields(v).map((f) => f.id);
    for (const id of ['s3Endpoint', 'accessKey', 'secretKey', 'region'] as const)
      expect(ids).not.toContain(id);
    expect(validate(v).ok).toBe(true);
  });

  it('a gs:// location with S3 storage names the field, the rule and a valid example', () => {
    const v = biglake();
    v.storage = 'aws';
    const r = validate(v);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues[0]?.message).toBe(
        'Storage: must be gcs for the gs:// location gs://my-lake (OLake reads it with GCSFileIO) (e.g. gcs)',
      );
  });

  it('the Data Location is gs:// for GCS', () => {
    const v = biglake();
    v.fields.dataLocation = 's3://bucket/x';
    const r = validate(v);
    expect(r.ok).toBe(false);
    v.fields.dataLocation = 'gs://my-lake/olake';
    expect(validate(v).ok).toBe(true);
  });

  it('another catalog over GCS writes the key OLake hands to GCSFileIO, and no AWS keys', () => {
    const v = sample('oauth2');
    v.storage = 'gcs';
    v.fields.warehouse = 'gs://my-lake/olake';
    v.fields.gcpServiceAccountJson = sample('google').fields.gcpServiceAccountJson;
    const writer = toDestinationJson(v).writer;
    expect(writer.gcp_service_account_json).toContain('service_account');
    expect(writer.aws_access_key).toBeUndefined();
    expect(writer.aws_region).toBeUndefined();
    const back = fromDestinationJson(toDestinationJson(v));
    expect(back.values.storage).toBe('gcs');
  });

  it('gcp_project_id is written only for OLake 0.9.1 or later (a 0.9.0 driver drops it)', () => {
    const v = biglake();
    v.targetVersion = '0.9.0';
    expect(toDestinationJson(v).writer.gcp_project_id).toBeUndefined();
    expect(applicableFields(v).map((f) => f.id)).not.toContain('gcpProjectId');
    v.targetVersion = '0.9.1';
    expect(toDestinationJson(v).writer.gcp_project_id).toBe('proj-123456');
  });

  it('GCS needs OLake 0.9.0 or later, with a valid example', () => {
    const v = sample('oauth2');
    v.storage = 'gcs';
    v.fields.warehouse = 'gs://my-lake';
    v.targetVersion = '0.8.0';
    const r = validate(v);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues[0]?.message).toMatch(
        /^Target OLake Version: must be 0\.9\.0 or later for Google Cloud Storage.*\(e\.g\. 0\.9\.4\)$/,
      );
  });
});
