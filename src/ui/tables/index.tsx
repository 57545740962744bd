// The tables screen on its own (`floe tables` on a terminal, the home screen's b): full screen, Esc or q
// leaves (0), Ctrl-C leaves with 130.
import { render } from 'ink';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import { TablesBrowser } from './TablesBrowser.js';
import type { TablesSource } from './useTables.js';

export { TablesBrowser } from './TablesBrowser.js';
export type { TablesSource } from './useTables.js';

export function runTablesBrowser(source: TablesSource): Promise<number> {
  return fullScreen(async () => {
    let finish: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => {
      finish = resolve;
    });
    holdKeys();
    const app = render(
      <TablesBrowser source={source} onExit={(interrupted) => finish(interrupted ? 130 : 0)} />,
      {
        exitOnCtrlC: false,
      },
    );
    try {
      return await exited;
    } finally {
      app.unmount();
      await app.waitUntilExit().catch(() => undefined);
    }
  });
}
