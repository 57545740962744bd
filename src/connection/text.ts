// Plain-text renderings of steps, diagnoses and trace entries, shared by the test screen and the
// non-interactive `floe test` output. Glyphs carry the state, so nothing depends on colour. Text that
// came from a server (error codes, error_description, S3 <Code>/<Message>, URLs, headers) and from the
// profile is sanitized here, once, for both.

import type { CheckReport, Diagnosis, Step, StepState, TraceEntry } from '../check/types.js';
import { sanitize } from '../text/sanitize.js';

export const STEP_GLYPH: Record<StepState, string> = {
  pending: '·',
  running: '…',
  ok: '✓',
  warning: '!',
  failed: '✗',
  skipped: '–',
  cancelled: '⊘',
};

export const CHAIN_TITLE: Record<Step['chain'], string> = {
  catalog: 'Catalog',
  storage: 'Object store',
  write: 'Write (as OLake)',
};

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One line per finished step for the plain output, e.g. `✓ Catalog: Read the config (12 ms) — prefix "wh"`. */
export function stepLine(step: Step): string {
  const status =
    step.state === 'skipped' || step.state === 'cancelled' ? step.state : formatDuration(step.durationMs);
  return [
    `${STEP_GLYPH[step.state]} ${CHAIN_TITLE[step.chain]}: ${sanitize(step.title)}`,
    status && `(${status})`,
    step.detail && `— ${sanitize(step.detail)}`,
  ]
    .filter(Boolean)
    .join(' ');
}

export function evidenceText(evidence: Diagnosis['evidence']): string {
  return [
    evidence.status !== undefined && `HTTP ${evidence.status}`,
    evidence.errorCode && `code ${evidence.errorCode}`,
    evidence.requestId && `request id ${evidence.requestId}`,
    evidence.url,
    ...Object.entries(evidence.extra ?? {}).map(([k, v]) => `${k}: ${v}`),
  ]
    .filter(Boolean)
    .map((part) => sanitize(String(part)))
    .join(' · ');
}

/** A diagnosis as a heading and labelled lines (unwrapped). */
export function diagnosisLines(d: Diagnosis): { heading: string; rows: [label: string, text: string][] } {
  const evidence = evidenceText(d.evidence);
  const rows: [string, string][] = [
    ['What', sanitize(d.what)],
    ['Cause', sanitize(d.cause)],
    ['Remedy', sanitize(d.remedy)],
  ];
  if (evidence) rows.push(['Evidence', evidence]);
  return { heading: sanitize(`${STEP_GLYPH.failed} ${d.code} (${d.step})`), rows };
}

/** A trace entry as a request line and header lines (`>` sent, `<` received). */
export function traceLines(entry: TraceEntry): string[] {
  const outcome = entry.error ? `error: ${entry.error}` : `${entry.status ?? '?'}`;
  return [
    `${entry.method} ${entry.url}${entry.proxy ? ` (through proxy ${entry.proxy})` : ''} → ${outcome} · ${formatDuration(entry.durationMs)}`,
    ...Object.entries(entry.requestHeaders).map(([k, v]) => `  > ${k}: ${v}`),
    ...Object.entries(entry.responseHeaders).map(([k, v]) => `  < ${k}: ${v}`),
  ].map((line) => sanitize(line));
}

export function summaryLine(report: CheckReport): string {
  if (report.ok)
    return report.write?.leftovers.length
      ? `${STEP_GLYPH.ok} All checks passed, with leftovers the cleanup could not remove`
      : `${STEP_GLYPH.ok} All checks passed`;
  const count = (state: StepState) => report.steps.filter((s) => s.state === state).length;
  if (count('cancelled') > 0) return `${STEP_GLYPH.cancelled} Test cancelled`;
  const failed = count('failed');
  return `${STEP_GLYPH.failed} ${failed} of ${report.steps.length} checks failed`;
}

/** What the write check left, after the summary: the kept table, or that it was removed again. */
export function writeLines(report: CheckReport): string[] {
  const w = report.write;
  // No table: --cleanup, which made none.
  if (!w?.table) return [];
  const table = sanitize(`${w.namespace}.${w.table}`);
  if (w.kept)
    return [
      `Kept table ${table}${w.metadataLocation ? ` (metadata ${sanitize(w.metadataLocation)})` : ''}: drop it in the catalog when you are done.`,
    ];
  const cleanup = report.steps.find((s) => s.id === 'write.cleanup');
  return cleanup?.state === 'ok'
    ? [`The write check's table ${table} and its files were removed again.`]
    : [];
}

/** The whole report as plain text: diagnoses, warnings and the summary (steps are printed as they end). */
export function reportText(report: CheckReport): string[] {
  const lines: string[] = [];
  for (const d of report.diagnoses) {
    const { heading, rows } = diagnosisLines(d);
    lines.push('', heading, ...rows.map(([label, text]) => `  ${`${label}:`.padEnd(10)}${text}`));
  }
  if (report.warnings.length > 0) lines.push('', ...report.warnings.map((w) => `! ${sanitize(w)}`));
  lines.push('', summaryLine(report), ...writeLines(report));
  return lines;
}

/**
 * Word-wraps `text` to `width` columns; continuation lines start with `indent`. A word longer than
 * a whole line (a URL) fills the current line and goes on over the next ones.
 */
export function wrapText(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  const limit = () => Math.max(1, width - (lines.length === 0 ? 0 : indent.length));
  const push = () => {
    lines.push(lines.length === 0 ? line : indent + line);
    line = '';
  };
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest) {
      const room = limit() - (line ? line.length + 1 : 0);
      if (rest.length <= room) {
        line = line ? `${line} ${rest}` : rest;
        rest = '';
      } else if (line && (rest.length <= limit() || room < 1)) push();
      else {
        line = line ? `${line} ${rest.slice(0, room)}` : rest.slice(0, room);
        rest = rest.slice(room);
        push();
      }
    }
  }
  if (line || lines.length === 0) push();
  return lines;
}

/** Cuts a line to `width` columns with an ellipsis. */
export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}
