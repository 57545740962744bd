// Diagnosis mapping for errors a local store cannot produce, built as the SDK builds them.
import { S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { diagnosisSchema } from '../../src/check/types.js';
import {
  diagnoseStorageError,
  type ProbeContext,
  STORAGE_DIAGNOSES,
  type StorageDiagnosisCode,
  type StorageStepId,
  storageDiagnosis,
} from '../../src/storage/diagnoses.js';
import { parseS3Path } from '../../src/storage/s3path.js';

const ctx = (over: Partial<ProbeContext> = {}): ProbeContext => ({
  step: 'storage.head',
  bucket: 'lake',
  region: 'us-east-1',
  storage: 'aws',
  pathStyle: false,
  timeoutMs: 5000,
  timedOut: false,
  credentials: 'profile',
  ...over,
});

function serviceError(
  name: string,
  status: number,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): S3ServiceException {
  const error = new S3ServiceException({
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status, requestId: 'REQ-1', attempts: 1, totalRetryDelay: 0 },
    message: typeof fields.message === 'string' ? fields.message : 'UnknownError',
  });
  Object.assign(error, fields);
  Object.defineProperty(error, '$response', {
    value: { statusCode: status, headers: { 'x-amz-request-id': 'REQ-1', ...headers }, body: undefined },
    enumerable: false,
  });
  return error;
}

function nodeError(code: string, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${code} ${String(fields.hostname ?? '')}`), {
    code,
    $metadata: { attempts: 1, totalRetryDelay: 0 },
    ...fields,
  });
}

describe('storage diagnoses', () => {
  it('301 PermanentRedirect names the region from x-amz-bucket-region', () => {
    const error = serviceError(
      'PermanentRedirect',
      301,
      { Code: 'PermanentRedirect', Endpoint: 'lake.s3.eu-central-1.amazonaws.com' },
      { 'x-amz-bucket-region': 'eu-central-1' },
    );
    const d = diagnoseStorageError(error, ctx({ step: 'storage.list' }));
    expect(d.code).toBe('S3_WRONG_REGION');
    expect(d.what).toContain('in eu-central-1, not us-east-1');
    expect(d.remedy).toBe('Set Region to eu-central-1');
    expect(d.evidence).toMatchObject({ status: 301, errorCode: 'PermanentRedirect', requestId: 'REQ-1' });
  });

  it('a bodiless 301 on HeadBucket still finds the region in the header', () => {
    const d = diagnoseStorageError(
      serviceError('Unknown', 301, {}, { 'x-amz-bucket-region': 'ap-south-1' }),
      ctx(),
    );
    expect([d.code, d.remedy]).toEqual(['S3_WRONG_REGION', 'Set Region to ap-south-1']);
  });

  it('AuthorizationHeaderMalformed carries the expected region', () => {
    const error = serviceError('AuthorizationHeaderMalformed', 400, {
      Code: 'AuthorizationHeaderMalformed',
      Region: 'us-west-2',
    });
    expect(diagnoseStorageError(error, ctx()).remedy).toBe('Set Region to us-west-2');
  });

  it('sts:AssumeRole denial names the principal and role and gives the assume-role command', () => {
    const principal = 'arn:aws:iam::111122223333:user/etl';
    const role = 'arn:aws:iam::111122223333:role/lake-writer';
    const error = serviceError('AccessDenied', 403, {
      Code: 'AccessDenied',
      message: `User: ${principal} is not authorized to perform: sts:AssumeRole on resource: ${role}`,
    });
    const d = diagnoseStorageError(error, ctx({ credentials: 'environment' }));
    expect(d.code).toBe('S3_ASSUME_ROLE_DENIED');
    expect(d.remedy).toMatch(/^Assign the correct role, validate its trust policy and permissions/);
    expect(d.remedy).toContain(`aws sts assume-role --role-arn ${role} --role-session-name test-session`);
    expect(d.evidence.extra).toEqual({ principal, role });
  });

  it('no credentials in the environment', () => {
    const error = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
      tryNextLink: false,
    });
    const d = diagnoseStorageError(error, ctx({ credentials: 'environment' }));
    expect(d.code).toBe('S3_NO_CREDENTIALS');
    expect(d.evidence).toEqual({ errorCode: 'CredentialsProviderError' });
  });

  it.each([
    ['storage.head', 'S3_ACCESS_DENIED_READ', 's3:ListBucket'],
    ['storage.list', 'S3_ACCESS_DENIED_READ', 's3:ListBucket'],
    ['storage.get', 'S3_ACCESS_DENIED_READ', 's3:GetObject'],
    ['storage.put', 'S3_ACCESS_DENIED_WRITE', 's3:PutObject'],
    ['storage.delete', 'S3_ACCESS_DENIED_WRITE', 's3:DeleteObject'],
  ] as const)('AccessDenied on %s is %s, naming %s', (step, code, action) => {
    const d = diagnoseStorageError(
      serviceError('AccessDenied', 403, { Code: 'AccessDenied' }),
      ctx({ step }),
    );
    expect(d.code).toBe(code);
    expect(`${d.cause} ${d.remedy}`).toContain(action);
    expect(d.what).toContain(code.endsWith('READ') ? '(read)' : '(write)');
  });

  it('a bodiless 403 on HeadBucket is a read denial', () => {
    expect(diagnoseStorageError(serviceError('Unknown', 403), ctx()).code).toBe('S3_ACCESS_DENIED_READ');
  });

  it.each([
    ['ENOTFOUND', { hostname: 'lake.localhost' }, false, 'S3_VIRTUAL_HOST_DNS'],
    ['ENOTFOUND', { hostname: 'minio' }, true, 'S3_DNS'],
    ['ENOTFOUND', { hostname: 'lake.minio' }, true, 'S3_DNS'],
    ['EAI_AGAIN', { hostname: 'minio' }, true, 'S3_DNS'],
    ['ECONNREFUSED', {}, true, 'S3_CONNECTION_REFUSED'],
    ['ECONNRESET', {}, true, 'S3_CONNECTION_FAILED'],
    ['ETIMEDOUT', {}, true, 'S3_TIMEOUT'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', {}, true, 'S3_TLS'],
    ['CERT_HAS_EXPIRED', {}, true, 'S3_TLS'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', {}, true, 'S3_TLS'],
  ] as const)('%s (%o, path style %s) is %s', (code, fields, pathStyle, expected) => {
    const d = diagnoseStorageError(
      nodeError(code, fields),
      ctx({ pathStyle, endpoint: 'http://localhost:9000' }),
    );
    expect(d.code).toBe(expected);
    expect(d.evidence.errorCode).toBe(code);
  });

  it('a certificate problem suggests trusting the CA, not http', () => {
    const d = diagnoseStorageError(
      nodeError('SELF_SIGNED_CERT_IN_CHAIN'),
      ctx({ endpoint: 'https://s3.internal' }),
    );
    expect(d.remedy).toContain('NODE_EXTRA_CA_CERTS');
  });

  it.each([
    ['RequestTimeTooSkewed', 403, 'S3_CLOCK_SKEW'],
    ['MissingContentLength', 411, 'S3_CHUNKED_UPLOAD_REJECTED'],
    ['InvalidBucketName', 400, 'S3_INVALID_BUCKET_NAME'],
    ['NoSuchBucket', 404, 'S3_NO_SUCH_BUCKET'],
    ['SignatureDoesNotMatch', 403, 'S3_SIGNATURE_MISMATCH'],
    ['InvalidAccessKeyId', 403, 'S3_INVALID_ACCESS_KEY'],
    ['InternalError', 500, 'S3_SERVER_ERROR'],
    ['NotImplemented', 501, 'S3_SERVER_ERROR'],
    ['InvalidArgument', 400, 'S3_REQUEST_FAILED'],
  ] as const)('%s (%i) is %s', (name, status, expected) => {
    expect(diagnoseStorageError(serviceError(name, status, { Code: name }), ctx()).code).toBe(expected);
  });

  it('an expired STS session token is named, not a generic refusal', () => {
    // AWS S3 error code list (docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html): ExpiredToken,
    // 400, "The provided token has expired."
    const error = serviceError('ExpiredToken', 400, {
      Code: 'ExpiredToken',
      message: 'The provided token has expired.',
    });
    const d = diagnoseStorageError(error, ctx({ step: 'storage.put', key: 'olake/.floe-probe/x' }));
    expect(d.code).toBe('S3_EXPIRED_TOKEN');
    expect(d.what).toContain('session token');
    expect(d.remedy).toMatch(/fresh credentials/);
    expect(d.evidence.errorCode).toBe('ExpiredToken');
  });

  it('a timeout noted by the caller wins over the abort error it caused', () => {
    const abort = Object.assign(new Error('Request aborted'), { name: 'AbortError' });
    expect(diagnoseStorageError(abort, ctx({ timedOut: true })).code).toBe('S3_TIMEOUT');
  });

  it('every code yields a one-line, schema-valid diagnosis', () => {
    const steps: StorageStepId[] = ['storage.head', 'storage.put'];
    for (const code of Object.keys(STORAGE_DIAGNOSES) as StorageDiagnosisCode[])
      for (const step of steps) {
        const d = storageDiagnosis(code, ctx({ step, key: 'olake/.floe-probe/x' }));
        expect(() => diagnosisSchema.parse(d)).not.toThrow();
        for (const line of [d.what, d.cause, d.remedy, STORAGE_DIAGNOSES[code]]) {
          expect(line.length).toBeGreaterThan(10);
          expect(line).not.toContain('\n');
          expect(line).not.toContain('undefined');
        }
      }
  });

  it('URLs in the evidence lose userinfo and signing parameters (safeUrl, as every other URL)', () => {
    const url = 'https://u:p@host/b/k?X-Amz-Signature=abc&X-Amz-Credential=AKIA%2Fx&partNumber=1';
    const d = diagnoseStorageError(serviceError('SlowDown', 503), ctx({ url }));
    expect(d.evidence.url).toBe(
      'https://host/b/k?X-Amz-Signature=%5Bredacted%5D&X-Amz-Credential=%5Bredacted%5D&partNumber=1',
    );
    const moved = diagnoseStorageError(
      serviceError('Moved', 302, {}, { location: url }),
      ctx({ endpoint: 'https://host' }),
    );
    expect(moved.code).toBe('S3_REDIRECT');
    expect(moved.evidence.extra?.location).not.toMatch(/u:p|abc|AKIA/);
  });
});

describe('parseS3Path', () => {
  it.each([
    ['s3://warehouse', { bucket: 'warehouse', prefix: '' }],
    ['s3://warehouse/', { bucket: 'warehouse', prefix: '' }],
    ['s3://warehouse/olake', { bucket: 'warehouse', prefix: 'olake/' }],
    ['s3a://warehouse//olake/raw/', { bucket: 'warehouse', prefix: 'olake/raw/' }],
    [' s3://ab ', { bucket: 'ab', prefix: '' }],
  ])('%s', (input, expected) => expect(parseS3Path(input)).toEqual(expected));

  it.each(['', 'warehouse', 'http://warehouse', 's3://', 's3:///x', 's3://a b'])('rejects %j', (input) =>
    expect(parseS3Path(input)).toBeNull(),
  );
});
