// docs/diagnoses.md lists every diagnosis code with its one line, generated from the code tables.
// Regenerate after changing a table: UPDATE_DOCS=1 npx vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CATALOG_DIAGNOSES } from '../../src/catalog/diagnoses.js';
import { CHECK_DIAGNOSES } from '../../src/check/diagnoses.js';
import { LOG_DIAGNOSES } from '../../src/management/diagnose.js';
import { STORAGE_DIAGNOSES } from '../../src/storage/diagnoses.js';
import { GCS_DIAGNOSES } from '../../src/storage/gcs-diagnoses.js';
import { WRITE_DIAGNOSES } from '../../src/write/diagnoses.js';

const DOC = new URL('../../docs/diagnoses.md', import.meta.url);

function render(): string {
  const table = (codes: Record<string, string>) =>
    Object.entries(codes)
      .map(([code, line]) => `| \`${code}\` | ${line.replace(/\|/g, '\\|')} |`)
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

\`floe jobs logs ID --diagnose\` and the jobs browser map the errors in a run's log to these codes (step
\`run.log\`); the evidence is the log line. Codes shared with \`floe test\` mean the same failure.

| Code | Meaning |
|---|---|
${table(LOG_DIAGNOSES)}
`;
}

it('docs/diagnoses.md lists every code', () => {
  if (process.env.UPDATE_DOCS) writeFileSync(DOC, render());
  expect(readFileSync(DOC, 'utf8')).toBe(render());
});
