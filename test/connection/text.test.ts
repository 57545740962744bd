import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evidenceText,
  formatDuration,
  reportText,
  stepLine,
  traceLines,
  truncate,
  wrapText,
} from '../../src/connection/text.js';
import { expectInert, HOSTILE, HOSTILE_SHOWN } from '../support/hostile.js';
import { diagnosisFor } from './fakes.js';

describe('text renderings', () => {
  it('wraps text within the width and keeps every word', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 30 }).filter((w) => !/\s/.test(w)),
          { maxLength: 40 },
        ),
        fc.integer({ min: 10, max: 100 }),
        (words, width) => {
          const lines = wrapText(words.join(' '), width, '    ');
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
          expect(lines.slice(1).every((l) => l.startsWith('    '))).toBe(true);
          expect(
            lines
              .map((l) => l.trim())
              .join('')
              .replace(/\s/g, ''),
          ).toBe(words.join(''));
        },
      ),
    );
  });

  it('fills the line before cutting a word longer than the width', () => {
    expect(wrapText(`GET http://127.0.0.1:8181/${'a'.repeat(30)} got no answer`, 24, '  ')).toEqual([
      'GET http://127.0.0.1:818',
      '  1/aaaaaaaaaaaaaaaaaaaa',
      '  aaaaaaaaaa got no',
      '  answer',
    ]);
  });

  it('truncates with an ellipsis only when needed', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdefg', 6)).toBe('abcde…');
  });

  it('formats durations, steps and evidence', () => {
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(42.4)).toBe('42 ms');
    expect(formatDuration(1520)).toBe('1.5 s');
    expect(
      stepLine({
        id: 'storage.put',
        chain: 'storage',
        title: 'Write',
        state: 'ok',
        durationMs: 9,
        detail: '1 KiB',
      }),
    ).toBe('✓ Object store: Write (9 ms) — 1 KiB');
    expect(stepLine({ id: 'storage.put', chain: 'storage', title: 'Write', state: 'skipped' })).toBe(
      '– Object store: Write (skipped)',
    );
    expect(evidenceText({ status: 403, errorCode: 'AccessDenied', extra: { scope: 'us-east-1/s3' } })).toBe(
      'HTTP 403 · code AccessDenied · scope: us-east-1/s3',
    );
  });

  it('prints a report as diagnoses, warnings and a summary', () => {
    const text = reportText({
      ok: false,
      steps: [{ id: 'storage.put', chain: 'storage', title: 'Write', state: 'failed' }],
      diagnoses: [diagnosisFor('storage.put')],
      warnings: ['the catalog ignores the warehouse'],
    }).join('\n');
    expect(text).toContain('✗ S3_ACCESS_DENIED_WRITE (storage.put)');
    expect(text).toContain('Remedy:   Grant s3:PutObject');
    expect(text).toContain('! the catalog ignores the warehouse');
    expect(text.trimEnd().endsWith('✗ 1 of 1 checks failed')).toBe(true);
  });

  it('shows S3 and catalog error text from a hostile server inert, in the report and the trace', () => {
    const hostile = diagnosisFor('storage.put');
    hostile.what = `Access Denied${HOSTILE}`;
    hostile.evidence = {
      ...hostile.evidence,
      errorCode: `AccessDenied${HOSTILE}`,
      extra: { message: HOSTILE },
    };
    const text = reportText({
      ok: false,
      steps: [{ id: 'storage.put', chain: 'storage', title: 'Write', state: 'failed', detail: HOSTILE }],
      diagnoses: [hostile],
      warnings: [HOSTILE],
    }).join('\n');
    expect(text).toContain(`code AccessDenied${HOSTILE_SHOWN}`);
    expectInert(text);
    expectInert(
      stepLine({ id: 'storage.put', chain: 'storage', title: HOSTILE, state: 'failed', detail: HOSTILE }),
    );
    const trace = traceLines({
      method: 'GET',
      url: `http://127.0.0.1:1/${HOSTILE}`,
      status: 500,
      durationMs: 3,
      requestHeaders: {},
      responseHeaders: { 'x-error': HOSTILE },
    }).join('\n');
    expectInert(trace);
  });
});
