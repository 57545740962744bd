// A connection test's result without a screen, written once for `floe test` and `floe jobs test`: one
// JSON document (--json), or a line per finished step as it ends, then the diagnoses and the summary.

import type { CheckEvent, CheckReport } from '../check/types.js';
import type { Io } from '../cli/command-io.js';
import { EXIT } from '../cli/io.js';
import { printJson } from '../cli/output.js';
import { isFinal } from '../connection/reducer.js';
import { reportText, stepLine } from '../connection/text.js';

export interface CheckOutput {
  json: boolean;
  /** Plain lines before the steps (what is tested). */
  heading?: readonly string[];
  /** With --json on a terminal's stderr: each finished step there too. */
  progress?: boolean;
  /** The JSON document for the report (default: the report). */
  document?: (report: CheckReport) => unknown;
}

/** Runs `check` (given where its events go) and writes its result; the exit code: 0 passed, 1 not. */
export async function writeCheck(
  io: Pick<Io, 'out' | 'err'>,
  output: CheckOutput,
  check: (onEvent: ((event: CheckEvent) => void) | undefined) => Promise<CheckReport>,
): Promise<number> {
  const finished = (to: Io['out']) => (event: CheckEvent) => {
    if (event.type === 'step' && isFinal(event.step.state)) to`${stepLine(event.step)}`;
  };
  if (output.json) {
    const report = await check(output.progress && io.err.isTTY ? finished(io.err) : undefined);
    printJson(output.document ? output.document(report) : report, io.out);
    return report.ok ? EXIT.OK : EXIT.FAILURE;
  }
  for (const text of output.heading ?? []) io.out`${text}`;
  const report = await check(finished(io.out));
  for (const text of reportText(report)) io.out`${text}`;
  return report.ok ? EXIT.OK : EXIT.FAILURE;
}
