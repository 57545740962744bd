// OLake's own writer: the Iceberg JVM the Go driver starts (java -XX:+ExitOnOutOfMemoryError -jar …,
// datazip-inc/olake destination/iceberg/java_client.go:176-188) and the gRPC connection to it on port
// 50051. When the JVM dies, every later call of the Go side fails with gRPC Unavailable to
// 127.0.0.1:50051 / localhost:50051: a consequence, not a cause.
import { capture, type FailureRule, facts } from './rule.js';

export const WRITER_RULES: FailureRule[] = [
  {
    code: 'RUN_WRITER_THREAD_LIMIT',
    component: 'writer',
    summary:
      'The writer JVM could not start another thread (OutOfMemoryError: unable to create native thread): a process or thread limit, not the heap.',
    example:
      'Terminating due to java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
    match: /unable to create (?:new )?native thread/,
    what: () => 'The writer could not start another thread and stopped (unable to create native thread)',
    cause: () =>
      'The operating system refused the JVM a new thread: the container’s process/thread limit (its pids limit, ulimit -u) is reached, or too little memory is left outside the heap for thread stacks. The heap itself is not full.',
    remedy: () =>
      'Raise the OLake worker container’s pids limit (docker run --pids-limit, the pod’s PID limit) or its ulimit -u, and lower the job’s max threads in its advanced settings; if the container is near its memory limit, give it more.',
  },
  {
    code: 'RUN_OUT_OF_MEMORY',
    component: 'writer',
    summary: 'The writer JVM ran out of memory (OutOfMemoryError, Java heap space, OOMKilled, exit 137).',
    example: 'Terminating due to java.lang.OutOfMemoryError: Java heap space',
    match:
      /OutOfMemoryError|Java heap space|GC overhead limit|OOMKilled|exit(?:ed with)? (?:code|status) 137|out of memory|signal: killed/i,
    facts: (text) => facts({ kind: capture(text, /OutOfMemoryError: ([\w ]{1,60})/) }),
    what: (f) => `The writer ran out of memory${f.kind ? ` (${f.kind})` : ''} and stopped`,
    cause: () =>
      'The Iceberg writer JVM (its heap is 75% of the container’s memory) or the worker needs more memory than it has: wide rows, many streams at once, or large batches.',
    remedy: () =>
      'Give the OLake worker more memory (its container limit), or lower the job’s max threads in its advanced settings so fewer streams run at once.',
  },
  {
    code: 'RUN_WORKER_DISK_FULL',
    component: 'writer',
    summary:
      'The OLake worker’s own disk is full (No space left on device): the writer stages each file there before uploading it.',
    example: 'java.io.IOException: No space left on device',
    match: /IOException: No space left on device|write [^:\n]{1,300}: no space left on device/,
    what: () => 'The OLake worker ran out of local disk space',
    cause: () =>
      'Iceberg’s S3 writer stages every data file in the JVM’s temporary directory before the upload, and OLake keeps its state and logs on the worker: that disk (or the container’s writable layer) is full.',
    remedy: () =>
      'Free space on the worker’s disk or give the container a larger volume for /tmp and OLake’s data directory, lower the job’s max threads (fewer files staged at once), then run the sync again.',
  },
  {
    code: 'RUN_WRITER_START_FAILED',
    component: 'writer',
    summary: 'The writer JVM did not start (no java, the jar missing, or it exited before serving).',
    example: 'failed to start iceberg java writer and setup logger: …',
    match:
      /failed to start iceberg java writer|exec: "java": executable file not found|Unable to access jarfile|Could not find or load main class|Error: Could not create the Java Virtual Machine|LinkageError occurred while loading main class|compiled by a more recent version of the Java Runtime/,
    what: () => 'OLake’s Iceberg writer (a JVM) did not start',
    cause: () =>
      'The worker image lacks a Java runtime or the writer jar, or the JVM exited at start-up (its own lines above say why: often the catalog refused the first call).',
    remedy: () =>
      'Use the official olakego/source-* image of the job’s version (it carries Java and the writer jar); if the JVM printed a catalog error just before, fix that one first.',
  },
  {
    code: 'RUN_WRITER_UNREACHABLE',
    component: 'writer',
    summary:
      'The Go driver could not reach the writer JVM on port 50051 (gRPC Unavailable, connection refused): the JVM had stopped.',
    example:
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:50051: connect: connection refused"',
    match:
      /(?:127\.0\.0\.1|localhost|\[::1\]):50051|code = Unavailable desc = (?:error reading from server: EOF|connection error)/,
    facts: (text) => facts({ host: capture(text, /((?:127\.0\.0\.1|localhost|\[::1\]):50051)/) }),
    what: (f) => `The connection to OLake’s writer at ${f.host ?? '127.0.0.1:50051'} was refused`,
    cause: () =>
      'The writer JVM the Go driver talks to on port 50051 had stopped (killed, out of memory, or crashed); this is not the catalog.',
    remedy: () =>
      'Read the writer’s last lines (prefixed Iceberg[50051]) before this one for why it stopped; if the worker was killed from outside, give it more memory.',
    follows: ['RUN_OUT_OF_MEMORY', 'RUN_WRITER_THREAD_LIMIT', 'RUN_WRITER_START_FAILED'],
  },
  {
    code: 'RUN_WRITER_TIMEOUT',
    component: 'writer',
    summary:
      'The writer JVM did not answer a gRPC request within OLake’s limit (DeadlineExceeded): it was stuck, or had stopped before serving.',
    example: 'failed to send batch: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
    match: /code = DeadlineExceeded desc = /,
    what: () => 'OLake’s writer did not answer in time (gRPC DeadlineExceeded on port 50051)',
    cause: () =>
      'The Go driver waits for the writer JVM (up to an hour for a batch, 5 minutes for the destination check); the JVM was still blocked on the catalog or the object store (retrying), paused in garbage collection, or never came up to serve.',
    remedy: () =>
      'Read the writer’s lines (prefixed Iceberg[50051]) before this one for what it waited on and fix that (catalog or object store reachable from the worker); if it shows no error, give the worker more memory or lower the job’s max threads, then run the sync again.',
    follows: [
      'RUN_OUT_OF_MEMORY',
      'RUN_WRITER_THREAD_LIMIT',
      'RUN_WRITER_START_FAILED',
      'GCS_KEY_FILE_INVALID',
    ],
  },
];
