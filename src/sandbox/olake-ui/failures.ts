// How the emulator's failed runs end: real failures from floe's corpus (test/fixtures/failures/, where each
// names its upstream source; test/management/diagnose.test.ts keeps these copies verbatim), one class of
// each, so every class shows in the jobs browser and in `floe jobs logs ID --diagnose`. Picked by job id.
import type { FailureText } from './synclog.js';

const E = 'org.apache.iceberg.exceptions';
const RID = 'Request ID: 4442587FB7D0A2F9, Extended Request ID: vq8d3Hl0bZ1Yg/9Wc2aqG8g=';

export const SEED_FAILURES: { id: string; failure: FailureText }[] = [
  {
    id: 'polaris-no-principal-role',
    failure: {
      origin: 'java',
      text: `${E}.ForbiddenException: Forbidden: Principal 'olake' with activated PrincipalRoles '[]' and activated grants via '[]' is not authorized for op CREATE_TABLE_DIRECT`,
    },
  },
  {
    id: 's3-expired-token',
    failure: {
      origin: 'java',
      text: `software.amazon.awssdk.services.s3.model.S3Exception: The provided token has expired. (Service: S3, Status Code: 400, ${RID})`,
    },
  },
  {
    id: 'nessie-storage-due-to',
    failure: {
      origin: 'java',
      text: `${E}.ForbiddenException: Forbidden: Failed to write metadata s3://lake/orders/metadata/00001-a.metadata.json (due to: software.amazon.awssdk.services.s3.model.S3Exception: Access Denied (Service: S3, Status Code: 403, Request ID: 4442587FB7D0A2F9))`,
    },
  },
  {
    id: 'jvm-oom-then-refused',
    failure: {
      origin: 'jvm',
      text: 'Terminating due to java.lang.OutOfMemoryError: Java heap space',
      followedBy: [
        {
          level: 'fatal',
          message:
            'error occurred while reading records: thread[public.orders_0]: failed to write records: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:50051: connect: connection refused"',
        },
      ],
    },
  },
  {
    id: 's3-wrong-region-301',
    failure: {
      origin: 'java',
      text: `software.amazon.awssdk.services.s3.model.S3Exception: The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint. (Service: S3, Status Code: 301, ${RID})`,
    },
  },
  {
    id: 'lake-formation-table',
    failure: {
      origin: 'java',
      text: `${E}.ForbiddenException: Forbidden: Insufficient Lake Formation permission(s): Required Create Table on olake_db`,
    },
  },
  {
    id: 'commit-conflict',
    failure: {
      origin: 'java',
      text: `${E}.CommitFailedException: Commit failed: Requirement failed: branch main has changed: expected id 4312250736582345910 != 6170938418839221417`,
    },
  },
  {
    id: 'pg-auth',
    failure: {
      origin: 'go',
      text: 'failed to ping database: failed to connect to `user=olake database=prod`: 10.0.0.5:5432 (postgres.db.internal): server error: FATAL: password authentication failed for user "olake" (SQLSTATE 28P01)',
    },
  },
  {
    id: 'mongo-not-replica-set',
    failure: {
      origin: 'go',
      text: 'failed to open change stream: (Location40573) The $changeStream stage is only supported on replica sets',
    },
  },
  {
    id: 's3-signature',
    failure: {
      origin: 'java',
      text: `software.amazon.awssdk.services.s3.model.S3Exception: The request signature we calculated does not match the signature you provided. Check your key and signing method. (Service: S3, Status Code: 403, ${RID})`,
    },
  },
  {
    id: 'polaris-no-such-table',
    failure: { origin: 'java', text: `${E}.NoSuchTableException: Table does not exist: lake.orders` },
  },
  {
    id: 'catalog-dns',
    failure: {
      origin: 'java',
      text: `${E}.RESTException: Error occurred while processing GET request`,
      causedBy: ['java.net.UnknownHostException: polaris.internal: Name or service not known'],
    },
  },
  {
    id: 'glue-iam',
    failure: {
      origin: 'java',
      text: `${E}.ForbiddenException: Forbidden: User: arn:aws:iam::123456789012:user/olake is not authorized to perform: glue:CreateTable on resource: arn:aws:glue:us-east-1:123456789012:table/olake_db/orders because no identity-based policy allows the glue:CreateTable action`,
    },
  },
  {
    id: 'go-unknown',
    failure: {
      origin: 'go',
      text: 'error occurred while reading records: thread[public.orders_0]: failed to flatten and clean data: unsupported value at key payload',
    },
  },
  {
    id: 'oracle-service-unknown',
    failure: {
      origin: 'go',
      text: 'failed to ping database: ORA-12514: TNS:listener does not currently know of service requested in connect descriptor error occur at position: 0',
    },
  },
  {
    id: 'kafka-group-acl',
    failure: {
      origin: 'go',
      text: 'failed in pre cdc run for driver[kafka]: failed to remove existing consumers: describe groups error: GROUP_AUTHORIZATION_FAILED: Not authorized to access group: Group authorization failed.',
    },
  },
  {
    id: 'gcs-anonymous',
    failure: {
      origin: 'java',
      text: "com.google.cloud.storage.StorageException: Anonymous caller does not have storage.objects.create access to the Google Cloud Storage object. Permission 'storage.objects.create' denied on resource (or it may not exist).",
    },
  },
  {
    id: 'mysql-account-locked',
    failure: {
      origin: 'go',
      text: "failed to ping database: Error 3118 (HY000): Access denied for user 'olake'@'172.18.0.5'. Account is locked.",
    },
  },
  {
    id: 'gcs-key-file-type',
    failure: {
      origin: 'jvm',
      text: 'Exception in thread "main" java.io.UncheckedIOException: Failed to load Google credentials',
      followedBy: [
        {
          level: 'error',
          message:
            'Iceberg[50051] \tat org.apache.iceberg.gcp.auth.GoogleAuthManager.initialize(GoogleAuthManager.java:118)',
        },
        {
          level: 'error',
          message:
            "Iceberg[50051] Caused by: java.io.IOException: Error reading credentials from stream, 'type' field not specified.",
        },
      ],
    },
  },
  {
    id: 'catalog-tls-pkix',
    failure: {
      origin: 'java',
      text: `${E}.RESTException: Error occurred while processing GET request`,
      frames: [
        'org.apache.hc.client5.http.impl.classic.InternalExecRuntime.connectEndpoint(InternalExecRuntime.java:188)',
        'org.apache.iceberg.rest.HTTPClient.execute(HTTPClient.java:318)',
      ],
      causedBy: [
        'javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target',
      ],
    },
  },
];
