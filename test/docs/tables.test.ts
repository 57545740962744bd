// docs/tables.md lists every problem code and threshold of `floe tables`, generated from the code tables
// (src/tables/health.ts). Regenerate after changing them: UPDATE_DOCS=1 npx vitest run test/docs
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PROBLEMS, THRESHOLDS } from '../../src/tables/health.js';

const DOC = new URL('../../docs/tables.md', import.meta.url);
const cell = (text: string) => text.replace(/\|/g, '\\|');

function render(): string {
  const problems = Object.entries(PROBLEMS)
    .map(([code, p]) => `| \`${code}\` | ${cell(p.title)} | ${cell(p.remedy)} | ${p.maintenance ?? '–'} |`)
    .join('\n');
  const thresholds = Object.entries(THRESHOLDS)
    .map(([key, t]) => `| \`${key}\` | ${t.default} | ${cell(t.help)} |`)
    .join('\n');
  return `# Table health (\`floe tables\`)

\`floe tables\` lists every table of a profile's catalog with its last commit, snapshots, records, data
files and bytes, delete files and rows (position and equality), and the problems below. The numbers come
from the current snapshot's summary when it has every Iceberg total and the table has no delete file (the
summary neither splits delete files by kind nor file bytes into data and deletes); otherwise floe reads the
manifest list and every manifest (\`"source": "manifests"\`). \`floe tables show NS.TABLE\` always reads the
manifests and adds a file-size histogram, the schema history, partition spec, sort order, \`write.*\`
properties, the snapshot log and the maintenance to paste. This page is generated from the code.

## Problem codes

| Code | Problem | Remedy | Maintenance |
|---|---|---|---|
${problems}

Maintenance: \`compact\` is Spark \`CALL <catalog>.system.rewrite_data_files\` (files below the small-file
size) and Trino \`ALTER TABLE … EXECUTE optimize(file_size_threshold => …)\`; \`compact-deletes\` adds
\`rewrite_data_files\` with \`delete-file-threshold\` 1 and \`rewrite_position_delete_files\`; \`expire\` is
\`expire_snapshots\` in Spark and Trino and \`table.maintenance.expire_snapshots()\` in pyiceberg (0.10+).
pyiceberg has no compaction or orphan-file removal. \`<catalog>\` is the export's catalog name of the
profile (\`floe export --engine spark\`).

A table floe cannot read gets \`TABLE_UNREADABLE\` with the reason: the catalog's refusal (diagnosed as
\`floe test\` does), a missing file (HTTP 404: deleted outside Iceberg), a storage error (diagnosed as the
storage check's GetObject), a file that is not an Avro manifest, a manifest whose entries disagree with its
manifest list, or a read beyond the budget. The other tables are listed as usual.

## Thresholds

Override any with \`--threshold KEY=VALUE\` (repeatable).

| Key | Default | Meaning |
|---|---|---|
${thresholds}
`;
}

it('docs/tables.md lists every problem code and threshold', () => {
  if (process.env.UPDATE_DOCS) writeFileSync(DOC, render());
  expect(readFileSync(DOC, 'utf8')).toBe(render());
});
