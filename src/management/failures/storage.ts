// The object store's failures as OLake's Java writer prints them: the AWS SDK for Java v2's S3Exception
// ("<message> (Service: S3, Status Code: 403, Request ID: …)", aws/aws-sdk-java-v2
// core/aws-core/…/awscore/exception/AwsServiceException.java getMessage; no error code in the text), the
// v1 AmazonS3Exception ("(Service: Amazon S3; Status Code: 403; Error Code: AccessDenied; …)"), and Google
// Cloud Storage's StorageException. The S3 messages are S3's own (docs.aws.amazon.com/AmazonS3/latest/API/
// ErrorResponses.html). Codes shared with `floe test` mean the same failure. GCS through Iceberg's GCSFileIO:
// google-cloud-storage's StorageException carries the JSON API's message; token errors are
// google-auth-library-java's ("Error getting access token for service account: %s, iss: %s",
// oauth2_http/…/ServiceAccountCredentials.java:568); a key file it cannot read is google-auth's IOException
// (GoogleCredentials.java:305, ServiceAccountCredentials.java:191-193, OAuth2Utils.java:273), wrapped by
// Iceberg's GoogleAuthManager ("Failed to load Google credentials", gcp/…/auth/GoogleAuthManager.java:118).
// MinIO's own codes: minio/minio cmd/api-errors.go. A file the table's metadata names and the store lacks:
// Iceberg's NotFoundException "Location does not exist: %s" (aws/…/s3/S3InputStream.java:254,
// gcp/…/gcs/GCSExceptionUtil.java:32). Missing AWS credentials: aws-sdk-java-v2 AwsCredentialsProviderChain.

import type { FailureRule } from './rule.js';
import { RUN_TABLE_FILE_MISSING } from './storage/files.js';
import {
  GCS_ANONYMOUS,
  GCS_BILLING,
  GCS_CREDENTIALS_REJECTED,
  GCS_KEY_FILE_INVALID,
  GCS_NO_SUCH_BUCKET,
  GCS_PERMISSION_DENIED,
} from './storage/gcs.js';
import {
  RUN_S3_EXPIRED_TOKEN,
  S3_ACCESS_DENIED_WRITE,
  S3_CLOCK_SKEW,
  S3_CONNECTION_POOL,
  S3_FORBIDDEN_NO_DETAIL,
  S3_INTERNAL_ERROR,
  S3_INVALID_ACCESS_KEY,
  S3_INVALID_BUCKET_NAME,
  S3_INVALID_SESSION_TOKEN,
  S3_KMS_DENIED,
  S3_NO_CREDENTIALS,
  S3_NO_SUCH_BUCKET,
  S3_REQUEST_TIMEOUT,
  S3_SIGNATURE_MISMATCH,
  S3_SLOW_DOWN,
  S3_STORAGE_FULL,
  S3_WRONG_REGION,
} from './storage/s3.js';

/** The text is an S3 answer (SDK v2 or v1 exception, or an S3 error code). */
export const S3_ANSWER = /Service: S3,|Service: Amazon S3;|S3Exception|\bs3\.model\.|Error Code: \w+;/;

/** First match wins: the order below is the order rules are tried in. */
export const STORAGE_RULES: FailureRule[] = [
  RUN_S3_EXPIRED_TOKEN,
  S3_NO_CREDENTIALS,
  S3_INVALID_SESSION_TOKEN,
  S3_CONNECTION_POOL,
  S3_STORAGE_FULL,
  S3_REQUEST_TIMEOUT,
  S3_INTERNAL_ERROR,
  RUN_TABLE_FILE_MISSING,
  GCS_KEY_FILE_INVALID,
  S3_SIGNATURE_MISMATCH,
  S3_INVALID_ACCESS_KEY,
  S3_WRONG_REGION,
  S3_INVALID_BUCKET_NAME,
  GCS_NO_SUCH_BUCKET,
  S3_NO_SUCH_BUCKET,
  S3_SLOW_DOWN,
  S3_CLOCK_SKEW,
  S3_KMS_DENIED,
  S3_ACCESS_DENIED_WRITE,
  S3_FORBIDDEN_NO_DETAIL,
  GCS_ANONYMOUS,
  GCS_CREDENTIALS_REJECTED,
  GCS_BILLING,
  GCS_PERMISSION_DENIED,
];
