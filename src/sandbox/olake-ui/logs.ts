// A run's log as the OLake UI reads it: `olake.log` is JSON lines, and the API pages it by BYTE offsets
// (olake-ui v0.4.6 `server/internal/utils/log_utils.go`: ReadLogs, ReadLinesBackward, ReadLinesForward).
// Lines that are empty, not JSON or debug are skipped while reading; a partial last line (no newline
// yet) is not JSON, so it is skipped too, and a forward read's cursor still jumps past it to the file
// size. Followers must not trust `newer_cursor` after a short read.
import type { LogLine } from '../../management/types.js';

/** The bytes of olake.log: every complete line, then the partial one being written (if any). */
export function logFile(lines: LogLine[], partial = ''): Buffer {
  return Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join('') + partial, 'utf8');
}

function parseLine(raw: string): LogLine | undefined {
  const line = raw.trim();
  if (line === '') return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { level, time, message } = entry as Record<string, unknown>;
  if (level === 'debug') return undefined;
  const when = typeof time === 'string' ? new Date(time) : new Date(0);
  return {
    level: typeof level === 'string' ? level : '',
    time: Number.isNaN(when.getTime())
      ? '0001-01-01T00:00:00Z'
      : when.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    message: typeof message === 'string' ? message : JSON.stringify(message ?? null),
  };
}

/** ReadLinesBackward: valid lines ending before `start` (exclusive), oldest first. */
function readBackward(file: Buffer, start: number, limit: number) {
  const from = Math.min(start, file.length);
  const found: { line: LogLine; pos: number }[] = [];
  let end = from;
  while (end > 0 && found.length < limit) {
    const nl = file.lastIndexOf(0x0a, end - 1);
    const pos = nl + 1;
    const line = parseLine(file.subarray(pos, end).toString('utf8'));
    if (line) found.push({ line, pos });
    end = nl < 0 ? 0 : nl;
  }
  if (found.length === 0) return { lines: [] as LogLine[], offset: 0, more: false };
  const offset = (found.at(-1) as { pos: number }).pos;
  const more = offset > 0 && found.length === limit;
  return { lines: found.reverse().map((f) => f.line), offset: more ? offset : 0, more };
}

/** ReadLinesForward: valid lines from `start` (inclusive); the offset jumps to EOF unless the limit hit. */
function readForward(file: Buffer, start: number, limit: number) {
  let offset = Math.max(start, 0);
  if (offset >= file.length) return { lines: [] as LogLine[], offset: file.length, more: false };
  const lines: LogLine[] = [];
  while (lines.length < limit && offset < file.length) {
    const nl = file.indexOf(0x0a, offset);
    const end = nl < 0 ? file.length : nl + 1;
    const line = parseLine(file.subarray(offset, end).toString('utf8'));
    if (line) lines.push(line);
    offset = end;
  }
  const more = offset < file.length && lines.length === limit;
  return { lines, offset: more ? offset : file.length, more };
}

/** ReadLogs: `cursor=-1` tails; `direction` is `older` (default) or `newer`; `limit` ≤ 0 means 1000. */
export function pageLogs(file: Buffer, params: URLSearchParams) {
  const size = file.length;
  const rawLimit = Number.parseInt(params.get('limit') ?? '', 10);
  const limit = Number.isNaN(rawLimit) || rawLimit <= 0 ? 1000 : rawLimit;
  const rawCursor = Number.parseInt(params.get('cursor') ?? '', 10);
  let cursor = Number.isNaN(rawCursor) ? -1 : Math.min(rawCursor, size);
  const newer = (params.get('direction') ?? '').trim().toLowerCase() === 'newer';
  if (cursor < 0 || !newer) {
    if (cursor < 0) cursor = size;
    const back = readBackward(file, cursor, limit);
    return {
      logs: back.lines,
      older_cursor: back.offset,
      newer_cursor: cursor,
      has_more_older: back.more,
      has_more_newer: cursor < size,
    };
  }
  const fwd = readForward(file, cursor, limit);
  return {
    logs: fwd.lines,
    older_cursor: cursor,
    newer_cursor: fwd.offset,
    has_more_older: cursor > 0,
    has_more_newer: fwd.more,
  };
}
