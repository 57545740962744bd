// A 403 on a write is read in the catalog's own terms: the privilege or IAM action that fixes it.
import { describe, expect, it } from 'vitest';
import { privilegeAdvice } from '../../src/write/diagnoses.js';

const base = { warehouse: 'olake_catalog', namespace: 'test_olake' } as const;

describe('privilegeAdvice', () => {
  it('Polaris: the op in the message, the privilege RbacOperationSemantics registers for it, and the grant command', () => {
    const advice = privilegeAdvice({
      ...base,
      preset: 'polaris',
      operation: 'create-table',
      message:
        "Principal 'olake' with activated PrincipalRoles '[olake_role]' and activated grants via '[reader]' is not authorized for op CREATE_TABLE_DIRECT",
    });
    expect(advice.extra).toEqual({ operation: 'CREATE_TABLE_DIRECT', privilege: 'TABLE_CREATE' });
    expect(advice.remedy).toContain(
      'polaris privileges catalog grant --catalog olake_catalog --catalog-role <role> TABLE_CREATE',
    );
    expect(advice.remedy).toContain('CATALOG_MANAGE_CONTENT');
  });

  it('Polaris without an op in the message: the op of the operation floe attempted', () => {
    const advice = privilegeAdvice({
      ...base,
      preset: 'open-catalog',
      operation: 'drop-table',
      message: 'Forbidden',
    });
    expect(advice.extra).toEqual({
      operation: 'DROP_TABLE_WITH_PURGE',
      privilege: 'TABLE_DROP and TABLE_WRITE_DATA',
    });
    expect(advice.remedy).toContain('Open Catalog');
  });

  it('Glue and S3 Tables: the IAM action and the identity from AWS’s message', () => {
    const glue = privilegeAdvice({
      ...base,
      preset: 'glue',
      operation: 'commit',
      message:
        'User: arn:aws:iam::123456789012:user/olake is not authorized to perform: glue:UpdateTable on resource: arn:aws:glue:us-east-1:123456789012:table/test_olake/t',
    });
    expect(glue.extra).toEqual({ action: 'glue:UpdateTable' });
    expect(glue.cause).toContain('arn:aws:iam::123456789012:user/olake');
    expect(glue.remedy).toContain('Lake Formation');
    const tables = privilegeAdvice({
      ...base,
      preset: 's3tables',
      operation: 'create-table',
      message: 'Access denied',
    });
    expect(tables.extra).toEqual({ action: 's3tables:CreateTable' });
  });

  it('Unity names the Databricks privilege and the schema; others say what to grant in their own words', () => {
    const unity = privilegeAdvice({
      ...base,
      preset: 'unity',
      operation: 'create-table',
      errorCode: 'PERMISSION_DENIED',
    });
    expect(unity.cause).toContain('PERMISSION_DENIED');
    expect(unity.remedy).toContain(
      'GRANT CREATE TABLE, EXTERNAL USE SCHEMA ON SCHEMA olake_catalog.test_olake',
    );
    expect(privilegeAdvice({ ...base, preset: 'lakekeeper', operation: 'commit' }).extra).toEqual({
      action: 'commit',
    });
    expect(privilegeAdvice({ ...base, preset: 'nessie', operation: 'create-table' }).remedy).toContain(
      'nessie.server.authorization.rules',
    );
    expect(privilegeAdvice({ ...base, preset: 'rest', operation: 'create-namespace' }).cause).toContain(
      'create the namespace',
    );
  });
});
