import { describe, expect, it } from 'vitest';
import { routes } from '../../common/api/index.js';
import { buildPath } from '../../common/api/route.js';
import { apiErrorSchema } from '../../common/contract/common.js';
import { useAdminAndMember } from '../test/admin-app.js';
import { cookieHeader } from '../test/sign-in.js';
import { isInvalidParameterText } from './parameter-hygiene.js';

/**
 * Text a database cannot hold (PostgreSQL refuses NUL) or that no name or id contains: refused with
 * a 400 in any path or query parameter of any route, before a handler passes it on.
 */

const BAD_TEXTS: readonly [string, string][] = [
  ['a NUL', 'a%00b'],
  ['a control character', 'a%01b'],
  ['an escape character', '%1B%5B31m'],
  ['a newline', 'a%0Ab'],
  ['a DEL', 'a%7Fb'],
];

/** A value each parameter accepts when it is not the one under test. */
const goodValue = (name: string) => (name === 'id' ? '1' : name === 'memberName' ? 'Morgan%20Member' : 'event-correlation');

describe('parameter hygiene', () => {
  const fixture = useAdminAndMember();

  const call = (method: string, url: string) =>
    fixture.app.inject({
      method: method as 'GET',
      url,
      headers: { cookie: cookieHeader(fixture.admin), ...(method === 'GET' || method === 'HEAD' ? {} : { 'content-type': 'application/json' }) },
      ...(method === 'GET' || method === 'HEAD' ? {} : { payload: '{}' }),
    });

  const expectRefused = async (method: string, url: string) => {
    const response = await call(method, url);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
    if (method === 'HEAD') return;
    const body = apiErrorSchema.parse(response.json());
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toMatch(/invalid text/);
  };

  it('answers 400, never 5xx, for bad text in every path parameter of every route', async () => {
    const withParams = fixture.app.apiRoutes.filter((route) => route.url.includes('/:'));
    expect(withParams.length).toBeGreaterThan(5);
    for (const route of withParams) {
      const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] ?? '');
      for (const name of names) {
        for (const [, text] of BAD_TEXTS) {
          const url = route.url.replace(/:([A-Za-z]+)/g, (_match, param: string) => (param === name ? text : goodValue(param)));
          await expectRefused(route.method, url);
        }
      }
    }
  });

  it('answers 400, never 5xx, for bad text in a query parameter of every route, as a value or a name', async () => {
    for (const route of fixture.app.apiRoutes) {
      const path = route.url.replace(/:([A-Za-z]+)/g, (_match, param: string) => goodValue(param));
      for (const [, text] of BAD_TEXTS) {
        await expectRefused(route.method, `${path}?title=${text}`);
        await expectRefused(route.method, `${path}?${text}=1`);
      }
    }
  });

  it('answers the NUL that reached PostgreSQL with 400, and leaves good text alone', async () => {
    const nul = await call('GET', '/api/analytics/user/Morgan%00Member');
    expect(nul.statusCode).toBe(400);
    expect(apiErrorSchema.parse(nul.json()).message).toContain('memberName');
    // Lone surrogates cannot arrive percent-encoded as UTF-8; the router answers such text as it is, never with 5xx.
    expect((await call('GET', '/api/analytics/user/Morgan%ED%A0%80Member')).statusCode).toBeLessThan(500);
    // Tabs, non-Latin letters and emoji are text.
    expect((await call('GET', buildPath(routes.analytics.user.path, { memberName: 'Morgan Member' }))).statusCode).toBe(200);
    expect((await call('GET', buildPath(routes.analytics.user.path, { memberName: 'Zoë 李 🙂' }))).statusCode).toBe(404);
    expect((await call('GET', `${routes.comments.summary.path.replace(':componentId', 'event-correlation')}?title=${encodeURIComponent('Ereignis\tKorrelation')}`)).statusCode).toBeLessThan(500);
  });
});

describe('isInvalidParameterText', () => {
  it('finds control characters and lone surrogates, and nothing in good text', () => {
    for (const bad of ['a\u0000b', '\u001b[31m', 'line\nbreak', '\u007f', 'x\uD800', '\uDC00y', 'a\uDC00\uD800b']) expect(isInvalidParameterText(bad)).toBe(true);
    for (const good of ['Morgan Member', 'Zoë 李', '🙂', 'event-correlation', '']) expect(isInvalidParameterText(good)).toBe(false);
  });
});
