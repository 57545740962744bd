// The connection-test screen: live step list (Catalog, Object store), then diagnoses or the HTTP
// trace. Thin: the state comes from useConnectionTest, the lines from layout.ts.
import { Box } from 'ink';
import { useState } from 'react';
import type { WriteOptions } from '../../check/chain.js';
import type { CheckReport, Step } from '../../check/types.js';
import { abandonedReport, toReport } from '../../connection/reducer.js';
import { CHAIN_TITLE, STEP_GLYPH, summaryLine, truncate } from '../../connection/text.js';
import type { Values } from '../../destination/fields.js';
import { OLAKE_CHECK_NAMESPACE } from '../../destination/values.js';
import { charOf, isInterrupt } from '../../text/keys.js';
import { KeyHints } from '../components/KeyHints.js';
import { Text } from '../components/Text.js';
import { useKeys } from '../components/useKeys.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import {
  diagnosisPanel,
  hintRows,
  type Line,
  panelHeight,
  type ScrollKey,
  STATE_TONE,
  type StepLayout,
  scrolled,
  scrollPanel,
  stepLayout,
  stepRows,
  type Tone,
  tracePanel,
} from './layout.js';
import { Spinner } from './Spinner.js';
import { type ConnectionTestOptions, useConnectionTest } from './useConnectionTest.js';

export interface ConnectionTestProps extends ConnectionTestOptions {
  values: Values;
  /** Shown after "Connection test", e.g. the profile name. */
  title?: string;
  /** The user left a finished run (Esc or q), with its report. */
  onDone: (report: CheckReport) => void;
  /** Ctrl-C: the run is aborted and its unfinished steps count as cancelled. Defaults to onDone. */
  onInterrupt?: (report: CheckReport) => void;
  /** What leaving means in the footer: "quit" on its own, "back" inside the wizard. */
  leaveLabel?: string;
  /** Spinner frame interval; 0 shows a still frame (tests, screenshots). */
  spinnerMs?: number;
  /** What `w` (run with the write check) uses: the namespace, and the journal and profile of the config folder. */
  writeWith?: Omit<WriteOptions, 'keep' | 'cleanupOnly'>;
}

function toneProps(tone: Tone | undefined) {
  switch (tone) {
    case 'ok':
      return { color: 'green' };
    case 'error':
      return { color: 'red' };
    case 'warn':
      return { color: 'yellow' };
    case 'active':
      return { color: 'cyan' };
    case 'dim':
      return { dimColor: true };
    case 'heading':
      return { bold: true };
    default:
      return {};
  }
}

function StepRow({
  step,
  width,
  layout,
  spinnerMs,
}: {
  step: Step;
  width: number;
  layout: StepLayout;
  spinnerMs?: number;
}) {
  const tone = toneProps(STATE_TONE[step.state]);
  const { row, under } = stepRows(step, width, layout);
  return (
    <>
      <Text wrap="truncate">
        {'  '}
        {step.state === 'running' ? (
          <Spinner intervalMs={spinnerMs} />
        ) : (
          <Text {...tone}>{STEP_GLYPH[step.state]}</Text>
        )}{' '}
        <Text dimColor={step.state === 'pending'}>{row}</Text>
      </Text>
      {under.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one wrapped detail, in order
        <Text key={i} wrap="truncate" dimColor>
          {text}
        </Text>
      ))}
    </>
  );
}

function PanelLine({ line }: { line: Line }) {
  return (
    <Text wrap="truncate" {...toneProps(line.tone)}>
      {line.text || ' '}
    </Text>
  );
}

export function ConnectionTest({
  values,
  title,
  onDone,
  onInterrupt,
  leaveLabel = 'quit',
  spinnerMs,
  writeWith = { namespace: [OLAKE_CHECK_NAMESPACE] },
  ...opts
}: ConnectionTestProps) {
  const size = useTerminalSize();
  const width = size.columns;
  const { state, writing, start, cancel } = useConnectionTest(values, opts);
  const [verbose, setVerbose] = useState(false);
  const [offset, setOffset] = useState(0);

  const finished = state.phase === 'done';
  const hints: [string, string][] = finished
    ? [
        ['r', 're-run'],
        ...(opts.readOnly ? [] : [['w', writing ? 'no write' : 'write'] as [string, string]]),
        ['v', verbose ? 'diagnoses' : 'HTTP trace'],
        ['Esc/q', leaveLabel],
      ]
    : [
        ['Esc', 'cancel'],
        ['v', verbose ? 'diagnoses' : 'HTTP trace'],
      ];
  hints.push(['Ctrl-C', 'quit']);
  const scrollHint: [string, string] = ['↑↓ PgUp/Dn', 'scroll'];
  // The footer may wrap at 80 columns once the scroll hint joins it: the panel gives up that row.
  const footer = (scrolling: boolean) =>
    scrolling ? [...hints.slice(0, -1), scrollHint, hints[hints.length - 1]!] : hints;
  // The steps take the rows the panel does not need; a detail they do not show whole follows the diagnoses.
  const needed = verbose ? tracePanel(state, width) : diagnosisPanel(state, width);
  const arrange = (footerRows: number) => {
    const layout = stepLayout(state.steps, width, size.rows, footerRows, needed.length);
    const lines = verbose ? needed : diagnosisPanel(state, width, layout);
    return { layout, lines, height: panelHeight(size.rows, layout, footerRows) };
  };
  let arranged = arrange(hintRows(footer(false), width));
  if (arranged.lines.length > arranged.height) arranged = arrange(hintRows(footer(true), width));
  const { layout, lines, height } = arranged;
  const panel = scrollPanel(lines, offset, height);
  // Several scroll keys may arrive in one read: each moves from where the one before it left.
  const scroll = (by: ScrollKey) => setOffset((o) => scrolled(Math.min(o, panel.offset), by, height));

  // One call per key, in order, however many arrive in one read ("v" then Ctrl-C, say); the keys after
  // the one that leaves go to the next screen.
  useKeys((key) => {
    const input = charOf(key);
    if (isInterrupt(key)) {
      cancel();
      (onInterrupt ?? onDone)(abandonedReport(state));
      return 'leave';
    }
    if (key.name === 'escape' || input === 'q') {
      if (finished) {
        onDone(toReport(state));
        return 'leave';
      }
      if (key.name === 'escape') cancel();
    } else if (input === 'r') {
      if (finished) {
        setOffset(0);
        start();
      }
    } else if (input === 'w') {
      if (finished && !opts.readOnly) {
        setOffset(0);
        start(writing ? null : { ...writeWith, keep: false });
      }
    } else if (input === 'v') {
      setVerbose((v) => !v);
      setOffset(0);
    } else if (key.name === 'up') scroll('up');
    else if (key.name === 'down') scroll('down');
    else if (key.name === 'pageup') scroll('pageUp');
    else if (key.name === 'pagedown') scroll('pageDown');
    else if (key.name === 'home' || input === 'g') scroll('top');
    else if (key.name === 'end' || input === 'G') scroll('bottom');
  });

  const done = state.steps.filter((s) => s.state !== 'pending' && s.state !== 'running').length;
  const status =
    state.phase === 'done' ? (
      <Text bold>{summaryLine(toReport(state))}</Text>
    ) : state.phase === 'cancelling' ? (
      <Text color="yellow">{STEP_GLYPH.cancelled} Cancelling…</Text>
    ) : (
      <Text>
        <Spinner intervalMs={spinnerMs} /> Testing… {done}/{state.steps.length} steps done
      </Text>
    );

  const heading = [
    'Connection test',
    title,
    state.run > 1 ? `run ${state.run}` : '',
    opts.readOnly ? 'read-only' : '',
    writing ? 'with write check' : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const panelTitle = verbose ? `HTTP trace (${state.trace.length})` : `Diagnoses (${state.diagnoses.length})`;

  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate">
        {truncate(heading, width)}
      </Text>
      <Text> </Text>
      {layout.groups.map(({ chain, collapsed, steps }) => (
        <Box key={chain} flexDirection="column">
          <Text bold wrap="truncate">
            {collapsed ? (
              <>
                {CHAIN_TITLE[chain]} <Text color="green">{collapsed}</Text>
              </>
            ) : (
              CHAIN_TITLE[chain]
            )}
          </Text>
          {steps.map((step) => (
            <StepRow key={step.id} step={step} width={width} layout={layout} spinnerMs={spinnerMs} />
          ))}
        </Box>
      ))}
      <Text> </Text>
      {status}
      <Text bold wrap="truncate">
        {truncate([panelTitle, panel.position].filter(Boolean).join(' · '), width)}
      </Text>
      {panel.visible.map((line) => (
        <PanelLine key={line.row} line={line} />
      ))}
      <KeyHints hints={footer(panel.position !== '')} />
    </Box>
  );
}
