// AWS Glue, Lake Formation and S3 Tables: IAM's and Lake Formation's refusals, an assumed role denied.
// Texts and their sources: ../catalog.ts.
import { CATALOG_DIAGNOSIS_INFO as INFO } from '../../../catalog/diagnoses.js';
import { capture, type Facts, type FailureRule, facts, or } from '../rule.js';

/** AWS IAM's "User: X is not authorized to perform: A on resource: R". */
function iamFacts(text: string): Facts {
  return facts({
    principal: capture(text, /User: (arn:\S{1,300}) is not authorized/),
    action: capture(text, /not authorized to perform: ([\w-]{1,40}:\w{1,80})/),
    resource: capture(text, /on resource: "?(arn:[^\s"]{1,300})/),
  });
}

const LF_PERMISSION: Record<string, string> = {
  'Create Table': 'CREATE_TABLE',
  'Create Database': 'CREATE_DATABASE',
  Alter: 'ALTER',
  Drop: 'DROP',
  Describe: 'DESCRIBE',
  Select: 'SELECT',
  Insert: 'INSERT',
  Delete: 'DELETE',
  'Data Location Access': 'DATA_LOCATION_ACCESS',
};

export const RUN_LAKE_FORMATION_DENIED: FailureRule = {
  code: 'RUN_LAKE_FORMATION_DENIED',
  component: 'catalog',
  summary: 'AWS Lake Formation refused: “Insufficient Lake Formation permission(s): Required … on …”.',
  example: 'Insufficient Lake Formation permission(s): Required Create Table on olake_db',
  match: /Insufficient Lake Formation permission/,
  facts: (text) => {
    const required = capture(text, /Required ([A-Za-z ]{1,40}?) on /);
    return facts({
      permission: required,
      grant: required ? (LF_PERMISSION[required] ?? required.toUpperCase().replace(/ /g, '_')) : undefined,
      resource: capture(text, /Required [A-Za-z ]{1,40}? on ([\w.:/-]{1,200})/),
    });
  },
  what: (f) =>
    `AWS Lake Formation refused: ${or(f.permission, 'a permission')} is missing${f.resource ? ` on ${f.resource}` : ''}`,
  cause: (f) =>
    `IAM allows the call, but Lake Formation governs the Glue catalog and the writer’s role has no ${or(f.grant, 'Lake Formation')} permission${f.resource ? ` on ${f.resource}` : ''}.`,
  remedy: (f) =>
    `Grant it in Lake Formation: aws lakeformation grant-permissions --principal DataLakePrincipalIdentifier=<role arn> --permissions ${or(f.grant, '<PERMISSION>')} --resource '${f.resource && f.resource !== 'catalog' ? `{"Database":{"Name":"${f.resource.split('.')[0]}"}}` : '{"Catalog":{}}'}' (or in the console: Data permissions → Grant).`,
};

export const CATALOG_ASSUME_ROLE_DENIED: FailureRule = {
  code: 'CATALOG_ASSUME_ROLE_DENIED',
  component: 'catalog',
  summary: 'AWS refused sts:AssumeRole for the role the catalog (or its signing) uses.',
  example:
    'User: arn:aws:iam::123456789012:user/olake is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/…',
  match: /not authorized to perform: sts:AssumeRole/,
  facts: iamFacts,
  what: (f) =>
    `AWS refused ${or(f.principal, 'the identity')} sts:AssumeRole on ${or(f.resource, 'the role')}`,
  cause: () => INFO.CATALOG_ASSUME_ROLE_DENIED.cause,
  remedy: (f) =>
    `Let ${or(f.principal, 'the identity')} assume ${or(f.resource, 'the role')}: allow sts:AssumeRole in its policy and name it in the role’s trust policy.`,
};

export const RUN_IAM_ACTION_DENIED: FailureRule = {
  code: 'RUN_IAM_ACTION_DENIED',
  component: 'catalog',
  summary:
    'AWS IAM denied the catalog call the message names (glue:…, s3tables:…) for the identity it names.',
  example:
    'Forbidden: User: arn:aws:iam::123456789012:user/olake is not authorized to perform: glue:CreateTable on resource: arn:aws:glue:… because no identity-based policy allows the glue:CreateTable action',
  match: /not authorized to perform: (?:glue|s3tables|lakeformation):/,
  facts: iamFacts,
  what: (f) =>
    `AWS denied ${or(f.action, 'a catalog action')} to ${or(f.principal, 'the writer’s identity')}`,
  cause: (f) =>
    `The IAM policy of ${or(f.principal, 'the signing identity')} does not allow ${or(f.action, 'the action')}${f.resource ? ` on ${f.resource}` : ''}.`,
  remedy: (f) =>
    `Allow ${or(f.action, 'the action')} on ${or(f.resource, 'the resource')} for ${or(f.principal, 'that identity')} (e.g. aws iam put-user-policy / put-role-policy with "Action": "${or(f.action, '<action>')}"); OLake’s syncs also need the other create, get and update actions of the catalog.`,
};
