import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { architectureSchema } from '../../../common/contract/architecture.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { nameKey } from '../../../common/names.js';
import { architecture } from '../../content/architecture.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../../test/test-app.js';
import { hashPin } from '../auth/secrets.js';
import { findMemberByKey, setFirstPinHash } from '../members/repo.js';
import { addMember } from '../members/service.js';

const URL = '/api/architecture';
const MEMBER = 'Test Member';
const PIN = '3816';

describe('GET /api/architecture', () => {
  let testApp: TestApp;
  /** The session cookies of a signed-in member. */
  let signedIn: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp();
    const { db } = testApp.app.database;
    await addMember(db, MEMBER);
    const member = await findMemberByKey(db, nameKey(MEMBER));
    if (member === undefined) throw new Error('the test member was not created');
    await setFirstPinHash(db, member.id, await hashPin(PIN, TEST_SECRETS.pinPepper));
    const login = await testApp.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: MEMBER, pin: PIN }),
    });
    expect(login.statusCode, login.body).toBe(200);
    signedIn = Object.fromEntries(login.cookies.map((cookie) => [cookie.name, cookie.value]));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const get = (options: { cookies?: Record<string, string>; headers?: Record<string, string> } = {}) =>
    testApp.app.inject({ method: 'GET', url: URL, ...options });

  it('answers 401 to a visitor who is not signed in, without the content', async () => {
    const response = await get();
    expect(response.statusCode).toBe(401);
    expect(apiErrorSchema.parse(response.json()).code).toBe('UNAUTHENTICATED');
    expect(response.body).not.toContain('human-initiated');
  });

  it('answers 401 to a forged or stale session cookie', async () => {
    const response = await get({ cookies: { biggy_session: 'not-a-session' } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 200 with the full content to a signed-in member, privately cacheable', async () => {
    const response = await get({ cookies: signedIn });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const body = architectureSchema.parse(response.json());
    expect(body).toEqual(architecture);
    expect(body.diagram.components.map((component) => component.id)).toContain('human-initiated');
  });

  it('answers 304 without a body when the browser already has this version', async () => {
    const first = await get({ cookies: signedIn });
    const etag = first.headers.etag;
    if (typeof etag !== 'string') throw new Error('no etag');
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await get({ cookies: signedIn, headers: { 'if-none-match': ifNoneMatch } });
      expect(response.statusCode, ifNoneMatch).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('private, max-age=300');
    }
    const changed = await get({ cookies: signedIn, headers: { 'if-none-match': '"an-older-version"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('tags the exact bytes it sends with a strong ETag', async () => {
    const response = await get({ cookies: signedIn });
    const etag = String(response.headers.etag);
    expect(etag.startsWith('W/')).toBe(false);
    expect(etag).toBe(`"${createHash('sha256').update(response.rawPayload).digest('base64url').slice(0, 27)}"`);
  });

  it('sends its JSON compressed to a browser that accepts it, brotli first, with the same tag and caching', async () => {
    const plain = await get({ cookies: signedIn });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    for (const [acceptEncoding, encoding, decompress] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const response = await get({ cookies: signedIn, headers: { 'accept-encoding': acceptEncoding } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.headers.etag).toBe(plain.headers.etag);
      expect(response.headers['cache-control']).toBe('private, max-age=300');
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      const body = decompress(response.rawPayload);
      expect(body.equals(plain.rawPayload)).toBe(true);
      expect(architectureSchema.parse(JSON.parse(body.toString('utf8')))).toEqual(architecture);
    }
  });

  it('answers a matching tag with 304 and nothing to decompress, a stale one with the compressed content', async () => {
    const etag = String((await get({ cookies: signedIn })).headers.etag);
    const notModified = await get({ cookies: signedIn, headers: { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers['content-encoding']).toBeUndefined();
    expect(notModified.headers.etag).toBe(etag);

    const stale = await get({ cookies: signedIn, headers: { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': '"an-older-version"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['content-encoding']).toBe('br');
    expect(stale.headers.etag).toBe(etag);
    expect(JSON.parse(brotliDecompressSync(stale.rawPayload).toString('utf8'))).toEqual(architecture);
  });

  it('still answers 401, not 304, to a signed-out visitor who sends a matching tag', async () => {
    const first = await get({ cookies: signedIn });
    const etag = first.headers.etag;
    if (typeof etag !== 'string') throw new Error('no etag');
    const response = await get({ headers: { 'if-none-match': etag } });
    expect(response.statusCode).toBe(401);
  });

  it('decorates the app with the validated content', () => {
    expect(testApp.app.architecture).toEqual(architecture);
    expect(Object.isFrozen(testApp.app.architecture)).toBe(true);
  });
});
