// `floe jobs` interactive browser: full screen, q quits (0), Ctrl-C quits (130).
import { render } from 'ink';
import type { JobsApi } from '../../management/types.js';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import { JobsBrowser, type JobsBrowserProps } from './JobsBrowser.js';

export { humaniseCron } from './cron.js';
export { JobsBrowser, type JobsBrowserProps } from './JobsBrowser.js';
export { initialState, jobsReducer } from './state.js';

export interface RunJobsBrowserOptions {
  api: JobsApi;
  project: string;
  /** Auto-refresh period in ms (default 10 s). */
  refreshMs?: number;
  /** Signs in again; without a password it may use a remembered one. */
  relogin: (password?: string) => Promise<void>;
  /** Makes a job's destination testable (t in the detail). */
  prepareTest?: JobsBrowserProps['prepareTest'];
  /** The tables of a job's streams (b in the detail). */
  prepareTables?: JobsBrowserProps['prepareTables'];
  /** Who signs in where, for the sign-in screens. */
  account?: JobsBrowserProps['account'];
  /** The command's environment (io.env), for t's connection test. */
  env: NodeJS.ProcessEnv;
}

/** Renders the browser on the alternate screen until the user quits; resolves the exit code. */
export function runJobsBrowser(options: RunJobsBrowserOptions): Promise<number> {
  return fullScreen(() => browse(options));
}

async function browse({
  api,
  project,
  refreshMs = 10_000,
  relogin,
  prepareTest,
  prepareTables,
  account,
  env,
}: RunJobsBrowserOptions): Promise<number> {
  let finish: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const onTerm = () => finish(143);
  const onHup = () => finish(129);
  process.once('SIGTERM', onTerm);
  process.once('SIGHUP', onHup);
  holdKeys();
  const app = render(
    <JobsBrowser
      api={api}
      project={project}
      refreshMs={refreshMs}
      relogin={relogin}
      onExit={finish}
      prepareTest={prepareTest}
      prepareTables={prepareTables}
      account={account}
      env={env}
    />,
    { exitOnCtrlC: false },
  );
  try {
    return await exited;
  } finally {
    app.unmount();
    await app.waitUntilExit().catch(() => undefined);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
  }
}
