// One boundary for terminal text: only src/cli/output.ts writes to stdout and stderr (every value of its
// templates sanitized), and screens draw only through src/ui/components/Text.tsx (every string child
// sanitized). A direct write anywhere else fails this test, so no new command or screen can forget.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

const files = sources(SRC).map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }));

/** Files (src-relative) whose lines match `pattern`, as `path: line`. */
function offenders(pattern: RegExp, allowed: readonly string[] = []): string[] {
  return files
    .filter((f) => !allowed.includes(f.path))
    .flatMap((f) =>
      f.text
        .split('\n')
        .filter((text) => pattern.test(text) && !/^\s*(\/\/|\*)/.test(text))
        .map((text) => `${f.path}: ${text.trim()}`),
    );
}

describe('the output boundary', () => {
  it('only cli/output.ts touches process.stdout and process.stderr', () => {
    expect(offenders(/process\.(stdout|stderr)\b/, ['cli/output.ts'])).toEqual([]);
  });

  it('nothing logs with console', () => {
    expect(offenders(/\bconsole\.\w+\(/)).toEqual([]);
  });

  it('a .write( call outside cli/output.ts writes to something that is not a terminal', () => {
    expect(
      offenders(/\.write\(/, [
        'cli/output.ts',
        // An HTTP CONNECT to a proxy, on its socket.
        'catalog/connect.ts',
        // Avro records into an in-memory encoder.
        'write/avro.ts',
        // The emulators' HTTP answers.
        'sandbox/catalog/faults.ts',
        'sandbox/olake-ui/server.ts',
      ]),
    ).toEqual([]);
  });

  it("screens draw text only through ui/components/Text.tsx, never ink's Text or its streams", () => {
    const fromInk = files.flatMap((f) =>
      [...f.text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'ink'/g)].flatMap((m) =>
        (m[1] ?? '')
          .split(',')
          .map(
            (name) =>
              name
                .replace(/^\s*type\s+/, '')
                .trim()
                .split(/\s+as\s+/)[0] ?? '',
          )
          .filter((name) => ['Text', 'Static', 'Transform', 'useStdout', 'useStderr'].includes(name))
          .map((name) => `${f.path}: ${name}`),
      ),
    );
    expect(fromInk).toEqual([
      'ui/components/Text.tsx: Text',
      // Reads the terminal's size from Ink's stdout (the test renderer's in tests); writes nothing.
      'ui/components/useTerminalSize.ts: useStdout',
    ]);
  });
});
