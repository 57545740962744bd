// The sandbox's fixed credentials and names: printed and typed as they are; none of them is a real secret.
export const SANDBOX = {
  bucket: 'warehouse',
  /** s3rver's bucket, where every flavour's data lives but BigLake's. */
  dataLocation: 's3://warehouse',
  /** BigLake's: the Cloud Storage emulator's bucket of the same name. */
  gcsLocation: 'gs://warehouse',
  region: 'us-east-1',
  namespaces: [['default'], ['olake'], ['olake', 'staging']],
  oauth: { clientId: 'floe-sandbox', clientSecret: 'sandbox-client-secret', scope: 'catalog' },
  token: 'sandbox-bearer-token',
  /** OLake signs catalog requests with the storage keys, so the SigV4 catalog takes s3rver's. */
  sigv4: { signingName: 'glue', region: 'us-east-1' },
  olake: { username: 'admin', password: 'password', project: '123' },
  google: {
    clientEmail: 'floe-sandbox@sandbox-project.iam.gserviceaccount.com',
    /** The BigLake catalog's own account, which writes its metadata files to Cloud Storage. */
    catalogEmail: 'biglake-catalog@sandbox-project.iam.gserviceaccount.com',
    projectId: 'sandbox-project',
  },
} as const;
