// Entry point of the home screen (`floe` with no arguments on a terminal).
import { render } from 'ink';
import type { Context } from '../../app/context.js';
import { holdKeys } from '../../text/keys.js';
import { fullScreen } from '../components/fullScreen.js';
import { Home } from './Home.js';
import type { HomeAction, HomeMessage } from './model.js';

export type { HomeAction } from './model.js';

/**
 * Shows the home screen (`floe`: how this floe is run, for its hints), `selected` highlighted, until the
 * user picks an action; Ink has unmounted when this resolves.
 */
export function runHome(
  ctx: Context,
  floe: string,
  selected?: string,
  message?: HomeMessage,
  facts?: () => string,
): Promise<HomeAction> {
  return fullScreen(() => home(ctx, floe, selected, message, facts));
}

async function home(
  ctx: Context,
  floe: string,
  selected?: string,
  message?: HomeMessage,
  facts?: () => string,
): Promise<HomeAction> {
  let action: HomeAction = { type: 'quit' };
  holdKeys();
  const app = render(
    <Home
      ctx={ctx}
      floe={floe}
      selected={selected}
      message={message}
      facts={facts}
      onAction={(chosen) => {
        action = chosen;
      }}
    />,
    { exitOnCtrlC: false },
  );
  await app.waitUntilExit();
  return action;
}
