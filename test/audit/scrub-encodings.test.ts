// The scrubber masks every encoding of a secret, and every token a server issued, even cut off.
import { describe, expect, it } from 'vitest';
import { REDACTED, SecretScrubber } from '../../src/check/scrub.js';
import { values } from '../catalog/helpers.js';

const SECRET = 'Abc8Q~dEfg "quoted" \\back/slash é!*';

describe('secret encodings', () => {
  const scrubber = new SecretScrubber();
  scrubber.add(SECRET);
  const forms: [string, string][] = [
    ['raw', SECRET],
    ['encodeURIComponent', encodeURIComponent(SECRET)],
    ['form-encoded', new URLSearchParams({ s: SECRET }).toString().slice(2)],
    [
      'lower-case percent escapes',
      encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    ],
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
    [
      'JSON inside JSON (floe push: a config echoed in a log line)',
      JSON.stringify(JSON.stringify(SECRET)).slice(3, -3),
    ],
    ['JSON with \\/ and \\u escapes', '"Abc8Q~dEfg \\"quoted\\" \\\\back\\/slash \\u00e9!*"'.slice(1, -1)],
  ];
  for (const [name, form] of forms)
    it(`masks the ${name} form`, () => {
      expect(scrubber.scrub(`before ${form} after`)).toBe(`before ${REDACTED} after`);
    });

  it('masks HTTP Basic credentials of the OAuth2 credential', () => {
    const s = new SecretScrubber().addProfileSecrets(values('oauth2', { credential: `olake:${SECRET}` }));
    const basic = Buffer.from(`olake:${SECRET}`).toString('base64');
    const formBasic = Buffer.from(`olake:${new URLSearchParams({ s: SECRET }).toString().slice(2)}`).toString(
      'base64',
    );
    expect(s.scrub(`Basic ${basic}`)).toBe(`Basic ${REDACTED}`);
    expect(s.scrub(`Basic ${formBasic}`)).toBe(`Basic ${REDACTED}`);
  });

  it('masks the visible start of a secret in a text cut off for display', () => {
    expect(scrubber.scrub('client_secret=Abc8Q~dEf…')).toBe(`client_secret=${REDACTED}…`);
    expect(scrubber.scrub('ends with Abc8Q')).toBe('ends with Abc8Q');
  });
});

describe('issued tokens', () => {
  it('learns tokens from a JSON body whatever its content type, and from a form body', () => {
    const s = new SecretScrubber();
    s.addIssuedTokens('{"access_token":"eyJ.payload-sentinel.sig","refresh_token":"rt-sentinel-1"}');
    s.addIssuedTokens('access_token=form-token-sentinel&token_type=bearer');
    expect(s.scrub('eyJ.payload-sentinel.sig rt-sentinel-1 form-token-sentinel')).toBe(
      `${REDACTED} ${REDACTED} ${REDACTED}`,
    );
  });

  it('learns a token from a body cut off inside it', () => {
    const s = new SecretScrubber();
    s.addIssuedTokens('{"access_token":"eyJcut-off-token-sentinel');
    expect(s.scrub('{"access_token":"eyJcut-off-token-sentinel')).toBe(`{"access_token":"${REDACTED}`);
  });
});
