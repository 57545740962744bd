// Every way the catalog half of the connection test can fail, with its likely cause and remedy.
// The chain fills in `what` and the evidence; `cause` and `remedy` default to the table below.
import { type DiagnosisInfo, type DiagnosisInput, diagnosisTable } from '../check/diagnoses.js';
import type { Diagnosis } from '../check/types.js';

export const CATALOG_DIAGNOSIS_INFO = {
  CATALOG_URL_INVALID: {
    summary: 'The REST Catalog URL (or the token URL) is not an absolute http(s) URL.',
    cause: 'The URL is empty, misspelt or uses another scheme.',
    remedy: 'Enter the catalog base URL with its base path, e.g. http://localhost:8181/api/catalog.',
  },
  CATALOG_DNS: {
    summary: 'The catalog host name does not resolve (DNS).',
    cause:
      'The host name is misspelt, only resolvable inside another network (a container name?), or DNS is down.',
    remedy:
      'Check the host name; from a laptop use the published host name or IP, not a docker-compose service name.',
  },
  CATALOG_CONNECTION_REFUSED: {
    summary: 'Nothing listens on the catalog host and port (connection refused).',
    cause: 'The catalog is not running, listens on another port, or only on another interface.',
    remedy: 'Start the catalog or fix the port in the URL; check the server binds to a reachable interface.',
  },
  CATALOG_NETWORK: {
    summary: 'The connection to the catalog failed or was reset.',
    cause: 'A firewall, proxy or load balancer dropped the connection, or the server closed it.',
    remedy: 'Check the network path to the catalog and the server logs.',
  },
  CATALOG_PROXY_UNREACHABLE: {
    summary: 'The proxy named by HTTPS_PROXY / HTTP_PROXY refused the connection or could not be reached.',
    cause:
      'The proxy variable names a wrong host or port, the proxy is down, or it only serves another network.',
    remedy:
      'Check HTTPS_PROXY / HTTP_PROXY (e.g. http://proxy.example.com:3128); if the catalog is reachable directly, add its host to NO_PROXY.',
  },
  CATALOG_PROXY_CONNECT: {
    summary: 'The proxy refused or failed the CONNECT tunnel to the catalog.',
    cause:
      'The proxy does not allow this host or port (HTTP 403), wants credentials (407), or could not reach the catalog itself (502/503).',
    remedy:
      'Ask for the catalog host and port to be allowed, put credentials in the proxy URL (http://user:pass@proxy:3128), or add the host to NO_PROXY if it is reachable directly.',
  },
  CATALOG_TLS_UNTRUSTED: {
    summary: 'The catalog’s TLS certificate is not trusted (self-signed or unknown CA).',
    cause:
      'The server uses a self-signed certificate or one issued by a private CA that Node does not trust.',
    remedy:
      'Install a certificate from a public CA, or trust the private CA: export NODE_EXTRA_CA_CERTS=/path/to/ca.pem before running floe (OLake’s JVM needs it in its trust store too).',
  },
  CATALOG_TLS_HOSTNAME: {
    summary: 'The catalog’s TLS certificate is for another host name.',
    cause: 'The URL uses a name or IP address that the certificate does not list (subjectAltName).',
    remedy:
      'Use the host name the certificate was issued for, or reissue the certificate with this name; for a private CA also set NODE_EXTRA_CA_CERTS.',
  },
  CATALOG_TLS: {
    summary: 'The TLS handshake with the catalog failed.',
    cause: 'An expired certificate, a protocol mismatch, or https:// used for a plain-HTTP port.',
    remedy: 'Check the scheme (http:// or https://) and the server’s certificate.',
  },
  CATALOG_SECRET_UNSENDABLE: {
    summary:
      'A token or credential holds characters an HTTP header cannot carry (a line break, an escape, non-Latin-1): nothing was sent.',
    cause:
      'The secret was pasted with a line break or another invisible character, or the wrong text was stored (the keychain, a FLOE_* variable or a file).',
    remedy:
      'Store the secret again without line breaks or invisible characters (floe setup --profile NAME, then e on its line), or fix the FLOE_* variable it comes from.',
  },
  CATALOG_TOKEN_UNUSABLE: {
    summary:
      'The token endpoint issued an access token that cannot go in an HTTP header (a line break, a control character, non-Latin-1): it was never sent.',
    cause:
      'The token endpoint (or a proxy or gateway in front of it) answers a malformed access_token: a fault of that server, not of anything stored here.',
    remedy:
      'Check the token endpoint named above and its logs (a POST with the same client shows what it issues); nothing stored in floe needs changing.',
  },
  CATALOG_TIMEOUT: {
    summary: 'The catalog did not answer in time.',
    cause: 'The server is overloaded or hung, or a firewall silently drops packets.',
    remedy:
      'Check the catalog is healthy and reachable; if it is just slow, raise the timeout: floe test --timeout 30 (seconds, default 10).',
  },
  CATALOG_REDIRECT: {
    summary: 'The catalog answered with a redirect (often to a login page): the base URL is wrong.',
    cause: 'The URL points at a web UI or a gateway login page instead of the REST API base path.',
    remedy:
      'Use the REST API base URL (e.g. …/api/catalog, or for Databricks a workspace URL with its workspace ID); floe never follows redirects.',
  },
  CATALOG_URI_DOWNGRADE: {
    summary:
      'The catalog’s overrides.uri moves the bearer token from https:// to plain http://; not followed.',
    cause:
      'The catalog advertises an http:// address for later requests (a proxy or ingress setting), so the token would travel unencrypted.',
    remedy:
      'Fix the catalog’s advertised URI (e.g. its base-uri or X-Forwarded-Proto behind a proxy) to https://, or, on a trusted network, run floe test --allow-insecure-uri-override.',
  },
  CATALOG_HTML_RESPONSE: {
    summary: 'The catalog answered with an HTML page instead of JSON.',
    cause: 'The URL points at a web UI, a proxy error page or a login page, not the REST API.',
    remedy: 'Check the base URL and path; GET <url>/v1/config must answer JSON.',
  },
  CATALOG_NOT_JSON: {
    summary: 'The catalog answered with something that is not JSON.',
    cause: 'Another service listens at this URL, or a proxy rewrote the response.',
    remedy: 'Check the base URL points at an Iceberg REST catalog; GET <url>/v1/config must answer JSON.',
  },
  CATALOG_BODY_TOO_LARGE: {
    summary: 'The catalog’s response was larger than floe accepts (1 MiB).',
    cause: 'The URL points at something that streams large content, or the server misbehaves.',
    remedy: 'Check the base URL; a catalog’s config and a one-item namespace page are a few KiB.',
  },
  CATALOG_CONFIG_NOT_FOUND: {
    summary: 'GET /v1/config answered 404: the base path of the catalog URL is wrong.',
    cause:
      'The URL lacks (or has an extra) base path, e.g. Polaris needs /api/catalog, Lakekeeper /catalog, Nessie /iceberg.',
    remedy: 'Fix the base path so that <url>/v1/config answers the catalog config.',
  },
  CATALOG_WAREHOUSE_NOT_FOUND: {
    summary: 'The catalog refused the warehouse: unknown, missing, or not the kind of value it expects.',
    cause: 'The catalog expects another warehouse name or location than the one sent.',
    remedy: 'Create the warehouse in the catalog, or set Warehouse to one the catalog serves.',
  },
  CATALOG_PREFIX_NOT_FOUND: {
    summary: 'The namespace listing answered 404: the prefix or warehouse is wrong.',
    cause: 'The catalog returned a prefix its own routes do not serve, or the warehouse selects no catalog.',
    remedy: 'Check the Warehouse and the catalog’s warehouse settings.',
  },
  CATALOG_BAD_CONFIG: {
    summary: 'GET /v1/config answered JSON that is not a catalog config.',
    cause: 'The server is not an Iceberg REST catalog or the URL points at another API.',
    remedy: 'Check the base URL; the config must have "defaults" and "overrides" objects.',
  },
  CATALOG_BAD_RESPONSE: {
    summary: 'The catalog or token endpoint answered JSON of an unexpected shape.',
    cause: 'The server does not follow the Iceberg REST / OAuth2 specification here.',
    remedy: 'Check the URL points at the right service and version.',
  },
  CATALOG_UNAUTHORIZED: {
    summary: 'The catalog rejected the credentials (401, or 419 for an expired token).',
    cause: 'The token is missing, expired, revoked or issued for another audience.',
    remedy:
      'Supply a valid token or credential; for OAuth2 check the REST Auth URI issues tokens this catalog accepts.',
  },
  CATALOG_FORBIDDEN: {
    summary: 'The catalog authenticated the caller but denied the request (403).',
    cause: 'The principal lacks the privileges to read the catalog (or the warehouse).',
    remedy: 'Grant the principal (role) read access to the catalog and its namespaces.',
  },
  CATALOG_HTTP_ERROR: {
    summary: 'The catalog rejected the request (another 4xx status).',
    cause: 'The server considers the request invalid; its message says why.',
    remedy: 'Read the error message and check the URL and warehouse.',
  },
  CATALOG_OAUTH_INVALID_CLIENT: {
    summary: 'The token endpoint answered invalid_client: unknown client or wrong secret.',
    cause: 'The client id or secret in REST Credential is wrong, or the secret was rotated.',
    remedy:
      'Supply the correct client_id:client_secret, re-issue or refresh the secret, then verify with GET <url>/v1/config and a Bearer header.',
  },
  CATALOG_OAUTH_UNAUTHORIZED_CLIENT: {
    summary:
      'The token endpoint answered unauthorized_client: a wrong client id or secret (Polaris), or a client without the client_credentials grant.',
    cause:
      'Most likely a wrong client id or secret: Polaris and Snowflake Open Catalog answer a wrong one with 401 unauthorized_client. Otherwise the client is not allowed the client_credentials grant (e.g. a Keycloak client without service accounts).',
    remedy:
      'Check the client id and secret in REST Credential (re-issue the secret if it was rotated); if they are right, allow the client the client_credentials grant (enable service accounts). Verify with GET <url>/v1/config and a Bearer header.',
  },
  CATALOG_OAUTH_INVALID_SCOPE: {
    summary: 'The token endpoint answered invalid_scope.',
    cause: 'The REST Scope is not allowed for this client.',
    remedy: 'Use the scope the catalog expects, e.g. PRINCIPAL_ROLE:ALL (Polaris), lakekeeper, catalog.',
  },
  CATALOG_OAUTH_ERROR: {
    summary: 'The token endpoint refused to issue a token (another OAuth2 error).',
    cause: 'The token request was rejected; the error description says why.',
    remedy: 'Check the REST Auth URI, credential and scope against the identity provider’s settings.',
  },
  CATALOG_TOKEN_URL_NOT_FOUND: {
    summary: 'The token URL answered 404/405/501: no OAuth2 token endpoint there.',
    cause:
      'The catalog uses an external identity provider, or REST Auth URI is wrong; <url>/v1/oauth/tokens is deprecated and often absent.',
    remedy:
      'Set REST Auth URI to the identity provider’s token endpoint, e.g. http://keycloak:8080/realms/<realm>/protocol/openid-connect/token.',
  },
  CATALOG_SIGV4_NOT_ENABLED: {
    summary: 'AWS answered "Missing Authentication Token": the request was not SigV4-signed.',
    cause: 'The catalog is an AWS endpoint (Glue, S3 Tables, API Gateway) but the auth type is not SigV4.',
    remedy:
      'Choose AWS SigV4 with signing name glue (AWS Glue) or s3tables (S3 Tables) and the endpoint’s region.',
  },
  CATALOG_SIGV4_PATH_NOT_FOUND: {
    summary:
      'A SigV4-signed request got "Missing Authentication Token": AWS API Gateway has no resource at that path.',
    cause:
      'The request was signed, so the signature is not missing: API Gateway gives the same 403 for a path it does not serve, i.e. a wrong base path in the catalog URL or a wrong prefix.',
    remedy:
      'Check the catalog URL’s path (e.g. https://glue.<region>.amazonaws.com/iceberg, https://s3tables.<region>.amazonaws.com/iceberg) and the Warehouse the prefix comes from.',
  },
  CATALOG_SIGV4_SIGNATURE_MISMATCH: {
    summary: 'AWS rejected the SigV4 signature (signature mismatch or wrong credential scope).',
    cause: 'Wrong secret key, or a signing name/region that does not match the endpoint.',
    remedy:
      'Check the secret key, the REST Signing Name (glue, s3tables) and the REST Signing Region against the endpoint.',
  },
  CATALOG_SIGV4_UNKNOWN_KEY: {
    summary: 'AWS does not know the access key id used to sign.',
    cause: 'The access key is misspelt, deleted or from another partition, or a session token is missing.',
    remedy: 'Use an active access key (and AWS_SESSION_TOKEN for temporary credentials).',
  },
  CATALOG_SIGV4_NO_CREDENTIALS: {
    summary: 'SigV4 is on but no AWS credentials were found.',
    cause: 'The profile has no access keys and the AWS default credential chain found none.',
    remedy:
      'Enter Access Key and Secret Key, or provide credentials via AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE or an instance role.',
  },
  CATALOG_ASSUME_ROLE_DENIED: {
    summary: 'AWS refused sts:AssumeRole for the configured role.',
    cause:
      'The caller is not allowed to assume the role, or the role’s trust policy does not name the caller.',
    remedy:
      'Assign the correct role, validate its trust policy and the caller’s sts:AssumeRole permission, then try assuming it with a test session name (aws sts assume-role --role-arn … --role-session-name floe-test).',
  },
  CATALOG_CLOCK_SKEW: {
    summary: 'The local clock differs from the server’s by more than 5 minutes.',
    cause: 'Signed requests and tokens are only valid within a few minutes of the server’s time.',
    remedy: 'Synchronise the system clock (NTP, e.g. timedatectl set-ntp true).',
  },
  CATALOG_GOOGLE_KEY_INVALID: {
    summary: 'The GCP service-account JSON cannot be used to sign a token request.',
    cause: 'The JSON is not a service-account key (client_email, private_key) or the key is damaged.',
    remedy: 'Download a new JSON key for the service account and paste it whole.',
  },
  CATALOG_UNAVAILABLE: {
    summary: 'The catalog answered 503 Service Unavailable.',
    cause: 'The catalog is starting, overloaded or in maintenance.',
    remedy: 'Wait and retry; check the catalog’s health and logs.',
  },
  CATALOG_SERVER_URI_UNREACHABLE: {
    summary: 'The catalog’s config sent a base URI (overrides.uri) that floe cannot reach.',
    cause:
      'The server advertises the URI it was configured with or derived from proxy headers, e.g. an internal host name.',
    remedy:
      'Make the server advertise a URI reachable from here: Lakekeeper’s LAKEKEEPER__BASE_URI, or the X-Forwarded-Host/-Proto/-Port headers of the proxy in front of it.',
  },
  CATALOG_SERVER_ERROR: {
    summary: 'The catalog (or a proxy in front of it) answered a 5xx server error.',
    cause: 'The server failed internally, or a gateway could not reach it (502/504).',
    remedy: 'Check the catalog’s logs and its database/object-store connectivity.',
  },
} satisfies Record<string, DiagnosisInfo>;

export type CatalogDiagnosisCode = keyof typeof CATALOG_DIAGNOSIS_INFO;

const { summaries, make } = diagnosisTable(CATALOG_DIAGNOSIS_INFO);

/** One line per code, for docs/diagnoses.md. */
export const CATALOG_DIAGNOSES = summaries;

export const diagnosis: (code: CatalogDiagnosisCode, step: string, input: DiagnosisInput) => Diagnosis = make;
