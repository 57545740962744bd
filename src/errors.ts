// Exit codes, and the one base class for failures meant for the user: `floe: <message>`, an optional hint line, an exit
// code, never a stack trace. Dependency-free, so the CLI entry can recognise them without loading the
// modules that throw them; domain code (management/) throws them without importing cli/.

export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, AUTH: 4, INTERRUPTED: 130 } as const;

/** Bad invocation: exit 2. Each line is printed on its own. */
export class UsageError extends Error {
  constructor(
    readonly lines: string[],
    readonly command?: string,
  ) {
    super(lines.join('\n'));
  }
}
export class FloeError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
  }
}
