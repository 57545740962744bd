// floe logout: forget the stored OLake UI session and remembered password. The OLake UI has no logout
// route, so the server-side session simply expires (30 days).
import { openContext } from '../cli/context.js';
import { EXIT, FloeError, parseCommandArgs } from '../cli/io.js';
import { out, printHelp } from '../cli/output.js';
import { DEFAULT_USERNAME, originOf, savedUrl, settingsFor, urlFlag } from '../management/session.js';
import { accounts, KeychainUnavailableError } from '../secrets/store.js';

export const HELP = `Usage: floe logout [--url URL]

Forgets the stored OLake UI session cookie and the remembered password (from the OS keychain and
from floe's secrets file). The OLake UI has no logout route: the server forgets the session when it
expires.

Flags:
  --url URL   the OLake UI to log out of (default: the one "floe login" used)
  --help      this help`;

export async function run(argv: string[]): Promise<number> {
  const { values: flags } = parseCommandArgs('logout', argv, {
    url: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (flags.help) {
    printHelp(HELP);
    return EXIT.OK;
  }
  const ctx = openContext();
  const url = urlFlag(flags.url, 'logout') ?? savedUrl(ctx);
  const origin = originOf(url);
  const settings = settingsFor(ctx, url);
  const username = settings?.username ?? DEFAULT_USERNAME;
  const removed = { session: false, password: false };
  for (const kind of ['keychain', 'file'] as const) {
    const backend = ctx.vault.backend(kind);
    try {
      if (await backend.delete(accounts.session(origin))) removed.session = true;
      if (await backend.delete(accounts.password(origin, username))) removed.password = true;
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      if (settings?.secretStorage === 'keychain')
        throw new FloeError(
          `The session stored in the OS keychain cannot be removed: ${error.reason}`,
          'Fix the keychain and run "floe logout" again.',
        );
    }
  }
  if (settings) ctx.config.setManagement({ ...settings, secretStorage: undefined, rememberPassword: false });
  if (removed.session || removed.password)
    out`✓ Forgot ${[removed.session && 'the session', removed.password && 'the remembered password'].filter(Boolean).join(' and ')} for ${url}.`;
  else out`No stored session for ${url}; nothing to forget.`;
  return EXIT.OK;
}
