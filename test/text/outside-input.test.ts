// Every parser of text from outside floe (a catalog's table answers, a run's log lines, object paths a
// catalog names, text shown on screen) fed large, deep and hostile input: each ends with a value or its
// own clear error, never a crash of another kind (a stack overflow, a thrown TypeError). Their speed on
// the largest input is measured by `npm run bench`, not here (no timed assertions in tests).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseLog } from '../../src/management/diagnose.js';
import { parseLossless } from '../../src/text/json.js';
import { sanitize } from '../../src/text/sanitize.js';
import { isInside, objectPath } from '../../src/write/paths.js';
import { readTable } from '../../src/write/table.js';

/** Bodies of up to ~1 MiB: deep nesting, long runs of one character, long numbers, unclosed strings. */
const hostileText = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('[', '{"a":', '"', '\\', '9', ' ', '\u001b[', '/..', '%2e'),
      fc.integer({ min: 1, max: 300_000 }),
    )
    .map(([unit, n]) => unit.repeat(n)),
  fc.string({ maxLength: 2000 }),
  fc.jsonValue({ maxDepth: 30 }).map((v) => JSON.stringify(v)),
);

describe('parsers of outside input end on any input', () => {
  it('a catalog answer: parseLossless returns or throws SyntaxError; readTable never throws', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        let value: unknown;
        try {
          value = parseLossless(text);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          return;
        }
        const table = readTable(value);
        expect(typeof table).toBe('object');
      }),
      { numRuns: 60 },
    );
  });

  it('a run log: diagnoseLog returns diagnoses for any lines', () => {
    fc.assert(
      fc.property(fc.array(hostileText, { maxLength: 5 }), (messages) => {
        const lines = messages.map((message) => ({ level: 'error', time: '2026-11-27T10:00:00Z', message }));
        expect(Array.isArray(diagnoseLog(lines))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('object paths a catalog names: objectPath and isInside answer for any text', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (a, b) => {
        const path = objectPath(`s3://bucket/${a}`);
        if (path) expect(path.key.split('/')).not.toContain('..');
        expect(typeof isInside(`s3://bucket/${a}`, `s3://bucket/${b}`)).toBe('boolean');
      }),
      { numRuns: 60 },
    );
  });

  it('text for the screen: sanitize leaves no control character', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(sanitize(text)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }),
      { numRuns: 60 },
    );
  });
});
