// The auth fields: token, OAuth2, SigV4 and Google, each asked for its own auth type.
import { auth, DEFAULT_GCP_SCOPES, type FieldDef, httpUrl, never, versionAtLeast } from '../field-def.js';
import { GCP_PROJECT_MIN_VERSION } from '../presets.js';

export const AUTH_FIELDS: readonly FieldDef[] = [
  {
    id: 'token',
    label: 'Token',
    help: 'Bearer token sent as "Authorization: Bearer <token>", e.g. a Databricks PAT (dapi…)',
    example: 'dapi0123456789abcdef',
    type: 'text',
    secret: true,
    writerKey: 'token',
    section: 'auth',
    secretFlag: 'token-stdin',
    env: 'FLOE_TOKEN',
    applies: auth('token'),
    required: auth('token'),
    rule: (value) => (/\s/.test(value) ? 'must not contain spaces or line breaks' : null),
  },
  {
    id: 'oauth2Uri',
    label: 'REST Auth URI',
    help: 'OAuth2 token endpoint, e.g. http://keycloak:8080/realms/iceberg/protocol/openid-connect/token',
    example: 'http://localhost:8181/api/catalog/v1/oauth/tokens',
    type: 'text',
    secret: false,
    writerKey: 'oauth2_uri',
    section: 'auth',
    flag: 'oauth2-uri',
    applies: auth('oauth2'),
    required: auth('oauth2'),
    rule: httpUrl('token endpoint'),
  },
  {
    id: 'credential',
    label: 'REST Credential',
    help: 'OAuth2 client as <client_id>:<client_secret> (split on the first colon; a bare secret sends no id)',
    example: 'olake-client:s3cr3t',
    type: 'text',
    secret: true,
    writerKey: 'credential',
    section: 'auth',
    secretFlag: 'credential-stdin',
    env: 'FLOE_CREDENTIAL',
    applies: auth('oauth2'),
    required: auth('oauth2'),
    rule: (value) => (value.endsWith(':') ? 'must have a client secret after the first colon' : null),
  },
  {
    id: 'scope',
    label: 'REST Scope',
    help: 'OAuth2 scope to request; empty means catalog (Polaris: PRINCIPAL_ROLE:ALL, Databricks: all-apis)',
    example: 'PRINCIPAL_ROLE:ALL',
    type: 'text',
    secret: false,
    writerKey: 'scope',
    section: 'auth',
    flag: 'scope',
    applies: auth('oauth2'),
    required: never,
    rule: (value) => (/[\s]{2,}|^\s|\s$/.test(value) ? 'must be space-separated scope names' : null),
  },
  {
    id: 'signingName',
    label: 'REST Signing Name',
    help: 'AWS service name in the SigV4 scope: glue for AWS Glue, s3tables for S3 Tables',
    example: 'glue',
    type: 'text',
    secret: false,
    writerKey: 'rest_signing_name',
    section: 'auth',
    flag: 'signing-name',
    applies: auth('sigv4'),
    required: auth('sigv4'),
    rule: (value) =>
      /^[a-z0-9-]+$/.test(value) ? null : 'must be a service name: lowercase letters, digits, hyphens',
  },
  {
    id: 'signingRegion',
    label: 'REST Signing Region',
    help: 'AWS region in the SigV4 scope, usually the catalog endpoint’s region, e.g. us-east-1',
    example: 'us-east-1',
    type: 'text',
    secret: false,
    writerKey: 'rest_signing_region',
    section: 'auth',
    flag: 'signing-region',
    applies: auth('sigv4'),
    required: auth('sigv4'),
    rule: (value) =>
      /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
        ? null
        : 'must be a region name: lowercase letters, digits and hyphens',
  },
  {
    id: 'sigv4',
    label: 'REST Enable Signature V4',
    help: 'Sign catalog requests with SigV4: always on for SigV4, off otherwise',
    example: 'true',
    type: 'boolean',
    secret: false,
    writerKey: 'rest_signing_v_4',
    section: 'auth',
    applies: never,
    required: never,
  },
  {
    id: 'gcpServiceAccountJson',
    label: 'GCP Service Account JSON',
    help: 'The service-account key file’s JSON (needs client_email and private_key)',
    example:
      '{"type":"service_account","client_email":"olake@p.iam.gserviceaccount.com","private_key":"-----BEGIN…"}',
    type: 'json',
    secret: true,
    writerKey: 'gcp_service_account_json',
    section: 'auth',
    secretFlag: 'gcp-service-account-file',
    env: 'FLOE_GCP_SERVICE_ACCOUNT_JSON',
    // OLake hands the same key to GCSFileIO (GOOGLE_APPLICATION_CREDENTIALS): with GCS storage and
    // another catalog auth it is the storage credential; empty, the runtime's default credentials.
    applies: (v) => v.authType === 'google' || v.storage === 'gcs',
    required: auth('google'),
    rule: (value) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return 'must be the JSON of a service-account key file';
      }
      if (typeof parsed !== 'object' || parsed === null) return 'must be a JSON object';
      const o = parsed as Record<string, unknown>;
      if (typeof o.client_email !== 'string' || !o.client_email) return 'must contain "client_email"';
      if (typeof o.private_key !== 'string' || !o.private_key.includes('PRIVATE KEY'))
        return 'must contain a PEM "private_key"';
      return null;
    },
  },
  {
    id: 'gcpAuthScopes',
    label: 'GCP Auth Scopes',
    help: `Comma-separated OAuth scopes; empty means ${DEFAULT_GCP_SCOPES}`,
    example: DEFAULT_GCP_SCOPES,
    type: 'text',
    secret: false,
    writerKey: 'gcp_auth_scopes',
    section: 'auth',
    flag: 'gcp-scopes',
    applies: auth('google'),
    required: never,
    defaultValue: DEFAULT_GCP_SCOPES,
    rule: (value) =>
      value.split(',').every((s) => /^https:\/\/\S+$/.test(s.trim()))
        ? null
        : 'must be comma-separated https:// scope URLs',
  },
  {
    id: 'gcpProjectId',
    label: 'GCP Project ID',
    help: 'Project billed for requests (sent as x-goog-user-project), e.g. my-project-123',
    example: 'my-project-123',
    type: 'text',
    secret: false,
    writerKey: 'gcp_project_id',
    section: 'auth',
    flag: 'gcp-project-id',
    // OLake reads gcp_project_id from 0.9.1; a 0.9.0 driver drops it silently, so it is not asked.
    applies: (v) => v.authType === 'google' && versionAtLeast(v.targetVersion, GCP_PROJECT_MIN_VERSION),
    required: never,
    rule: (value) =>
      /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(value)
        ? null
        : 'must be 6–30 lowercase letters, digits or hyphens, starting with a letter',
  },
];
