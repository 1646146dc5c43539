import { afterEach, describe, expect, test, vi } from 'vitest';
import { commentRoutes } from '../../common/api/comments';
import { IDEMPOTENCY_KEY_HEADER } from '../../common/api/idempotency';
import { architectureRoutes } from '../../common/api/architecture';
import { api, ApiRequestError } from './api-client';

interface Sent {
  url: string;
  method: string | undefined;
  key: string | undefined;
}

/** A fetch that fails with a network error for the first `failures` calls, then answers `status`. */
function stubFetch(failures: number, status = 201, body = '{"id":7}') {
  const sent: Sent[] = [];
  let left = failures;
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    sent.push({ url, method: init.method, key: headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined });
    if (left > 0) {
      left -= 1;
      return Promise.reject(new TypeError('Failed to fetch'));
    }
    return Promise.resolve(new Response(body, { status }));
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  test('sends a fresh Idempotency-Key with every write', async () => {
    const sent = stubFetch(0);
    await api(commentRoutes.create, { body: { componentId: 'agentic-triage', content: 'first' } });
    await api(commentRoutes.create, { body: { componentId: 'agentic-triage', content: 'second' } });
    expect(sent.map((call) => call.key)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
    expect(sent[0]?.key).not.toBe(sent[1]?.key);
  });

  test('retries a write once after a network error, with the same key', async () => {
    const sent = stubFetch(1);
    await expect(api(commentRoutes.vote, { params: { id: 3 }, body: { voteType: 'thumbs_up' } })).resolves.toEqual({ id: 7 });
    expect(sent).toHaveLength(2);
    expect(sent[1]?.key).toBe(sent[0]?.key);
  });

  test('gives up after the one retry', async () => {
    const sent = stubFetch(2);
    await expect(api(commentRoutes.create, { body: { componentId: 'agentic-triage', content: 'lost' } })).rejects.toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(2);
  });

  test('does not retry an answer, and sends no key on a read', async () => {
    const sent = stubFetch(0, 503, '{"message":"down","code":"DATABASE_UNAVAILABLE"}');
    await expect(api(architectureRoutes.get)).rejects.toBeInstanceOf(ApiRequestError);
    expect(sent).toEqual([{ url: architectureRoutes.get.path, method: 'GET', key: undefined }]);
  });

  test("keeps a refusal's Retry-After, in seconds", async () => {
    const answer = (headers: Record<string, string>) => {
      vi.stubGlobal('fetch', () => Promise.resolve(new Response('{"message":"wait","code":"RATE_LIMITED"}', { status: 429, headers })));
      return api(architectureRoutes.get).catch((error: unknown) => (error instanceof ApiRequestError ? error.retryAfterSeconds : 'not an API error'));
    };
    expect(await answer({ 'Retry-After': '42' })).toBe(42);
    expect(await answer({})).toBeUndefined();
    expect(await answer({ 'Retry-After': 'soon' })).toBeUndefined();
  });
});
