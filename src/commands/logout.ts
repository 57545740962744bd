// floe logout: forget the stored OLake UI session and remembered password. The OLake UI has no logout
// route, so the server-side session simply expires (30 days).
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs } from '../cli/io.js';
import { savedUrl, storeLogout, urlFlag } from '../management/session.js';
import { KeychainUnavailableError } from '../secrets/store.js';

export const HELP = `Usage: floe logout [--url URL]

Forgets the stored OLake UI session cookie and the remembered password (from the OS keychain or
floe's secrets file, where "floe login" kept them). The OLake UI has no logout route: the server
forgets the session when it expires.

Flags:
  --url URL   the OLake UI to log out of (default: the one "floe login" used)
  --help      this help`;

export interface Options {
  help: boolean;
  /** The OLake UI named by --url (checked), else the one "floe login" used. */
  url?: string;
}

export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('logout', argv, {
    url: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (flags.help) return { help: true };
  const url = urlFlag(flags.url, 'logout');
  return { help: false, url };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const ctx = await io.openContext();
  const url = options.url ?? savedUrl(ctx);
  let removed: { session: boolean; password: boolean };
  try {
    removed = await storeLogout(ctx, url);
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new FloeError(
      `The session stored in the OS keychain cannot be removed: ${error.reason}`,
      'Fix the keychain and run "floe logout" again.',
    );
  }
  if (removed.session || removed.password)
    io.out`✓ Forgot ${[removed.session && 'the session', removed.password && 'the remembered password'].filter(Boolean).join(' and ')} for ${url}.`;
  else io.out`No stored session for ${url}; nothing to forget.`;
  return EXIT.OK;
}
