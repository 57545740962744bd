// The catalog's failures as the Iceberg Java REST client in OLake's writer reports them. The client
// rewrites server answers (apache/iceberg core/…/rest/ErrorHandlers.java): 401 "Not authorized: %s",
// 403 "Forbidden: %s", 400 "Malformed request: %s", 503 "Service unavailable: %s", 5xx "Server error:
// %s: %s", 409 on commit "Commit failed: %s"; a token endpoint's invalid_client becomes
// NotAuthorizedException "Not authorized: invalid_client: …" and unauthorized_client, invalid_grant,
// invalid_scope… BadRequestException "Malformed request: <type>: …" (OAuthErrorHandler, lines 371-389);
// OAuth2Util logs "Failed to refresh token" (auth/OAuth2Util.java:512). Inside those messages: each
// server's own refusal (Polaris, Lakekeeper, Nessie, Unity OSS, AWS Glue / Lake Formation, S3 Tables).

import {
  CATALOG_OAUTH_ERROR,
  CATALOG_OAUTH_INVALID_CLIENT,
  CATALOG_OAUTH_INVALID_SCOPE,
  CATALOG_OAUTH_UNAUTHORIZED_CLIENT,
  CATALOG_UNAUTHORIZED,
  RUN_TOKEN_EXPIRED,
  RUN_TOKEN_REFRESH_FAILED,
} from './catalog/auth.js';
import {
  CATALOG_ASSUME_ROLE_DENIED,
  RUN_IAM_ACTION_DENIED,
  RUN_LAKE_FORMATION_DENIED,
} from './catalog/aws.js';
import {
  CATALOG_FORBIDDEN,
  CATALOG_GATEWAY_ERROR,
  CATALOG_SERVER_ERROR,
  CATALOG_UNAVAILABLE,
  RUN_CATALOG_STORAGE_FAILURE,
  RUN_COMMIT_CONFLICT,
  RUN_COMMIT_STATE_UNKNOWN,
  RUN_NO_SUCH_NAMESPACE,
  RUN_NO_SUCH_TABLE,
  RUN_NO_SUCH_WAREHOUSE,
} from './catalog/rest.js';
import {
  RUN_LAKEKEEPER_FORBIDDEN,
  RUN_NESSIE_RULE_DENIED,
  RUN_POLARIS_NO_PRINCIPAL_ROLE,
  RUN_POLARIS_NOT_AUTHORIZED,
  RUN_UNITY_PERMISSION_DENIED,
  RUN_UNITY_USER_NOT_ALLOWED,
} from './catalog/servers.js';
import type { FailureRule } from './rule.js';

/** First match wins: the order below is the order rules are tried in. */
export const CATALOG_RULES: FailureRule[] = [
  RUN_CATALOG_STORAGE_FAILURE,
  RUN_POLARIS_NO_PRINCIPAL_ROLE,
  RUN_POLARIS_NOT_AUTHORIZED,
  RUN_LAKEKEEPER_FORBIDDEN,
  RUN_NESSIE_RULE_DENIED,
  RUN_LAKE_FORMATION_DENIED,
  CATALOG_ASSUME_ROLE_DENIED,
  RUN_IAM_ACTION_DENIED,
  RUN_UNITY_USER_NOT_ALLOWED,
  RUN_UNITY_PERMISSION_DENIED,
  RUN_TOKEN_REFRESH_FAILED,
  CATALOG_OAUTH_INVALID_CLIENT,
  CATALOG_OAUTH_UNAUTHORIZED_CLIENT,
  CATALOG_OAUTH_INVALID_SCOPE,
  CATALOG_OAUTH_ERROR,
  RUN_TOKEN_EXPIRED,
  CATALOG_UNAUTHORIZED,
  RUN_NO_SUCH_WAREHOUSE,
  RUN_NO_SUCH_NAMESPACE,
  RUN_NO_SUCH_TABLE,
  RUN_COMMIT_CONFLICT,
  RUN_COMMIT_STATE_UNKNOWN,
  CATALOG_GATEWAY_ERROR,
  CATALOG_UNAVAILABLE,
  CATALOG_SERVER_ERROR,
  CATALOG_FORBIDDEN,
];
