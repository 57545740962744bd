// The generic fixture (apache/iceberg's RESTCatalogAdapter in front of a JdbcCatalog, like
// apache/iceberg-rest-fixture): Iceberg's own texts and locations.
import type { Denial, TableRules } from './model.js';
import { genericStorageFailure, ICEBERG_MESSAGES, icebergRefusal, nestedLocation } from './shared.js';

/** RESTCatalogAdapter maps ForbiddenException to 403 with its simple name; the text is the emulator's. */
function deny(denial: Denial) {
  const what = [...denial.namespace, ...(denial.table === undefined ? [] : [denial.table])].join('.');
  return icebergRefusal(
    403,
    'ForbiddenException',
    `Forbidden: ${denial.principal} may not ${denial.operation}${what ? ` ${what}` : ''} (${denial.privilege} denied)`,
  );
}

export const REST_RULES: TableRules = {
  tableLocation: nestedLocation,
  deny,
  storageFailure: genericStorageFailure,
  messages: ICEBERG_MESSAGES,
};
