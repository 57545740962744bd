// Google Cloud Storage through Iceberg's GCSFileIO: StorageException messages and google-auth's
// key-file and token errors. Texts and their sources: ../storage.ts.
import { capture, type Facts, type FailureRule, facts, or } from '../rule.js';

function gcsFacts(text: string): Facts {
  return facts({
    bucket: capture(text, /gs:\/\/([a-z0-9][a-z0-9._-]{1,221})/),
    permission: capture(text, /(storage\.\w{1,20}\.\w{1,20})/),
    issuer: capture(text, /iss: ([\w.@-]{1,200})/),
    requesterPays: /requester pays/.test(text) ? 'yes' : undefined,
  });
}

const KEY_FILE_PROBLEM: [RegExp, string][] = [
  [
    /'type' field not specified|'type' value '/,
    'it has no "type": "service_account" (it is not a service-account key, e.g. an OAuth client file)',
  ],
  [/PKCS#8/, 'its private_key is not a PEM private key (its \\n line breaks were lost or it was cut)'],
  [/expecting {1,2}'client_id'/, 'it lacks client_id, client_email, private_key or private_key_id'],
  [/File does not exist|Error reading credential file/, 'the file it names cannot be read'],
];

export const GCS_KEY_FILE_INVALID: FailureRule = {
  code: 'GCS_KEY_FILE_INVALID',
  component: 'storage',
  summary:
    'The writer cannot read the Google service-account key it was given (google-auth: the “type” field, client_email / private_key, or the PKCS#8 key is missing or malformed).',
  example: "java.io.IOException: Error reading credentials from stream, 'type' field not specified.",
  match:
    /Error reading credentials from stream|Error reading service account credential from JSON|Invalid PKCS#8 data|Unexpected exception reading PKCS#8 data|Error reading credential file from/,
  facts: (text) => facts({ problem: KEY_FILE_PROBLEM.find(([re]) => re.test(text))?.[1] }),
  what: (f) =>
    `The Google service-account key the writer was given is not usable${f.problem ? `: ${f.problem}` : ''}`,
  cause: () =>
    'OLake writes the destination’s service-account JSON to a file for the catalog’s Google auth and for Cloud Storage; google-auth could not parse it as a service-account key, so the writer stopped at start.',
  remedy: () =>
    'Paste the key exactly as Google issues it (gcloud iam service-accounts keys create key.json --iam-account=<account>): one JSON object with "type": "service_account", client_email, private_key (its \\n line breaks intact) and private_key_id, into the destination in the OLake UI.',
};

export const GCS_NO_SUCH_BUCKET: FailureRule = {
  code: 'GCS_NO_SUCH_BUCKET',
  component: 'storage',
  summary: 'The Cloud Storage bucket the table data goes to does not exist (404 notFound).',
  example: 'com.google.cloud.storage.StorageException: The specified bucket does not exist.',
  match: /The specified bucket does not exist\.(?! \(Service)/,
  facts: gcsFacts,
  what: (f) => `Cloud Storage has no bucket ${f.bucket ? `"${f.bucket}"` : 'by the warehouse’s name'}`,
  cause: () =>
    'The warehouse path (gs://…) or the catalog’s table location names a bucket that is missing, or lives in a project the writer’s account cannot see.',
  remedy: (f) =>
    `Create it (gcloud storage buckets create gs://${or(f.bucket, '<bucket>')} --location=<region>) or fix the destination’s warehouse path, then run the sync again.`,
};

export const GCS_ANONYMOUS: FailureRule = {
  code: 'GCS_ANONYMOUS',
  component: 'storage',
  summary:
    'Cloud Storage saw no credentials at all (401 “Anonymous caller”): the writer found no service account key.',
  example:
    "Anonymous caller does not have storage.objects.create access to the Google Cloud Storage object. Permission 'storage.objects.create' denied on resource (or it may not exist).",
  match: /Anonymous caller does not have storage\./,
  facts: gcsFacts,
  what: (f) => `Cloud Storage refused an anonymous ${or(f.permission, 'request')} from the writer`,
  cause: () =>
    'The writer found no Google credentials (google-cloud-core’s ServiceOptions falls back to none when Application Default Credentials cannot be loaded), so its requests carried no token.',
  remedy: () =>
    'Give the OLake worker a service account key: mount the JSON key and set GOOGLE_APPLICATION_CREDENTIALS to its path in the worker’s environment (or run it with an attached service account), then run the sync again.',
};

export const GCS_CREDENTIALS_REJECTED: FailureRule = {
  code: 'GCS_CREDENTIALS_REJECTED',
  component: 'storage',
  only: 'storage',
  summary:
    'Google’s token endpoint refused the writer’s service account key (invalid_grant: Invalid JWT Signature, account not found).',
  example:
    'com.google.cloud.storage.StorageException: Error getting access token for service account: 400 Bad Request',
  match: /Error getting access token for service account|Invalid JWT Signature|invalid_grant/,
  facts: gcsFacts,
  what: (f) =>
    `Google refused the service account key${f.issuer ? ` of ${f.issuer}` : ''} the writer signs with`,
  cause: () =>
    'The key was deleted or disabled, belongs to a deleted service account, or the machine’s clock is far off (the signed token is rejected).',
  remedy: (f) =>
    `Create a new key (gcloud iam service-accounts keys create key.json --iam-account=${or(f.issuer, '<account>')}), give it to the OLake worker (GOOGLE_APPLICATION_CREDENTIALS), and check the worker’s clock (NTP).`,
};

export const GCS_BILLING: FailureRule = {
  code: 'GCS_BILLING',
  component: 'storage',
  summary:
    'Cloud Storage refused the request for billing: a requester-pays bucket with no user project, or a project whose billing is disabled.',
  example: 'Bucket is a requester pays bucket but no user project provided.',
  match:
    /requester pays bucket but no user project provided|billing account for the owning project is disabled|[Bb]illing account for project \S{1,100} is disabled/,
  facts: gcsFacts,
  what: () => 'Cloud Storage refused the writer’s request for billing',
  cause: (f) =>
    f.requesterPays
      ? 'The bucket is requester-pays: every request must name a project to bill (userProject), and the writer names none.'
      : 'The billing account of the project that owns the bucket is disabled or missing.',
  remedy: (f) =>
    f.requesterPays
      ? `Turn requester pays off on the bucket (gcloud storage buckets update gs://${or(f.bucket, '<bucket>')} --no-requester-pays), or use a bucket without it for the warehouse.`
      : 'Link the project to an active billing account (gcloud billing projects link <project> --billing-account=<id>), then run the sync again.',
};

export const GCS_PERMISSION_DENIED: FailureRule = {
  code: 'GCS_PERMISSION_DENIED',
  component: 'storage',
  summary: 'Cloud Storage denied the writer’s service account a permission (storage.objects.create …).',
  example:
    'olake@p.iam.gserviceaccount.com does not have storage.objects.create access to the Google Cloud Storage object.',
  match: /does not have storage\.\w{1,20}\.\w{1,20} access/,
  facts: (text) =>
    facts({
      principal: capture(text, /([\w.@-]{1,200}) does not have storage\./),
      permission: capture(text, /does not have (storage\.\w{1,20}\.\w{1,20}) access/),
    }),
  what: (f) =>
    `Cloud Storage denied ${or(f.principal, 'the service account')} ${or(f.permission, 'a permission')}`,
  cause: (f) => `The service account lacks ${or(f.permission, 'the storage permission')} on the bucket.`,
  remedy: (f) =>
    `Grant ${or(f.principal, 'the service account')} roles/storage.objectAdmin on the bucket (gcloud storage buckets add-iam-policy-binding gs://<bucket> --member=serviceAccount:${or(f.principal, '<account>')} --role=roles/storage.objectAdmin).`,
};
