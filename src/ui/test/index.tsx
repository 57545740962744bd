// `floe test` on a terminal: renders the connection-test screen until the user leaves it.
import { render } from 'ink';
import type { CheckReport } from '../../check/types.js';
import type { Values } from '../../destination/fields.js';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import { ConnectionTest, type ConnectionTestProps } from './ConnectionTest.js';
import type { ConnectionTestOptions } from './useConnectionTest.js';

export { ConnectionTest, type ConnectionTestProps } from './ConnectionTest.js';

export interface TestScreenOptions extends ConnectionTestOptions {
  /** Shown in the title, e.g. the profile name. */
  title?: string;
  /** What the `w` key's write check uses (see ConnectionTestProps). */
  writeWith?: ConnectionTestProps['writeWith'];
}

export interface TestScreenResult {
  /** The last run's report. */
  report: CheckReport;
  /** The user pressed Ctrl-C (exit 130) rather than leaving a finished run. */
  interrupted: boolean;
}

/** Renders the screen (Ctrl-C handled by the screen, not Ink), restores the terminal, then resolves. */
export function runTestScreen(values: Values, opts: TestScreenOptions): Promise<TestScreenResult> {
  return fullScreen(() => testScreen(values, opts));
}

async function testScreen(values: Values, opts: TestScreenOptions): Promise<TestScreenResult> {
  let result: TestScreenResult | undefined;
  const leave = (report: CheckReport, interrupted: boolean) => {
    if (result) return;
    result = { report, interrupted };
    app.unmount();
  };
  holdKeys();
  const app = render(
    <ConnectionTest
      values={values}
      {...opts}
      onDone={(report) => leave(report, false)}
      onInterrupt={(report) => leave(report, true)}
    />,
    { exitOnCtrlC: false },
  );
  await app.waitUntilExit();
  if (!result) throw new Error('the test screen closed without a result');
  return result;
}
