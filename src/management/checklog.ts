// A failed server-side destination test on olake ≥ v0.9.0: the worker hands back the `check`
// container's whole log (olake-helm `worker/executor/docker/container.go` ErrExecutionFailed), and the
// OLake UI answers 400 "failed to verify driver credentials: … exited with status N: <log>"
// (olake-ui `handlers/etl/destination.go`). This keeps the error lines and the log apart.
import type { LogLine } from './types.js';

export interface ReducedCheck {
  /** The server's sentence and the error lines of the log, nothing else. */
  message: string;
  /** Every line of the container log (parsed JSON lines; other text as level ""). */
  logs: LogLine[];
}

const EXITED = /\bexited with status (\d+):\s*/;
const ERROR_LEVELS = new Set(['error', 'fatal', 'panic']);

function parse(raw: string): LogLine | undefined {
  const line = raw.trim();
  if (line === '') return undefined;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (typeof entry === 'object' && entry !== null && 'message' in entry)
      return {
        level: typeof entry.level === 'string' ? entry.level : '',
        time: typeof entry.time === 'string' ? entry.time : '',
        message: typeof entry.message === 'string' ? entry.message : JSON.stringify(entry.message),
      };
  } catch {
    // plain text from the container (a JVM stack trace, a shell message)
  }
  return { level: '', time: '', message: line };
}

const isError = (l: LogLine) =>
  ERROR_LEVELS.has(l.level.toLowerCase()) ||
  (l.level === '' && /\b(error|exception|fatal)\b/i.test(l.message) && !/^\s*at\s/.test(l.message));

/** Splits "… exited with status N: <log>" into its error lines and the whole log; other text as is. */
export function reduceCheckFailure(serverMessage: string): ReducedCheck {
  const match = EXITED.exec(serverMessage);
  if (!match) return { message: serverMessage, logs: [] };
  const head = serverMessage.slice(0, match.index).replace(/[:\s]+$/, '');
  const logs = serverMessage
    .slice(match.index + match[0].length)
    .split(/\r?\n/)
    .map(parse)
    .filter((l): l is LogLine => l !== undefined);
  const errors = [...new Set(logs.filter(isError).map((l) => l.message))];
  const summary = `${head} (exited with status ${match[1]})`;
  return { message: errors.length > 0 ? `${summary}: ${errors.join(' | ')}` : summary, logs };
}
