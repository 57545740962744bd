// What the test screen shows, as lines cut to the screen's width: the step rows and the lower panel
// (diagnoses or the HTTP trace). Pure, so the 80x24 budget is computed and tested without Ink.
import { type CheckState, isFinal } from '../../check/reducer.js';
import {
  diagnosisLines,
  formatDuration,
  STEP_GLYPH,
  traceLines,
  truncate,
  wrapText,
} from '../../check/text.js';
import type { Step } from '../../check/types.js';
import { sanitize } from '../../text/sanitize.js';

export type Tone = 'ok' | 'error' | 'warn' | 'dim' | 'active' | 'heading';

export interface Line {
  text: string;
  tone?: Tone;
}

export const STATE_TONE: Record<Step['state'], Tone> = {
  pending: 'dim',
  running: 'active',
  ok: 'ok',
  warning: 'warn',
  failed: 'error',
  skipped: 'dim',
  cancelled: 'warn',
};

/** Step titles share one column, as wide as the longest title up to this. */
const MAX_TITLE_WIDTH = 44;
const DURATION_WIDTH = 7;
/** Diagnosis rows: two spaces, the label, then the text from this column. */
const LABEL_WIDTH = 12;

export function titleWidth(steps: Step[]): number {
  return Math.min(MAX_TITLE_WIDTH, Math.max(0, ...steps.map((s) => s.title.length)));
}

/** A step row after its glyph: title (in a `titleColumn`-wide column), duration and detail, cut to `width`. */
export function stepText(step: Step, width: number, titleColumn: number): string {
  const duration = isFinal(step.state) ? formatDuration(step.durationMs) : '';
  const title = truncate(sanitize(step.title), titleColumn).padEnd(titleColumn);
  const detail = stepDetail(step);
  return truncate(`${title} ${duration.padStart(DURATION_WIDTH)}  ${detail}`.trimEnd(), width);
}

function wrapped(text: string, width: number, indent: string, tone?: Tone): Line[] {
  return wrapText(text, width, indent).map((t) => ({ text: t, tone }));
}

/** A finished step's detail as its row shows it: after the state, e.g. `skipped: no config`. */
function stepDetail(step: Step): string {
  const state = step.state === 'skipped' || step.state === 'cancelled' ? step.state : '';
  return [state, step.detail && sanitize(step.detail)].filter(Boolean).join(': ');
}

/**
 * The panel under the steps: warnings and diagnoses, then the whole detail of each step whose row cuts
 * it (at 80 columns a detail gets ~22 characters), wrapped under its title. `titleColumn` is the step
 * rows' title column (no step details without it).
 */
export function diagnosisPanel(state: CheckState, width: number, titleColumn?: number): Line[] {
  const lines: Line[] = [];
  for (const warning of state.warnings) lines.push(...wrapped(`! ${sanitize(warning)}`, width, '  ', 'warn'));
  for (const d of state.diagnoses) {
    const { heading, rows } = diagnosisLines(d);
    lines.push({ text: truncate(heading, width), tone: 'error' });
    for (const [label, text] of rows)
      for (const [i, part] of wrapText(text, width - LABEL_WIDTH).entries())
        lines.push({ text: (i === 0 ? `  ${label}` : '').padEnd(LABEL_WIDTH) + part });
  }
  // After the diagnoses (scroll to them): each step detail its row cuts, whole, under its title.
  if (titleColumn !== undefined)
    for (const step of state.steps) {
      const detail = stepDetail(step);
      if (!detail || step.state === 'ok' || !stepText(step, width, titleColumn).endsWith('…')) continue;
      lines.push({
        text: truncate(`${STEP_GLYPH[step.state]} ${sanitize(step.title)}`, width),
        tone: STATE_TONE[step.state],
      });
      lines.push(...wrapped(`  ${detail}`, width, '  '));
    }
  if (state.phase === 'done' && state.cancelled)
    lines.push(
      ...wrapped(
        'Cancelled: the steps that did not finish checked nothing, so this run says nothing about the profile (r runs it again).',
        width,
        '  ',
        'warn',
      ),
    );
  else if (lines.length === 0 && state.phase === 'done')
    lines.push({ text: 'No problems found.', tone: 'dim' });
  return lines;
}

export function tracePanel(state: CheckState, width: number): Line[] {
  if (state.trace.length === 0) return [{ text: 'No HTTP exchange yet.', tone: 'dim' }];
  return state.trace.flatMap((entry) => {
    const [request = '', ...headers] = traceLines(entry);
    const failed = entry.error !== undefined || (entry.status ?? 0) >= 400;
    return [
      ...wrapped(request, width, '    ', failed ? 'error' : 'heading'),
      ...headers.map((text): Line => ({ text: truncate(text, width), tone: 'dim' })),
    ];
  });
}

/** One chain on the screen: its header and step rows, or only the header when it is folded. */
export interface StepGroup {
  chain: Step['chain'];
  /** Set when the chain passed and is shown as one row, e.g. "✓ 4 steps passed". */
  collapsed: string | null;
  steps: Step[];
}

/** The diagnoses panel keeps at least this many rows; passed chains fold to make room. */
export const MIN_PANEL_ROWS = 6;
const CHAIN_ORDER: Step['chain'][] = ['catalog', 'storage', 'write'];

/**
 * The chains to show, in order. When the steps would leave the panel fewer than MIN_PANEL_ROWS rows
 * (three chains at 80x24), chains whose steps all passed fold into their header, first to last.
 */
export function stepGroups(steps: Step[], rows: number): StepGroup[] {
  const groups: StepGroup[] = CHAIN_ORDER.filter(
    (chain, i) => i < 2 || steps.some((s) => s.chain === chain),
  ).map((chain) => ({ chain, collapsed: null, steps: steps.filter((s) => s.chain === chain) }));
  for (const group of groups) {
    if (panelHeight(rows, groups) >= MIN_PANEL_ROWS) break;
    const passed =
      group.steps.length > 0 && group.steps.every((s) => s.state === 'ok' || s.state === 'skipped');
    if (!passed) continue;
    const ok = group.steps.filter((s) => s.state === 'ok').length;
    group.collapsed = `✓ ${ok} ${ok === 1 ? 'step' : 'steps'} passed`;
    group.steps = [];
  }
  return groups;
}

/**
 * Rows outside the panel: title, blank, a header per chain, the steps shown, blank, status line,
 * panel header and footer; one more row is kept free because Ink clears the screen when a frame fills it.
 */
export function panelHeight(rows: number, groups: StepGroup[], footerRows = 1): number {
  const shown = groups.reduce((n, g) => n + 1 + g.steps.length, 0);
  return Math.max(1, rows - (5 + footerRows + shown) - 1);
}

/** The rows the key-hint footer takes at `width` (KeyHints wraps its items with two columns between). */
export function hintRows(hints: [string, string][], width: number): number {
  let rows = 1;
  let used = 0;
  for (const [key, action] of hints) {
    const item = key.length + 1 + action.length;
    if (used > 0 && used + 2 + item > width) {
      rows++;
      used = item;
    } else used += (used > 0 ? 2 : 0) + item;
  }
  return rows;
}

/** The visible slice of the panel and a header saying where it is. */
export function scrollPanel(
  lines: Line[],
  offset: number,
  height: number,
): { visible: (Line & { row: number })[]; offset: number; position: string } {
  const max = Math.max(0, lines.length - height);
  const start = Math.min(Math.max(0, offset), max);
  const visible = lines.slice(start, start + height).map((line, i) => ({ ...line, row: start + i }));
  const position =
    lines.length > height ? `lines ${start + 1}–${start + visible.length} of ${lines.length}` : '';
  return { visible, offset: start, position };
}

export type ScrollKey = 'up' | 'down' | 'pageUp' | 'pageDown' | 'top' | 'bottom';

/** The panel offset after a scroll key, as in the jobs browser (scrollPanel clamps it to the lines). */
export function scrolled(offset: number, key: ScrollKey, height: number): number {
  const page = Math.max(1, height - 1);
  switch (key) {
    case 'up':
      return offset - 1;
    case 'down':
      return offset + 1;
    case 'pageUp':
      return offset - page;
    case 'pageDown':
      return offset + page;
    case 'top':
      return 0;
    case 'bottom':
      return Number.MAX_SAFE_INTEGER;
  }
}
