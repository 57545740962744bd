// The Logs pane: a failed run's diagnosis on top, then the log lines (wrapped, or cut with w), the
// selected one marked; Enter opens a line whole in a scrollable view; / searches; f follows a run.
import { Box } from 'ink';
import { truncate, wrapText } from '../../connection/text.js';
import { serverText } from '../../management/text.js';
import type { LogLine } from '../../management/types.js';
import { Text } from '../components/Text.js';
import { type LogView, selectedLine } from './logview.js';
import type { DetailState, Failure } from './state.js';

function levelColor(level: string): 'red' | 'yellow' | undefined {
  const lower = level.toLowerCase();
  if (lower === 'error' || lower === 'fatal') return 'red';
  if (lower === 'warn' || lower === 'warning') return 'yellow';
  return undefined;
}

const lineText = (line: LogLine) => serverText(`${line.time} ${line.level.padEnd(5)} ${line.message}`);

interface Row {
  key: string;
  text: string;
  level: string;
  selected: boolean;
}

/** The screen rows of the lines, a window of `height` rows that keeps the selected line in view. */
export function logRows(lines: LogLine[], at: number, wrap: boolean, width: number, height: number): Row[] {
  const rows: Row[] = [];
  let selectedStart = 0;
  let selectedEnd = 0;
  lines.forEach((line, index) => {
    const text = lineText(line);
    const parts = wrap ? wrapText(text, width - 2, '  ') : [truncate(text, width - 2)];
    if (index === at) selectedStart = rows.length;
    parts.forEach((part, n) => {
      rows.push({ key: `${index}:${n}`, text: part, level: line.level, selected: index === at });
    });
    if (index === at) selectedEnd = rows.length;
  });
  // A selected line taller than the pane shows from its start (Enter opens it whole).
  if (selectedEnd - selectedStart > height) return rows.slice(selectedStart, selectedStart + height);
  const end = Math.max(Math.min(rows.length, height), selectedEnd);
  const shown = rows.slice(Math.max(0, end - height), end);
  // Start at the beginning of a line, not in the middle of a wrapped one.
  while (shown.length > 1 && !shown[0]?.key.endsWith(':0')) shown.shift();
  return shown;
}

function Diagnoses({ view, width }: { view: LogView; width: number }) {
  const [first, ...rest] = view.diagnoses ?? [];
  if (!first) return null;
  return (
    <Box flexDirection="column">
      <Text color="red" wrap="truncate-end">
        ✗ {first.code}: {first.what}
        {rest.length > 0 ? ` (+${rest.length} more)` : ''}
      </Text>
      <Text wrap="truncate-end">{truncate(`  Remedy: ${first.remedy}`, width)}</Text>
    </Box>
  );
}

function WholeLine({
  line,
  top,
  width,
  height,
}: {
  line: LogLine;
  top: number;
  width: number;
  height: number;
}) {
  const rows = wrapText(serverText(line.message), width);
  const from = Math.min(top, Math.max(0, rows.length - height + 1));
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {line.time} {line.level.toUpperCase()} · line in full ({rows.length} rows) · ↑↓ scroll · Esc back
      </Text>
      {rows.slice(from, from + height - 1).map((row, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped rows of one line are its screen lines
        <Text key={n} color={levelColor(line.level)}>
          {row}
        </Text>
      ))}
    </Box>
  );
}

function FailureText({ failure }: { failure: Failure }) {
  return (
    <Text color="red" wrap="truncate-end">
      ✗ {failure.message}
    </Text>
  );
}

export function LogPane({ detail, height, width }: { detail: DetailState; height: number; width: number }) {
  const logs = detail.logs;
  if (!logs) return <Text dimColor>Choose a run in Runs and press Enter to read its logs.</Text>;
  const { page, view } = logs;
  const lines = page?.logs ?? [];
  const at = selectedLine(view, page);
  if (view.whole && lines[view.whole.index])
    return (
      <WholeLine
        line={lines[view.whole.index] as LogLine}
        top={view.whole.top}
        width={width}
        height={height}
      />
    );
  const paging = page
    ? ` · [ older${page.has_more_older ? '' : ' (none)'} · ] newer${page.has_more_newer ? '' : ' (none)'}`
    : '';
  const diagnosisRows = view.diagnoses && view.diagnoses.length > 0 ? 2 : 0;
  const rows = logRows(
    lines,
    at,
    detail.wrap,
    width,
    Math.max(1, height - 1 - diagnosisRows - (logs.failure ? 1 : 0)),
  );
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        Run {logs.task.start_time} {logs.task.status}
        {logs.loading ? ' · loading…' : ''}
        {view.follow ? ' · following (f stops)' : paging}
        {view.search && !view.searching ? ` · /${view.search}` : ''}
      </Text>
      <Diagnoses view={view} width={width} />
      {logs.failure && <FailureText failure={logs.failure} />}
      {page?.logs.length === 0 && <Text dimColor>No log lines.</Text>}
      {rows.map((row) => (
        <Text key={row.key} wrap="truncate-end">
          {row.selected ? <Text color="cyan">› </Text> : '  '}
          <Text color={levelColor(row.level)} inverse={row.selected && view.search !== ''}>
            {row.text}
          </Text>
        </Text>
      ))}
    </Box>
  );
}
