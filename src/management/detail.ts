// Reads a job's detail without holding its `streams_config`. The OLake UI's `GET …/jobs/:id` embeds the
// job's whole stream catalog as one JSON string (olake-ui `services/etl/job.go` buildJobResponse); for a
// schema-per-tenant source that is tens of megabytes, while floe shows only how many streams it selects.
// This scanner walks the body as it arrives, keeps everything else, and replaces that one string by
// "" while counting its size and its selected streams. Memory stays bounded by what is kept.

/** What the detail said about its streams, without the streams themselves. */
export interface StreamsSummary {
  /** Length of the `streams_config` string as sent (escaped JSON), in bytes. */
  bytes: number;
  /** How many streams `selected_streams` lists. */
  selected: number;
  /** The `streams_config` string itself (unescaped), when it is at most `keepStreamsBytes` long. */
  config?: string;
}

const SKIP_KEY = 'streams_config';
/** In the escaped string, each selected stream carries `\"stream_name\"`. */
const COUNT_TOKEN = 'stream_name';

type Frame = { kind: 'object'; key: string | undefined; expectKey: boolean } | { kind: 'array' };

export class DetailScanner {
  #kept: string[] = [];
  #keptBytes = 0;
  #stack: Frame[] = [];
  #inString = false;
  #escape = false;
  #stringIsKey = false;
  #keyChars: string[] = [];
  #skipping = false;
  #pendingSkip = false;
  #matched = 0;
  #raw: string[] = [];
  readonly streams: StreamsSummary = { bytes: 0, selected: 0 };

  /** `keepStreamsBytes`: keep `streams_config` too when it is at most this long (escaped), for its tables. */
  constructor(
    readonly maxKeptBytes: number,
    readonly keepStreamsBytes = 0,
  ) {}

  /** Feeds the next decoded piece of the body; throws a RangeError past `maxKeptBytes` kept. */
  push(text: string): void {
    let runStart = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (this.#skipping) {
        this.streams.bytes++;
        if (this.#escape) this.#escape = false;
        else if (c === '\\') this.#escape = true;
        else if (c === '"') {
          this.#skipping = false;
          this.#keepStreams();
          runStart = i;
          continue;
        }
        if (this.streams.bytes <= this.keepStreamsBytes) this.#raw.push(c);
        this.#count(c);
        continue;
      }
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (c === '\\') this.#escape = true;
        else if (c === '"') {
          this.#inString = false;
          if (this.#stringIsKey) {
            const top = this.#stack.at(-1);
            if (top?.kind === 'object') top.key = this.#keyChars.join('');
          }
        }
        if (this.#stringIsKey && this.#inString) this.#keyChars.push(c);
        continue;
      }
      const top = this.#stack.at(-1);
      switch (c) {
        case '"':
          if (this.#pendingSkip) {
            // Keep the opening quote; keeping resumes at the closing one.
            this.#pendingSkip = false;
            this.#skipping = true;
            this.#keep(text, runStart, i + 1);
            continue;
          }
          this.#inString = true;
          this.#stringIsKey = top?.kind === 'object' && top.expectKey;
          this.#keyChars = [];
          break;
        case '{':
          this.#stack.push({ kind: 'object', key: undefined, expectKey: true });
          break;
        case '[':
          this.#stack.push({ kind: 'array' });
          break;
        case '}':
        case ']':
          this.#stack.pop();
          break;
        case ',':
          if (top?.kind === 'object') top.expectKey = true;
          break;
        case ':':
          if (top?.kind === 'object') {
            top.expectKey = false;
            this.#pendingSkip = top.key === SKIP_KEY && this.#isJobLevel();
          }
          break;
        default:
          if (this.#pendingSkip && !/\s/.test(c)) this.#pendingSkip = false;
      }
    }
    if (!this.#skipping) this.#keep(text, runStart, text.length);
  }

  /** The string's escaped text back to its value, when all of it was kept. */
  #keepStreams(): void {
    const raw = this.#raw.join('');
    this.#raw = [];
    if (this.streams.bytes - 1 > this.keepStreamsBytes) return;
    try {
      this.streams.config = JSON.parse(`"${raw}"`) as string;
    } catch {
      // Not a JSON string after all: the count stands, the tables cannot be named.
    }
  }

  /** The kept JSON text. */
  text(): string {
    return this.#kept.join('');
  }

  /** `data.streams_config`: the envelope is depth 1, `data` depth 2. */
  #isJobLevel(): boolean {
    const outer = this.#stack[0];
    return this.#stack.length === 2 && outer?.kind === 'object' && outer.key === 'data';
  }

  #keep(text: string, from: number, to: number): void {
    if (to <= from) return;
    const piece = text.slice(from, to);
    this.#keptBytes += piece.length;
    if (this.#keptBytes > this.maxKeptBytes) throw new RangeError('kept too much');
    this.#kept.push(piece);
  }

  #count(c: string): void {
    if (c === COUNT_TOKEN[this.#matched]) {
      this.#matched++;
      if (this.#matched === COUNT_TOKEN.length) {
        this.streams.selected++;
        this.#matched = 0;
      }
    } else this.#matched = c === COUNT_TOKEN[0] ? 1 : 0;
  }
}
