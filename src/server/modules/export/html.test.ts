import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { commentSchema } from '../../../common/contract/comments.js';
import { loadArchitecture, reviewedComponents } from '../../content/validate.js';
import { SECURITY_HEADERS } from '../../http/security-headers.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { insertListedSuggestion } from '../../test/suggestions.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../../test/test-app.js';
import { escapeHtml } from './html.js';

/** The printable report: what it holds and in which order, what it never holds, and how it is served. */

const SCRIPTED = `Check the <script>alert("owned")</script> & the 'runbook' link`;

/** A policy as its directives, each with its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** The text of an element's HTML, as a reader sees it (the report escapes only these five). */
const unescape = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe('the printable report', () => {
  let testApp: TestApp;
  let app: App;
  let member: SessionCookies;
  let admin: SessionCookies;
  const components = reviewedComponents(loadArchitecture());
  const decided = new Map([
    ['recovery-verification', 'Accepted with changes'],
    ['agentic-triage', 'Needs rework'],
  ]);

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    member = await signInAs(app, 'Mira Report');
    admin = await signInAs(app, 'Avery Admin');
    const qa = await signInAs(app, 'Quinn Selftest');
    await app.database.db.updateTable('members').set({ is_qa: 1 }).where('full_name', '=', 'Quinn Selftest').execute();
    const post = async (cookies: SessionCookies, componentId: string, content: string) => {
      const response = await apiCall(app, 'POST', '/api/comments', cookies, { componentId, content });
      expect(response.statusCode, response.body).toBe(201);
      return commentSchema.parse(response.json()).id;
    };
    const scripted = await post(member, 'recovery-verification', SCRIPTED);
    const resolved = await post(member, 'recovery-verification', 'Two lines:\nthe watch window & the tier');
    await post(qa, 'recovery-verification', 'A self-test comment nobody may export');
    await post(qa, QA_TEST_COMPONENT_ID, 'Scratch component comment');
    expect((await apiCall(app, 'POST', `/api/comments/${scripted}/vote`, admin, { voteType: 'thumbs_up' })).statusCode).toBe(200);
    expect((await apiCall(app, 'POST', `/api/comments/${scripted}/vote`, qa, { voteType: 'thumbs_down' })).statusCode).toBe(200);
    expect((await apiCall(app, 'POST', `/api/comments/${resolved}/resolve`, member, { note: 'Covered by <the> SLO check' })).statusCode).toBe(200);
    for (const [componentId, outcome, rationale] of [
      ['recovery-verification', 'accepted_with_changes', 'Accepted once the SLO check is in.'],
      ['agentic-triage', 'needs_rework', 'The confidence threshold is <unset>.'],
    ]) {
      const response = await apiCall(app, 'POST', `/api/decisions/${componentId}`, admin, { outcome, rationale, adminPassword: TEST_SECRETS.adminPassword });
      expect(response.statusCode, response.body).toBe(201);
    }
    const { db } = app.database;
    const now = Date.now();
    await insertListedSuggestion(
      db,
      { text: 'Page the owner when the <watch window> relapses', componentIds: ['recovery-verification'], initials: ['MR'], sources: [scripted], requestedBy: 'Avery Admin' },
      { review_status: 'accepted', owner_name: 'Mira Report', due_date: '2026-12-31' },
    );
    await db
      .insertInto('ai_outputs')
      .values([
        { kind: 'summary', scope: 'recovery-verification', input_hash: 'a'.repeat(64), output: JSON.stringify({ understanding: 'Members want the SLO <img src=x> checked' }), provider: 'local', model: 'built-in', prompt_version: 'v1', created_at: now },
        { kind: 'narrative', scope: 'team', input_hash: 'b'.repeat(64), output: JSON.stringify({ conflicts: [{ topic: 'Paging', description: 'Who pages & when' }] }), provider: 'local', model: 'built-in', prompt_version: 'v1', created_at: now },
      ])
      .execute();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('is an HTML page opened in the tab, never kept by a cache, with every other security header as the app sends it', async () => {
    const response = await apiCall(app, 'GET', '/api/export/review.html', member);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('inline');
    expect(response.headers['cache-control']).toBe('no-store');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (name !== 'content-security-policy') expect(response.headers[name], name).toBe(value);
    expect(response.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(response.body).toMatch(/<\/main>\n<\/body>\n<\/html>\n$/);
    expect(response.body).toContain("Use your browser's Print (Ctrl+P) to save as PDF.");
    // The app's own icon: without one the browser asks for /favicon.ico, which the app has not.
    const icon = /<link rel="icon" type="image\/svg\+xml" href="\/([\w.-]+)">/.exec(response.body)?.[1];
    expect(icon && existsSync(path.join('public', icon)), icon).toBe(true);
  });

  it("allows the page's one style sheet by its hash, and nothing the app's policy does not", async () => {
    const response = await apiCall(app, 'GET', '/api/export/review.html', member);
    const styles = [...response.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
    expect(styles).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(styles[0] ?? '', 'utf8').digest('base64')}'`;
    // No style attribute, which the hash would not allow.
    expect(response.body).not.toMatch(/\sstyle=/);
    const page = directives(String(response.headers['content-security-policy']));
    const appPolicy = directives(SECURITY_HEADERS['content-security-policy'] ?? '');
    expect([...page.keys()].sort()).toEqual([...appPolicy.keys()].sort());
    expect(page.get('style-src')).toEqual([hash]);
    expect(page.get('script-src')).toEqual(["'none'"]);
    for (const [name, sources] of page) {
      const allowed = new Set([...(appPolicy.get(name) ?? []), hash, "'none'"]);
      expect(sources.filter((source) => !allowed.has(source)), name).toEqual([]);
    }
  });

  it('reads as the Markdown does: every component in the same order, each decided one with its outcome, then suggestions, actions and conflicts', async () => {
    const [html, markdown] = await Promise.all([apiCall(app, 'GET', '/api/export/review.html', member), apiCall(app, 'GET', '/api/export/review.md', member)]);
    const body = html.body;
    const headings = [...body.matchAll(/<h2 id="[^"]+">(.*?)<\/h2>/g)].map((match) => unescape(match[1] ?? ''));
    const markdownHeadings = [...markdown.body.matchAll(/^## (.*)$/gm)].map((match) => (match[1] ?? '').replace(/&lt;/g, '<').replace(/&amp;/g, '&'));
    expect(headings).toEqual(markdownHeadings);
    expect(headings).toEqual([...components.map((component) => component.title), 'Suggestions by status', 'Actions', 'Open conflicts']);
    expect(body).toContain(`2 of ${components.length} components decided; 1 actions, 0 done.`);

    const sections = new Map([...body.matchAll(/<section class="component" data-component="([^"]+)"[\s\S]*?<\/section>/g)].map((match) => [match[1] ?? '', match[0]]));
    expect(sections.size).toBe(components.length);
    for (const component of components) {
      const section = sections.get(component.id) ?? '';
      const outcome = decided.get(component.id);
      if (outcome === undefined) expect(section, component.id).toContain('<p class="decision" data-outcome="none"><strong>Decision:</strong> none yet.</p>');
      else expect(section, component.id).toMatch(new RegExp(`<strong>Decision:</strong> <span class="outcome">${outcome}</span>, by Avery Admin on \\d{4}-\\d{2}-\\d{2}\\.`));
    }
    const recovery = sections.get('recovery-verification') ?? '';
    expect(recovery).toContain('<p class="rationale member-text">Accepted once the SLO check is in.</p>');
    expect(recovery).toContain('<strong>AI summary</strong>');
    expect(recovery).toContain('Members want the SLO &lt;img src=x&gt; checked');
    // Open comments, then the resolved ones, each with its author and votes (the QA member's vote not counted).
    expect(recovery.indexOf('<h3>Open comments</h3>')).toBeLessThan(recovery.indexOf('<h3>Resolved comments</h3>'));
    expect(recovery).toMatch(/<strong class="author">Mira Report<\/strong> \(comment, \d{4}-\d{2}-\d{2}, \+1 \/ −0\)/);
    expect(recovery).toContain('<p class="member-text">Two lines:\nthe watch window &amp; the tier</p>');
    expect(recovery).toMatch(/Resolved by Mira Report on \d{4}-\d{2}-\d{2}: <span class="member-text">Covered by &lt;the&gt; SLO check<\/span>/);
    expect(sections.get('agentic-triage')).toContain('The confidence threshold is &lt;unset&gt;.');
    expect(sections.get('em-console')).toContain('<p class="none">No open comments.</p>');

    expect(body).toContain('<h3>Accepted (1)</h3>');
    expect(body).toContain('<tr><td class="member-text">Page the owner when the &lt;watch window&gt; relapses</td><td>Mira Report</td><td>2026-12-31</td><td>Accepted</td></tr>');
    expect(body).toContain('<li><strong>Paging</strong>: <span class="member-text">Who pages &amp; when</span></li>');
  });

  it("escapes every member's text, holds no script, and leaves out the QA member, the self-test and any secret", async () => {
    const response = await apiCall(app, 'GET', '/api/export/review.html', member);
    const body = response.body;
    expect(body).toContain('<p class="member-text">Check the &lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt; &amp; the &#39;runbook&#39; link</p>');
    expect(body).not.toMatch(/<script/i);
    expect(body).not.toMatch(/<img/i);
    expect(body).not.toMatch(/\son\w+=/i);
    expect(body).not.toContain('self-test comment');
    expect(body).not.toContain('Scratch component');
    expect(body).not.toContain(QA_TEST_COMPONENT_ID);
    expect(body).not.toContain('Quinn');
    for (const secret of Object.values(TEST_SECRETS)) expect(body).not.toContain(secret);
    for (const cookie of Object.values(member)) expect(body).not.toContain(cookie);
  });

  it('answers a stranger with a 401, and shares the exports’ rate limit', async () => {
    const stranger = await apiCall(app, 'GET', '/api/export/review.html', undefined);
    expect(stranger.statusCode).toBe(401);
    expect(stranger.headers['content-type']).toMatch(/^application\/json/);
    const busy = await signInAs(app, 'Rory Ratelimit');
    for (let index = 0; index < 10; index += 1) expect((await apiCall(app, 'GET', '/api/export/review.md', busy)).statusCode).toBe(200);
    expect((await apiCall(app, 'GET', '/api/export/review.html', busy)).statusCode).toBe(429);
  });

  it('escapes the five characters that could open markup or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('one\r\ntwo\rthree')).toBe('one\ntwo\nthree');
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});
