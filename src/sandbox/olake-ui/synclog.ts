// A failed sync's log laid out as OLake prints it, for the emulator's failing jobs and the diagnosis
// tests. The facts (datazip-inc/olake @2b1f68a9, v0.9.4):
// - every line is a zerolog JSON entry {level, time, message} (utils/logger/logger.go:243);
// - the sync starts with "Ruuning OLake sync with version …" and its state (protocol/sync.go:84-87);
// - the Iceberg writer JVM's stdout and stderr are re-logged line by line with the prefix
//   "Iceberg[50051] " (destination/iceberg/java_client.go:214, logger.go:321-324), at level error when
//   the line matches (ERROR|FATAL|Exception|Error:|Failed to|…) or is a stack frame, else info
//   (logger.go:286-320);
// - the JVM's log4j2 layout is "%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n" (olake-iceberg-java-
//   writer/src/main/resources/log4j2.xml:5); {36} keeps 36 rightmost name parts, i.e. the whole name;
// - a failed request is logged by OlakeRowsIngester as "<requestId> Failed to process request: <message>"
//   with the exception, and returned to Go as gRPC INTERNAL with that text (OlakeRowsIngester.java:189-191);
// - Go wraps it ("failed to write records: %s", destination/writers.go:272; "error occurred while reading
//   records: %s", protocol/sync.go:167) and the root command ends with logger.Fatal (protocol/root.go:154).
import type { LogLine } from '../../management/types.js';

/** Where a failure's text comes from, which decides how it is laid out. */
export type FailureOrigin =
  /** An exception thrown inside the Java writer while serving a request (toString: "Class: message"). */
  | 'java'
  /** A line the JVM prints itself (log4j WARN/ERROR line body, or a raw stderr line). */
  | 'jvm'
  /** A Go error that ends the sync (the driver, the writer pool, a source driver). */
  | 'go';

export interface FailureText {
  origin: FailureOrigin;
  /** Verbatim: an exception's toString, a JVM line, or a Go error string. */
  text: string;
  /** 'java': the exception's causes ("Caused by: …" lines, verbatim) and stack frames, after its own line. */
  causedBy?: string[];
  frames?: string[];
  /** 'jvm': the line was logged through log4j (level, logger) rather than printed raw. */
  log4j?: { level: 'WARN' | 'ERROR'; logger: string; thread: string };
  /** Lines that follow it (e.g. the Go driver's refused gRPC connection after the JVM died). */
  followedBy?: { level: 'error' | 'fatal'; message: string }[];
}

export const WRITER_PREFIX = 'Iceberg[50051]';
const REQUEST = '[Thread-57-81234567890123]';

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/** The message a Java exception's toString carries after its class name. */
function javaMessage(text: string): string {
  const m = /^[\w.$]+(?:Exception|Error): /.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/** How many lines the preamble has (the Go driver's start and the JVM's start). */
export const PREAMBLE_LINES = 6;

/** The lines of one failed sync run, preamble included, starting at `start` (ms). */
export function syncFailureLog(failure: FailureText, start: number, version = 'v0.9.4'): LogLine[] {
  const lines: LogLine[] = [];
  let t = start;
  const at = (level: string, message: string, step = 150) => {
    t += step;
    lines.push({ level, time: new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'), message });
  };
  const jvm = (level: string, thread: string, logger: string, text: string) =>
    `${WRITER_PREFIX} ${clock(t)} [${thread}] ${level.padEnd(5)} ${logger} - ${text}`;
  at('info', `Ruuning OLake sync with version ${version}`);
  at('info', 'Running sync with state: {"type":"STREAM","version":1,"streams":[]}');
  at('info', 'Valid selected streams are public.orders');
  at(
    'info',
    jvm('INFO', 'main', 'io.debezium.server.iceberg.OlakeRpcServer', 'Logs will be output to console only'),
  );
  at(
    'info',
    jvm(
      'INFO',
      'main',
      'io.debezium.server.iceberg.OlakeRpcServer',
      'Server started on port 50051 with max message size: 1024MB',
    ),
  );
  at('info', 'Started shared Iceberg JVM on port 50051');
  switch (failure.origin) {
    case 'java': {
      const message = javaMessage(failure.text);
      at(
        'error',
        jvm(
          'ERROR',
          'grpc-default-executor-0',
          'io.debezium.server.iceberg.rpc.OlakeRowsIngester',
          `${REQUEST} Failed to process request: ${message}`,
        ),
        2400,
      );
      at('error', `${WRITER_PREFIX} ${failure.text}`, 1);
      for (const frame of failure.frames ?? []) at('error', `${WRITER_PREFIX} \tat ${frame}`, 1);
      at(
        'error',
        `${WRITER_PREFIX} \tat io.debezium.server.iceberg.rpc.OlakeRowsIngester.sendRecords(OlakeRowsIngester.java:176)`,
        1,
      );
      for (const cause of failure.causedBy ?? []) at('error', `${WRITER_PREFIX} Caused by: ${cause}`, 1);
      at(
        'fatal',
        `error occurred while reading records: thread[public.orders_0]: failed to write records: rpc error: code = Internal desc = ${REQUEST} Failed to process request: ${message}`,
      );
      break;
    }
    case 'jvm': {
      const l = failure.log4j;
      at(
        'error',
        l ? jvm(l.level, l.thread, l.logger, failure.text) : `${WRITER_PREFIX} ${failure.text}`,
        2400,
      );
      break;
    }
    case 'go':
      at('fatal', failure.text, 2400);
      break;
  }
  for (const next of failure.followedBy ?? []) at(next.level, next.message);
  return lines;
}
