import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../common/routes.js';
import { cookieNames } from '../modules/auth/guards.js';
import type { App } from './types.js';
import { signInAs, type SessionCookies } from '../test/sign-in.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const indexHtml = '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-e1.js"></script></head><body><div id="root"></div></body></html>';

/** A build manifest of the shape Vite writes: the entry, two pages sharing a chunk, the sign-in screen. */
const manifest = {
  'index.html': { file: 'assets/index-e1.js', isEntry: true, dynamicImports: ['src/client/features/review/review-home-page.tsx'] },
  'src/client/features/review/review-home-page.tsx': { file: 'assets/review-home-page-h1.js', isDynamicEntry: true, imports: ['index.html', '_shared-s1.js'], css: ['assets/review-h1.css'] },
  'src/client/features/admin/admin-page.tsx': { file: 'assets/admin-page-a1.js', isDynamicEntry: true, imports: ['index.html', '_shared-s1.js', '_table-t1.js'] },
  'src/client/features/auth/sign-in-screen.tsx': { file: 'assets/sign-in-screen-i1.js', isDynamicEntry: true, imports: ['index.html'] },
  '_shared-s1.js': { file: 'assets/shared-s1.js', imports: ['index.html'] },
  '_table-t1.js': { file: 'assets/table-t1.js', imports: ['_shared-s1.js'] },
};

const hrefs = (html: string, rel: string) => [...html.matchAll(new RegExp(`<link rel="${rel}"[^>]*href="([^"]+)"`, 'g'))].map((match) => match[1]);
const fetchPreloads = (html: string) => [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" crossorigin="use-credentials" \/>/g)].map((match) => match[1]);

describe("each screen's document names what its first render needs", () => {
  let testApp: TestApp;
  let app: App;
  let clientDir: string;
  let member: SessionCookies;
  let admin: SessionCookies;

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'biggy-hints-'));
    await mkdir(path.join(clientDir, '.vite'), { recursive: true });
    await writeFile(path.join(clientDir, 'index.html'), indexHtml);
    await writeFile(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    testApp = await createTestApp({ clientDir });
    app = testApp.app;
    admin = await signInAs(app, 'Avery Admin');
    member = await signInAs(app, 'Morgan Member');
  });
  afterAll(async () => {
    await testApp.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  const documentOf = async (url: string, cookies?: SessionCookies) => {
    const response = await app.inject({ method: 'GET', url, ...(cookies === undefined ? {} : { cookies }) });
    expect(response.statusCode).toBe(200);
    expect(response.headers.vary).toMatch(/cookie/i);
    return response.body;
  };

  it("signed in: the page's chunk, every chunk it imports once, its style sheet and its first calls", async () => {
    const html = await documentOf(ROUTES.home, member);
    expect(hrefs(html, 'modulepreload')).toEqual(['/assets/review-home-page-h1.js', '/assets/shared-s1.js']);
    expect(html).toContain('<link rel="preload" as="style" crossorigin href="/assets/review-h1.css" />');
    expect(fetchPreloads(html)).toEqual(['/api/architecture', '/api/comments/counts']);
    // The entry is in the document already; the hints come after it, inside the head.
    expect(hrefs(html, 'modulepreload')).not.toContain('/assets/index-e1.js');
    expect(html.indexOf('modulepreload')).toBeGreaterThan(html.indexOf('index-e1.js'));
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
  });

  it('follows imports through shared chunks', async () => {
    expect(hrefs(await documentOf(ROUTES.admin, admin), 'modulepreload')).toEqual(['/assets/admin-page-a1.js', '/assets/shared-s1.js', '/assets/table-t1.js']);
  });

  it("asks for the admin's data only for the admin: a member at /admin makes none of its calls", async () => {
    expect(fetchPreloads(await documentOf(ROUTES.admin, admin))).toEqual(['/api/admin/members']);
    expect(fetchPreloads(await documentOf(ROUTES.admin, member))).toEqual([]);
  });

  it('signed out, or with a session that is no longer valid: the sign-in screen, and no call that needs a session', async () => {
    for (const cookies of [undefined, { [cookieNames(false).session]: 'not-a-session' }]) {
      const html = await documentOf(ROUTES.analytics, cookies);
      expect(hrefs(html, 'modulepreload')).toEqual(['/assets/sign-in-screen-i1.js']);
      expect(fetchPreloads(html)).toEqual([]);
    }
  });

  it('an unknown page gets the plain document with its 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/no-such-page', cookies: member });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(indexHtml);
  });
});
