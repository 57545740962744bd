// A commit's requirements as apache/iceberg UpdateRequirement.java validates them, with its texts:
// a failed one is 409 CommitFailedException (RESTCatalogAdapter / Polaris IcebergExceptionMapper).
import { bad, conflict, isObject, long, type TableMetadata } from './metadata.js';

export function checkRequirements(base: TableMetadata, requirements: unknown): void {
  if (requirements === undefined) return;
  if (!Array.isArray(requirements)) throw bad('Invalid requirements: must be an array');
  const failed = (what: string, expected: unknown, actual: unknown) =>
    conflict(`Requirement failed: ${what} changed: expected id ${expected} != ${actual}`);
  for (const r of requirements) {
    if (!isObject(r)) throw bad(`Cannot parse update requirement from: ${JSON.stringify(r)}`);
    switch (r.type) {
      case 'assert-create':
        throw conflict('Requirement failed: table already exists');
      case 'assert-table-uuid':
        if (String(r.uuid).toLowerCase() !== base['table-uuid'].toLowerCase())
          throw conflict(
            `Requirement failed: UUID does not match: expected ${base['table-uuid']} != ${r.uuid}`,
          );
        break;
      case 'assert-ref-snapshot-id': {
        const name = String(r.ref);
        const ref = base.refs[name];
        const given = r['snapshot-id'];
        // A null snapshot id means the ref must not exist yet.
        const expected = given === null || given === undefined ? null : long(given, 'snapshot-id');
        if (ref) {
          const kind = ref.type === 'branch' ? 'branch' : 'tag';
          if (expected === null)
            throw conflict(`Requirement failed: ${kind} ${name} was created concurrently`);
          if (expected !== ref['snapshot-id'])
            throw conflict(
              `Requirement failed: ${kind} ${name} has changed: expected id ${expected} != ${ref['snapshot-id']}`,
            );
        } else if (expected !== null)
          throw conflict(`Requirement failed: branch or tag ${name} is missing, expected ${expected}`);
        break;
      }
      case 'assert-last-assigned-field-id':
        if (r['last-assigned-field-id'] !== base['last-column-id'])
          throw failed('last assigned field id', r['last-assigned-field-id'], base['last-column-id']);
        break;
      case 'assert-current-schema-id':
        if (r['current-schema-id'] !== base['current-schema-id'])
          throw failed('current schema', r['current-schema-id'], base['current-schema-id']);
        break;
      case 'assert-last-assigned-partition-id':
        if (r['last-assigned-partition-id'] !== base['last-partition-id'])
          throw failed(
            'last assigned partition id',
            r['last-assigned-partition-id'],
            base['last-partition-id'],
          );
        break;
      case 'assert-default-spec-id':
        if (r['default-spec-id'] !== base['default-spec-id'])
          throw failed('default partition spec', r['default-spec-id'], base['default-spec-id']);
        break;
      case 'assert-default-sort-order-id':
        if (r['default-sort-order-id'] !== base['default-sort-order-id'])
          throw failed('default sort order', r['default-sort-order-id'], base['default-sort-order-id']);
        break;
      default:
        throw bad(`Cannot parse update requirement. Invalid type: ${String(r.type)}`);
    }
  }
}
