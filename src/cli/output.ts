// The one place that decides what a closed output pipe means: `floe jobs | head -1` ends quietly with
// status 0, as gh, git and coreutils do, instead of Node's "write EPIPE … Unhandled 'error' event".

type Stream = Pick<NodeJS.WriteStream, 'on'>;

/** True for the errors a write to a closed pipe (or a closed terminal) gives. */
export function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * Ends the process with status 0 once stdout or stderr is closed by its reader; any other write error
 * is reported as usual. `exit` is process.exit, replaced in tests.
 */
export function quietOnClosedPipes(
  streams: Stream[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  for (const stream of streams)
    stream.on('error', (error: unknown) => {
      if (isClosedPipe(error)) exit(0);
      else throw error;
    });
}
