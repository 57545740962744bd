// The small rules the chain is built on: credential split, query encoding, Retry-After, base URLs,
// and secret scrubbing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeQuery } from '../../src/catalog/auth.js';
import { normaliseBaseUrl } from '../../src/catalog/chain.js';
import { retryAfterMs } from '../../src/catalog/http.js';
import { REDACTED, SecretScrubber, safeUrl } from '../../src/check/scrub.js';

describe('encodeQuery', () => {
  it('is RFC 3986 (only unreserved characters and %XX) and decodes back to the same values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.string()), (params) => {
        const encoded = encodeQuery(params);
        expect(encoded).toMatch(/^([A-Za-z0-9\-._~]|%[0-9A-F]{2}|[=&])*$/);
        expect(Object.fromEntries(new URLSearchParams(encoded))).toEqual(params);
      }),
    );
  });

  it('encodes the characters encodeURIComponent leaves alone', () => {
    expect(encodeQuery({ warehouse: "s3://b/it's (x)*!" })).toBe(
      'warehouse=s3%3A%2F%2Fb%2Fit%27s%20%28x%29%2A%21',
    );
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});

describe('normaliseBaseUrl', () => {
  it('strips every trailing slash and keeps the base path', () => {
    expect(normaliseBaseUrl(' https://host:8181/api/catalog/// ')).toBe('https://host:8181/api/catalog');
    expect(normaliseBaseUrl('http://host//')).toBe('http://host');
  });

  it('rejects what is not an absolute http(s) URL', () => {
    for (const bad of ['', 'host:8181', 'ftp://host', '/api/catalog'])
      expect(normaliseBaseUrl(bad)).toBeNull();
  });
});

describe('redaction', () => {
  it('scrubs a secret, its URL-encoded and its JSON-escaped forms from any text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 4 }), fc.string(), fc.string(), (secret, before, after) => {
        const scrubber = new SecretScrubber();
        scrubber.add(secret);
        for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) {
          const text = scrubber.scrub(`${before}${form}${after}`);
          expect(text).toContain(REDACTED);
        }
      }),
    );
  });

  it('removes userinfo and credential-like query values, keeps pageToken', () => {
    expect(
      safeUrl('https://user:pw@host/v1/x?access_token=abc&pageToken=&pageSize=1&X-Amz-Signature=f#frag'),
    ).toBe(
      'https://host/v1/x?access_token=%5Bredacted%5D&pageToken=&pageSize=1&X-Amz-Signature=%5Bredacted%5D',
    );
  });
});
