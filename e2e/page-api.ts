import type { Page } from 'playwright-core';
import type { Comment } from '../src/common/contract/comments.js';

/** Posts as the page's member through the page itself (same origin, session cookie), like the app does. */
export async function postComment(page: Page, componentId: string, content: string, kind: 'comment' | 'proposal' = 'comment'): Promise<Comment> {
  const body = JSON.stringify({ componentId, content, kind });
  const result = await page.evaluate<{ status: number; text: string }>(
    `fetch('/api/comments', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} })
      .then(async (response) => ({ status: response.status, text: await response.text() }))`,
  );
  if (result.status !== 201) throw new Error(`POST /api/comments answered ${result.status}: ${result.text}`);
  return JSON.parse(result.text) as Comment;
}

/** Votes on a comment as the page's member. */
export async function voteOn(page: Page, commentId: number, voteType: 'thumbs_up' | 'thumbs_down'): Promise<void> {
  const status = await page.evaluate<number>(
    `fetch('/api/comments/${commentId}/vote', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{"voteType":"${voteType}"}' }).then((response) => response.status)`,
  );
  if (status !== 200) throw new Error(`POST /api/comments/${commentId}/vote answered ${status}`);
}

/**
 * Holds the page's requests matching `url` until the returned release is called (to read a
 * pending state); after that they go through untouched.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Calls the API from the page (same origin, the page's session cookie, if any), as the app's own code would; answers the status and body. */
export async function fetchFromPage(page: Page, method: 'GET' | 'POST' | 'PATCH', apiPath: string, body?: unknown): Promise<{ status: number; text: string }> {
  const init = body === undefined ? { method, credentials: 'include' } : { method, credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  return page.evaluate<{ status: number; text: string }>(
    `fetch(${JSON.stringify(apiPath)}, ${JSON.stringify(init)}).then(async (response) => ({ status: response.status, text: await response.text() }))`,
  );
}
