// docs/diagnoses.md lists every diagnosis code with its one line, generated from the code tables.
// Regenerate after changing a table: UPDATE_DOCS=1 npx vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CATALOG_DIAGNOSES } from '../../src/catalog/diagnoses.js';
import { CHECK_DIAGNOSES } from '../../src/check/diagnoses.js';
import { LOG_RULES } from '../../src/management/diagnose.js';
import { STORAGE_DIAGNOSES } from '../../src/storage/diagnoses.js';
import { GCS_DIAGNOSES } from '../../src/storage/gcs-diagnoses.js';
import { WRITE_DIAGNOSES } from '../../src/write/diagnoses.js';

const DOC = new URL('../../docs/diagnoses.md', import.meta.url);

const cell = (text: string) => text.replace(/\|/g, '\\|');

function render(): string {
  const table = (codes: Record<string, string>) =>
    Object.entries(codes)
      .map(([code, line]) => `| \`${code}\` | ${cell(line)} |`)
      .join('\n');
  const logTable = Object.entries(LOG_RULES)
    .map(
      ([code, rule]) =>
        `| \`${code}\` | ${rule.component} | ${cell(rule.summary)} | ${rule.examples.map((e) => `\`\` ${cell(e)} \`\``).join('<br>')} |`,
    )
    .join('\n');
  return `# Diagnosis codes

Every failure of \`floe test\` becomes a diagnosis with a stable code, what failed, the likely cause, a remedy
and evidence (HTTP status, error code, request id, the URL without secrets). The codes appear in the
diagnosis panel and in \`floe test --json\` (\`diagnoses[].code\`). This page is generated from the code.

## REST catalog

| Code | Meaning |
|---|---|
${table(CATALOG_DIAGNOSES)}

## Object store

| Code | Meaning |
|---|---|
${table(STORAGE_DIAGNOSES)}

### Google Cloud Storage (\`--storage gcs\`)

The same five steps over the Cloud Storage JSON API, signed in with the service-account key.

| Code | Meaning |
|---|---|
${table(GCS_DIAGNOSES)}

## The write check (\`floe test --write\`)

Besides these, a write step can end with any REST-catalog or object-store code above (a time-out, a
401, a signature mismatch at the table's location…), under the write step's id.

| Code | Meaning |
|---|---|
${table(WRITE_DIAGNOSES)}

## The test itself

| Code | Meaning |
|---|---|
${table(CHECK_DIAGNOSES)}

## A sync run's log

\`floe jobs logs ID --diagnose\` and the jobs browser read a run's log as a whole (step \`run.log\`): each error
line is attributed to the component it comes from (the host:port it names, its exception class, the writer's
Java logger, the stack frames under it), the run is reported by its first failure, and what followed from it
(the refused connection to the writer's 127.0.0.1:50051 after it ran out of memory) is named as its
consequence. The evidence is the log line, its component and the facts taken from it (bucket, region, IAM
action and resource, Polaris privilege, host…). A failure no rule knows is \`RUN_NOT_RECOGNIZED\`, never
blamed on a component it did not come from. \`floe jobs logs ID --diagnose\` exits 1 when the log shows a
failure and 0 when it shows none. Codes shared with \`floe test\` mean the same failure.

| Code | Component | Meaning | Real text it answers |
|---|---|---|---|
${logTable}
`;
}

it('docs/diagnoses.md lists every code', () => {
  if (process.env.UPDATE_DOCS) writeFileSync(DOC, render());
  expect(readFileSync(DOC, 'utf8')).toBe(render());
});
