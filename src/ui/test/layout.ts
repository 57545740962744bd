// What the test screen shows, as lines cut to the screen's width: the step rows and the lower panel
// (diagnoses or the HTTP trace). Pure, so the 80x24 budget is computed and tested without Ink.

import type { Step } from '../../check/types.js';
import { type CheckState, isFinal } from '../../connection/reducer.js';
import {
  diagnosisLines,
  formatDuration,
  STEP_GLYPH,
  traceLines,
  truncate,
  wrapText,
} from '../../connection/text.js';
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
  return truncate(fullStepText(step, titleColumn), width);
}

function fullStepText(step: Step, titleColumn: number, detail = stepDetail(step)): string {
  const duration = isFinal(step.state) ? formatDuration(step.durationMs) : '';
  const title = truncate(sanitize(step.title), titleColumn).padEnd(titleColumn);
  return `${title} ${duration.padStart(DURATION_WIDTH)}  ${detail}`.trimEnd();
}

/** Whether a step's row (`width` columns after its glyph) cuts its detail. */
export function cutsDetail(step: Step, width: number, titleColumn: number): boolean {
  return stepDetail(step) !== '' && fullStepText(step, titleColumn).length > width;
}

function wrapped(text: string, width: number, indent: string, tone?: Tone): Line[] {
  return wrapText(text, width, indent).map((t) => ({ text: t, tone }));
}

/** A finished step's detail as its row shows it: after the state, e.g. `skipped: no config`. */
function stepDetail(step: Step): string {
  const state = step.state === 'skipped' || step.state === 'cancelled' ? step.state : '';
  return [state, step.detail && sanitize(step.detail)].filter(Boolean).join(': ');
}

/** Step rows are drawn after two spaces, the glyph and a space. */
export const ROW_INDENT = 4;

/**
 * A shown step's row and the rows under it: when the layout wraps and the row would cut the detail,
 * the row keeps title and duration and the whole detail follows, wrapped, indented under the title.
 */
export function stepRows(step: Step, width: number, layout: StepLayout): { row: string; under: string[] } {
  const room = width - ROW_INDENT;
  if (!layout.wrap || !cutsDetail(step, room, layout.titleColumn))
    return { row: stepText(step, room, layout.titleColumn), under: [] };
  const indent = ' '.repeat(ROW_INDENT);
  return {
    row: truncate(fullStepText(step, layout.titleColumn, ''), room),
    under: wrapText(stepDetail(step), width - ROW_INDENT).map((text) => indent + text),
  };
}

/**
 * The panel under the steps: warnings and diagnoses; then, with a `layout`, the whole detail of every
 * step the rows do not show whole (a row that cuts it, or a step folded into its chain's header),
 * passed steps too, under its title.
 */
export function diagnosisPanel(state: CheckState, width: number, layout?: StepLayout): Line[] {
  const lines: Line[] = [];
  for (const warning of state.warnings) lines.push(...wrapped(`! ${sanitize(warning)}`, width, '  ', 'warn'));
  for (const d of state.diagnoses) {
    const { heading, rows } = diagnosisLines(d);
    lines.push(...wrapped(heading, width, '  ', 'error'));
    for (const [label, text] of rows)
      for (const [i, part] of wrapText(text, width - LABEL_WIDTH).entries())
        lines.push({ text: (i === 0 ? `  ${label}` : '').padEnd(LABEL_WIDTH) + part });
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
  if (!layout) return lines;
  // After the diagnoses (scroll to them): each step detail the rows do not show whole.
  const shown = new Map(layout.groups.flatMap((g) => g.steps.map((s) => [s.id, s] as const)));
  const hidden = state.steps.filter((step) => {
    if (stepDetail(step) === '') return false;
    if (!shown.has(step.id)) return true;
    return !layout.wrap && cutsDetail(step, width - ROW_INDENT, layout.titleColumn);
  });
  if (hidden.length > 0) lines.push({ text: 'Step details', tone: 'heading' });
  for (const step of hidden) {
    lines.push(
      ...wrapped(`${STEP_GLYPH[step.state]} ${sanitize(step.title)}`, width, '  ', STATE_TONE[step.state]),
    );
    lines.push(...wrapped(`  ${stepDetail(step)}`, width, '  '));
  }
  return lines;
}

/** The HTTP trace, every line wrapped whole (a 64-character signature header included). */
export function tracePanel(state: CheckState, width: number): Line[] {
  if (state.trace.length === 0) return [{ text: 'No HTTP exchange yet.', tone: 'dim' }];
  return state.trace.flatMap((entry) => {
    const [request = '', ...headers] = traceLines(entry);
    const failed = entry.error !== undefined || (entry.status ?? 0) >= 400;
    return [
      ...wrapped(request, width, '    ', failed ? 'error' : 'heading'),
      // A header line keeps its two-space indent; what does not fit goes on under its name.
      ...headers.flatMap((text) =>
        wrapText(text.trimStart(), width - 2, '    ').map(
          (part): Line => ({ text: `  ${part}`, tone: 'dim' }),
        ),
      ),
    ];
  });
}

/** One chain on the screen: its header and step rows; steps folded into the header are counted there. */
export interface StepGroup {
  chain: Step['chain'];
  /** Set when steps are folded into the header, e.g. "✓ 4 steps passed" or "✓ 1 passed · – 2 skipped". */
  collapsed: string | null;
  steps: Step[];
}

/** The step area: the chains, the title column, and whether cut details wrap under their rows. */
export interface StepLayout {
  groups: StepGroup[];
  titleColumn: number;
  wrap: boolean;
  /** Rows the chains take: headers, step rows and the wrapped details under them. */
  rows: number;
}

const CHAIN_ORDER: Step['chain'][] = ['catalog', 'storage', 'write'];
/** The panel gets at least this many rows when steps can fold to make them. */
export const MIN_PANEL_ROWS = 6;
/** Chains folded whole when passed (first to last), or every chain's passed and skipped steps. */
type Fold = { chains: number } | 'steps';

const quiet = (s: Step) => s.state === 'ok' || s.state === 'skipped';

function fold(chain: Step['chain'], steps: Step[], whole: boolean | 'steps'): StepGroup {
  const open = { chain, collapsed: null, steps };
  if (!whole || steps.length === 0 || (whole === true && !steps.every(quiet))) return open;
  const folded = steps.filter(quiet);
  if (folded.length === 0) return open;
  const ok = folded.filter((s) => s.state === 'ok').length;
  const skipped = folded.length - ok;
  const collapsed =
    folded.length === steps.length && ok > 0
      ? `${STEP_GLYPH.ok} ${ok} ${ok === 1 ? 'step' : 'steps'} passed`
      : [
          ok > 0 ? `${STEP_GLYPH.ok} ${ok} passed` : '',
          skipped > 0 ? `${STEP_GLYPH.skipped} ${skipped} skipped` : '',
        ]
          .filter(Boolean)
          .join(' · ');
  return { chain, collapsed, steps: steps.filter((s) => !quiet(s)) };
}

function layoutAt(steps: Step[], width: number, how: Fold, wrap: boolean): StepLayout {
  const chains = CHAIN_ORDER.filter((chain, i) => i < 2 || steps.some((s) => s.chain === chain));
  const passed = chains.filter((chain) => {
    const own = steps.filter((s) => s.chain === chain);
    return own.length > 0 && own.every(quiet);
  });
  const groups = chains.map((chain) =>
    fold(
      chain,
      steps.filter((s) => s.chain === chain),
      how === 'steps' ? 'steps' : passed.indexOf(chain) >= 0 && passed.indexOf(chain) < how.chains,
    ),
  );
  // The title column fits the rows shown: folded steps leave their width to the details.
  const layout = { groups, titleColumn: titleWidth(groups.flatMap((g) => g.steps)), wrap, rows: 0 };
  layout.rows = groups.reduce(
    (n, g) => n + 1 + g.steps.reduce((m, s) => m + 1 + stepRows(s, width, layout).under.length, 0),
    0,
  );
  return layout;
}

/**
 * The step area for a `rows`-row terminal whose panel has `need` lines to show: the roomiest layout
 * (details wrapped under their steps, no chain folded) that leaves the panel all of them (at least
 * MIN_PANEL_ROWS); when none does, passed and skipped steps fold into their chain's header so the
 * panel gets the rest.
 */
export function stepLayout(
  steps: Step[],
  width: number,
  rows: number,
  footerRows: number,
  need: number,
): StepLayout {
  // From roomiest steps to roomiest panel: details wrapped or cut, then passed chains folded one by
  // one, then every passed and skipped step folded.
  const folds: Fold[] = [...[0, ...CHAIN_ORDER].map((_, i) => ({ chains: i })), 'steps'];
  let layout = layoutAt(steps, width, folds[0]!, true);
  for (const how of folds)
    for (const wrap of [true, false]) {
      layout = layoutAt(steps, width, how, wrap);
      if (room(rows, layout, footerRows) >= Math.max(need, MIN_PANEL_ROWS)) return layout;
    }
  return layout;
}

/**
 * Rows outside the panel: title, blank, the step area, blank, status line, panel header and footer;
 * one more row is kept free because Ink clears the screen when a frame fills it.
 */
function room(rows: number, layout: StepLayout, footerRows: number): number {
  return rows - (5 + footerRows + layout.rows) - 1;
}

export function panelHeight(rows: number, layout: StepLayout, footerRows = 1): number {
  return Math.max(1, room(rows, layout, footerRows));
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
