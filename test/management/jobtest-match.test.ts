// Issue 19, item 13: `floe jobs test` takes a local profile as "the same catalog" only when it signs in
// the same way: a bearer-token profile is not the match of an OAuth2 job on the same URL.
import { describe, expect, it } from 'vitest';
import { sameCatalog, writerAuth } from '../../src/management/jobtest.js';

const URL = 'http://catalog:8181/api/catalog';
const oauthJob = { rest_catalog_url: URL, oauth2_uri: `${URL}/v1/oauth/tokens`, credential: '********' };

describe('the same catalog', () => {
  it('reads the way a writer signs in', () => {
    expect(writerAuth(oauthJob)).toBe('oauth2');
    expect(writerAuth({ rest_catalog_url: URL, token: 'x' })).toBe('token');
    expect(writerAuth({ rest_catalog_url: URL, rest_signing_v_4: true })).toBe('sigv4');
    expect(writerAuth({ rest_catalog_url: URL })).toBe('none');
  });

  it('needs the same URL and the same authentication', () => {
    expect(sameCatalog(oauthJob, { rest_catalog_url: `${URL}/`, token: 'bearer' })).toBe(false);
    expect(sameCatalog(oauthJob, { rest_catalog_url: `${URL}/`, credential: 'id:secret' })).toBe(true);
    expect(sameCatalog(oauthJob, { rest_catalog_url: 'http://other:8181', credential: 'id:secret' })).toBe(
      false,
    );
  });
});
