// The one base class for failures meant for the user: `floe: <message>`, an optional hint line, an exit
// code, never a stack trace. Dependency-free, so the CLI entry can recognise them without loading the
// modules that throw them.
export class FloeError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
  }
}
