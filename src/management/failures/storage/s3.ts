// The S3 answers in a writer's log: AWS SDK v2 / v1 exceptions and S3's (or MinIO's) own error codes.
// Texts and their sources: ../storage.ts.
import { capture, type Facts, type FailureRule, facts, hostOf, or } from '../rule.js';

function s3Facts(text: string): Facts {
  return facts({
    bucket:
      capture(text, /s3a?:\/\/([a-z0-9][a-z0-9.-]{1,62})/) ??
      capture(text, /\bbucket(?:Name)?[=:] ?['"]?([a-z0-9][a-z0-9.-]{1,62})/i),
    status: capture(text, /Status Code: (\d{3})/),
    requestId: capture(text, /Request ID: ([\w+/=-]{1,128})/),
    action: capture(text, /not authorized to perform: ([\w-]{1,40}:\w{1,80})/),
    resource: capture(text, /on resource: "?(arn:[^\s"]{1,300})/),
    principal: capture(text, /User: (arn:[^\s]{1,300}) is not authorized/),
    region: capture(text, /expecting '([\w-]{1,40})'/) ?? capture(text, /x-amz-bucket-region: ([\w-]{1,40})/),
    wrongRegion: capture(text, /the region '([\w-]{1,40})' is wrong/),
    host: hostOf(text),
  });
}

const BUCKET = (f: Facts) => (f.bucket ? `bucket "${f.bucket}"` : 'the warehouse bucket');

export const RUN_S3_EXPIRED_TOKEN: FailureRule = {
  code: 'RUN_S3_EXPIRED_TOKEN',
  component: 'storage',
  summary:
    'The object store refused the writer’s temporary credentials: their STS session token expired (ExpiredToken; S3_EXPIRED_TOKEN in floe test).',
  example: 'The provided token has expired. (Service: S3, Status Code: 400, Request ID: …)',
  match: /The provided token has expired|ExpiredToken|security token included in the request is expired/,
  facts: s3Facts,
  what: (f) => `The object store refused the writer’s session token for ${BUCKET(f)}: it expired`,
  cause: () =>
    'The destination (or the OLake worker’s environment) uses temporary STS credentials (a session token) that expired before or during the run; the writer cannot renew pasted credentials.',
  remedy: () =>
    'Use long-lived keys, or a role the OLake worker assumes and renews itself (instance profile, IRSA), instead of a session token; or paste fresh credentials into the destination in the OLake UI before each run.',
};

export const S3_NO_CREDENTIALS: FailureRule = {
  code: 'S3_NO_CREDENTIALS',
  component: 'storage',
  summary:
    'The writer found no AWS credentials at all (SdkClientException: Unable to load credentials from any of the providers in the chain).',
  example:
    'software.amazon.awssdk.core.exception.SdkClientException: Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain(…): […]',
  match: /Unable to load credentials from any of the providers in the chain/,
  what: () => 'The writer found no AWS credentials for the object store',
  cause: () =>
    'The destination has no access key, and the OLake worker has no identity the AWS SDK finds instead (no instance profile, IRSA web identity token, container credentials or AWS_PROFILE).',
  remedy: () =>
    'Enter the destination’s S3 access key and secret key in the OLake UI, or run the OLake worker with an AWS identity (an EC2 instance profile, IRSA on EKS, or a mounted profile with AWS_PROFILE), then run the sync again.',
};

export const S3_INVALID_SESSION_TOKEN: FailureRule = {
  code: 'S3_INVALID_SESSION_TOKEN',
  component: 'storage',
  summary: 'The object store rejected the session token sent with the keys (InvalidToken).',
  example: 'The provided token is malformed or otherwise invalid. (Service: S3, Status Code: 400, …)',
  match: /provided token is malformed or otherwise invalid|\bInvalidToken\b/,
  facts: s3Facts,
  what: (f) => `The object store rejected the writer’s session token (${BUCKET(f)})`,
  cause: () =>
    'A session token was sent that does not belong to the access key: a leftover token with long-lived keys, or a token cut or from another STS session.',
  remedy: () =>
    'Clear the destination’s session token when it uses long-lived keys, or paste the access key, secret key and session token of one and the same STS session in the OLake UI.',
};

export const S3_CONNECTION_POOL: FailureRule = {
  code: 'S3_CONNECTION_POOL',
  component: 'storage',
  summary:
    'The writer’s S3 client ran out of pooled connections (Timeout waiting for connection from pool): too many uploads at once.',
  example:
    'software.amazon.awssdk.core.exception.SdkClientException: Unable to execute HTTP request: Timeout waiting for connection from pool',
  match: /Timeout waiting for connection from pool/,
  what: () => 'The writer’s S3 client waited too long for a free connection',
  cause: () =>
    'Every connection of the S3 client’s pool was busy (many streams writing at once, or slow uploads holding them) and a request gave up waiting.',
  remedy: () =>
    'Lower the job’s max threads in its advanced settings so fewer files upload at once, and check the link to the store is not saturated, then run the sync again.',
};

export const S3_STORAGE_FULL: FailureRule = {
  code: 'S3_STORAGE_FULL',
  component: 'storage',
  summary: 'The object store is out of space (MinIO XMinioStorageFull, 507).',
  example:
    'Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed. (Service: S3, Status Code: 507, …)',
  match: /minimum free drive threshold|XMinioStorageFull|Service: S3, Status Code: 507/,
  facts: s3Facts,
  what: () => 'The object store is out of space and refused the writer’s files',
  cause: () => 'MinIO keeps a minimum of free space on its drives and refuses writes below it.',
  remedy: () =>
    'Free disk space on the store’s drives or add capacity (mc admin info <alias> shows each drive’s use); expire old Iceberg snapshots so their files are deleted; then run the sync again.',
};

export const S3_REQUEST_TIMEOUT: FailureRule = {
  code: 'S3_REQUEST_TIMEOUT',
  component: 'storage',
  summary:
    'The object store closed an upload the writer stopped feeding (RequestTimeout: “not read from or written to within the timeout period”).',
  example:
    'Your socket connection to the server was not read from or written to within the timeout period. Idle connections will be closed. (Service: S3, Status Code: 400, …)',
  match: /not read from or written to within the timeout period|\bRequestTimeout\b/,
  facts: s3Facts,
  what: (f) => `The object store timed out an upload to ${BUCKET(f)} that stalled`,
  cause: () =>
    'The writer sent no bytes for about 20 seconds mid-request: a saturated or lossy link to the store, a proxy buffering the upload, or the writer JVM paused (garbage collection under memory pressure).',
  remedy: () =>
    'Check the bandwidth and any proxy between the OLake worker and the store, lower the job’s max threads so fewer uploads share the link, give the worker more memory if it is near its limit, then run the sync again.',
};

export const S3_INTERNAL_ERROR: FailureRule = {
  code: 'S3_INTERNAL_ERROR',
  component: 'storage',
  summary: 'The object store failed inside (InternalError, 500).',
  example: 'We encountered an internal error. Please try again. (Service: S3, Status Code: 500, …)',
  match: /We encountered an internal error|Service: S3, Status Code: 500\b/,
  facts: s3Facts,
  what: (f) => `The object store failed with an internal error on ${BUCKET(f)} (500)`,
  cause: () =>
    'An error inside the store, not in the request: on AWS a transient fault; on MinIO or Ceph, often a drive or node problem.',
  remedy: () =>
    'Run the sync again (the SDK already retried); if it persists, check the store’s own logs and health (on AWS, the service health dashboard for the region).',
};

export const S3_SIGNATURE_MISMATCH: FailureRule = {
  code: 'S3_SIGNATURE_MISMATCH',
  component: 'storage',
  summary:
    'The object store refused the writer’s signature: the secret key does not belong to the access key.',
  example:
    'The request signature we calculated does not match the signature you provided. Check your key and signing method. (Service: S3, Status Code: 403, …)',
  match: /request signature we calculated does not match|SignatureDoesNotMatch/,
  facts: s3Facts,
  what: (f) => `The object store refused the writer’s request signature on ${BUCKET(f)}`,
  cause: () =>
    'The destination’s S3 secret key does not belong to its access key (or a proxy rewrote the request).',
  remedy: () =>
    'Re-enter the destination’s S3 secret key for this access key (no spaces or line breaks) in the OLake UI; "floe jobs test ID" checks it.',
};

export const S3_INVALID_ACCESS_KEY: FailureRule = {
  code: 'S3_INVALID_ACCESS_KEY',
  component: 'storage',
  summary: 'The object store does not know the writer’s access key.',
  example:
    'The AWS Access Key Id you provided does not exist in our records. (Service: S3, Status Code: 403, …)',
  match: /Access Key Id you provided does not exist|InvalidAccessKeyId/,
  facts: s3Facts,
  what: (f) => `The object store does not know the writer’s access key (${BUCKET(f)})`,
  cause: () => 'The access key is mistyped, was deleted, or belongs to another account or store.',
  remedy: () =>
    'Enter an access key that exists on this store, with its secret key, in the destination in the OLake UI; "floe jobs test ID" checks it.',
};

export const S3_WRONG_REGION: FailureRule = {
  code: 'S3_WRONG_REGION',
  component: 'storage',
  summary:
    'The bucket is in another region than the destination’s (301 PermanentRedirect, AuthorizationHeaderMalformed).',
  example:
    'The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint. (Service: S3, Status Code: 301, …)',
  match:
    /must be addressed using the specified endpoint|PermanentRedirect|the region '[\w-]{1,40}' is wrong|AuthorizationHeaderMalformed|Service: S3, Status Code: 301/,
  facts: s3Facts,
  what: (f) =>
    `${BUCKET(f)[0]?.toUpperCase()}${BUCKET(f).slice(1)} is in ${f.region ? `region ${f.region}` : 'another region'}${f.wrongRegion ? `, not ${f.wrongRegion}` : ''}`,
  cause: () =>
    'S3 answers 301 (or 400 AuthorizationHeaderMalformed) when a bucket is addressed in the wrong region.',
  remedy: (f) =>
    `Set the destination’s AWS region to ${or(f.region, 'the bucket’s region (aws s3api get-bucket-location --bucket <bucket>)')} in the OLake UI.`,
};

export const S3_INVALID_BUCKET_NAME: FailureRule = {
  code: 'S3_INVALID_BUCKET_NAME',
  component: 'storage',
  summary: 'The bucket name in the warehouse path is not a valid S3 bucket name (InvalidBucketName).',
  example: 'The specified bucket is not valid. (Service: S3, Status Code: 400, …)',
  match: /The specified bucket is not valid|InvalidBucketName/,
  facts: s3Facts,
  what: (f) => `The object store refused ${BUCKET(f)} as a bucket name`,
  cause: () =>
    'S3 bucket names are 3-63 characters of lower-case letters, digits, dots and hyphens; the warehouse path (or the catalog’s location) puts something else where the bucket goes (capitals, underscores, a missing s3:// prefix).',
  remedy: () =>
    'Fix the destination’s warehouse path to s3://<bucket>/<prefix> with a valid bucket name (e.g. s3://my-lake/olake) in the OLake UI, then run the sync again.',
};

export const S3_NO_SUCH_BUCKET: FailureRule = {
  code: 'S3_NO_SUCH_BUCKET',
  component: 'storage',
  summary: 'The bucket the table data goes to does not exist (NoSuchBucket).',
  example: 'The specified bucket does not exist (Service: S3, Status Code: 404, …)',
  match: /The specified bucket does not exist|NoSuchBucket/,
  facts: s3Facts,
  what: (f) => `${BUCKET(f)[0]?.toUpperCase()}${BUCKET(f).slice(1)} does not exist`,
  cause: () =>
    'The warehouse path or the catalog’s table location names a bucket that is missing, or in another account or store.',
  remedy: (f) =>
    `Create ${f.bucket ? `the bucket (aws s3 mb s3://${f.bucket})` : 'the bucket'}, or fix the warehouse (S3 path) of the destination or the catalog’s base location.`,
};

export const S3_SLOW_DOWN: FailureRule = {
  code: 'S3_SLOW_DOWN',
  component: 'storage',
  summary: 'The object store throttled the writer (503 SlowDown).',
  example: 'Please reduce your request rate. (Service: S3, Status Code: 503, …)',
  match: /Please reduce your request rate|SlowDown|Service: S3, Status Code: 503/,
  facts: s3Facts,
  what: (f) => `The object store throttled the writer on ${BUCKET(f)} (503 SlowDown)`,
  cause: () => 'Too many requests per second to one prefix of the bucket, beyond what the store accepts.',
  remedy: () =>
    'Lower the job’s max threads (its advanced settings) so fewer writers run at once, then run the sync again; on AWS the limit rises gradually with steady load.',
};

export const S3_CLOCK_SKEW: FailureRule = {
  code: 'S3_CLOCK_SKEW',
  component: 'storage',
  summary: 'The OLake worker’s clock is too far from the store’s (RequestTimeTooSkewed).',
  example:
    'The difference between the request time and the current time is too large. (Service: S3, Status Code: 403, …)',
  match: /RequestTimeTooSkewed|difference between the request time and the current time is too large/,
  facts: s3Facts,
  what: () => 'The object store refused the writer’s requests as signed at the wrong time',
  cause: () => 'The clock of the machine running the OLake worker is more than 15 minutes off.',
  remedy: () =>
    'Synchronize the worker machine’s clock (NTP: timedatectl set-ntp true), then run the sync again.',
};

export const S3_KMS_DENIED: FailureRule = {
  code: 'S3_KMS_DENIED',
  component: 'storage',
  summary: 'The bucket’s KMS key refused the writer (not authorized to perform: kms:…).',
  example:
    'User: arn:aws:sts::…:assumed-role/… is not authorized to perform: kms:Decrypt on resource: arn:aws:kms:… (Service: S3, Status Code: 403, …)',
  match: /not authorized to perform: kms:|KMS\.AccessDenied|KMS key/,
  facts: s3Facts,
  what: (f) => `The bucket’s KMS key refused ${or(f.action, 'the writer’s key use')}`,
  cause: (f) =>
    `The bucket encrypts with a KMS key whose key policy (or the identity’s policy) does not allow ${or(f.principal, 'the writer’s identity')} ${or(f.action, 'kms:GenerateDataKey and kms:Decrypt')}.`,
  remedy: (f) =>
    `Allow ${or(f.action, 'kms:GenerateDataKey and kms:Decrypt')} on ${or(f.resource, 'the bucket’s KMS key')} for ${or(f.principal, 'the writer’s identity')}, in the key policy and the identity’s IAM policy.`,
};

export const S3_ACCESS_DENIED_WRITE: FailureRule = {
  code: 'S3_ACCESS_DENIED_WRITE',
  component: 'storage',
  summary: 'The object store denied the writer access to the table data (AccessDenied, 403).',
  example: 'Access Denied (Service: S3, Status Code: 403, Request ID: …)',
  match: /Access Denied|AccessDenied|not authorized to perform: s3:/,
  facts: s3Facts,
  what: (f) =>
    `The object store denied the writer ${f.action ? `${f.action} on ${or(f.resource, BUCKET(f))}` : `access to ${BUCKET(f)}`}`,
  cause: (f) =>
    f.action
      ? `The IAM policy of ${or(f.principal, 'the writer’s identity')} does not allow ${f.action}${f.resource ? ` on ${f.resource}` : ''}.`
      : 'The keys (or the credentials the catalog vends) lack s3:PutObject / s3:GetObject / s3:DeleteObject on the warehouse prefix, or a bucket policy denies them.',
  remedy: (f) =>
    f.action
      ? `Allow ${f.action} on ${or(f.resource, 'the warehouse prefix')} for ${or(f.principal, 'that identity')} (OLake also needs s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket there).`
      : `Allow s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket on ${f.bucket ? `arn:aws:s3:::${f.bucket} and arn:aws:s3:::${f.bucket}/*` : 'the warehouse bucket and prefix'} for the destination’s keys, then run the sync again.`,
};

export const S3_FORBIDDEN_NO_DETAIL: FailureRule = {
  code: 'S3_FORBIDDEN_NO_DETAIL',
  component: 'storage',
  summary:
    'The object store answered 403 with no message (a HEAD request has no body): denied access or wrong keys.',
  example: 'null (Service: S3, Status Code: 403, Request ID: …)',
  match: /null \(Service: S3, Status Code: 403/,
  facts: s3Facts,
  what: (f) => `The object store refused a HEAD request on ${BUCKET(f)} (403, no message)`,
  cause: () =>
    'A HEAD answer has no body, so S3 cannot say why: the keys lack s3:GetObject / s3:ListBucket there, or the secret key is wrong.',
  remedy: () =>
    'Run "floe jobs test ID" (it reads the error body of a GET) to tell a wrong key from a missing permission, then fix the destination in the OLake UI.',
};
