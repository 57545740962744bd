// Oracle's failures through sijms/go-ora (grants, the listener). Texts and their sources: ../source.ts.
import { type FailureRule, or } from '../rule.js';
import { sourceFacts } from './common.js';

export const SOURCE_ORACLE_NOT_GRANTED: FailureRule = {
  code: 'SOURCE_ORACLE_NOT_GRANTED',
  component: 'source',
  summary:
    'Oracle refused the job’s user a table it reads (ORA-00942 for a table not granted, ORA-01031 insufficient privileges).',
  example:
    'ORA-00942: table or view does not exist\\n error occur at position: 14 (go-ora; the \\n is a line break)',
  match: /ORA-00942|ORA-01031/,
  facts: sourceFacts,
  what: (f) =>
    `Oracle refused the job’s user ${f.ora === 'ORA-01031' ? 'a privilege it needs' : 'a table it reads'} (${or(f.ora, 'ORA-00942')})`,
  cause: () =>
    'Oracle answers ORA-00942 both when a table is missing and when the user may not see it: the sync reads each selected table with SELECT, which needs a grant unless the user owns the table.',
  remedy: () =>
    'As the table’s owner or a DBA: GRANT SELECT ON <schema>.<table> TO <user>; for every selected stream (or GRANT SELECT ANY TABLE TO <user>;), then run the sync again; discover the source again if a table was dropped.',
};

export const SOURCE_ORACLE_LISTENER: FailureRule = {
  code: 'SOURCE_ORACLE_LISTENER',
  component: 'source',
  summary:
    'The Oracle listener answered but refused the connection: the service name is unknown to it (ORA-12514) or it refused (ORA-12564, ORA-12506).',
  example: 'ORA-12514: TNS:listener does not currently know of service requested in connect descriptor',
  match: /ORA-12514|ORA-12564|ORA-12506|ORA-12505/,
  facts: sourceFacts,
  what: (f) => `The Oracle listener refused the connection (${or(f.ora, 'ORA-12514')})`,
  cause: (f) =>
    f.ora === 'ORA-12514' || f.ora === 'ORA-12505'
      ? 'The listener is up but serves no database under the service name (or SID) the source names.'
      : 'The listener is up but refused the worker (its access list, or no handler for the service).',
  remedy: () =>
    'Set the source’s service name (or SID) to one the listener serves (lsnrctl services on the database host lists them) in the OLake UI, then test the source.',
};
