import { describe, expect, test, vi } from 'vitest';
import { ACTIVITY_LIMITS, activityRoutes } from '../../common/api/activity';
import { errorReportRoutes } from '../../common/api/error-reports';
import { mockFetch } from '../test/mock-fetch';
import { detailsText, logPageView } from './activity-log';

describe('logPageView', () => {
  test('posts a page view with its path as JSON text, cut to the path limit', async () => {
    const api = mockFetch();
    await logPageView('/suggestions');
    await logPageView(`/${'p'.repeat(ACTIVITY_LIMITS.pagePathChars)}`);
    expect(api.requests(activityRoutes.log).map((request) => request.body)).toEqual([
      { activityType: 'page_view', details: '{"path":"/suggestions"}' },
      { activityType: 'page_view', details: JSON.stringify({ path: `/${'p'.repeat(ACTIVITY_LIMITS.pagePathChars - 1)}` }) },
    ]);
  });

  test('a refusal or a network failure only warns on the console: no throw, no error report', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockFetch()
      .on(errorReportRoutes.create, { status: 201, body: { id: 1 } })
      .on(activityRoutes.log, { status: 429, error: { code: 'RATE_LIMITED', message: 'Slow down' } });
    await expect(logPageView('/review')).resolves.toBeUndefined();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(logPageView('/review')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(api.requests(errorReportRoutes.create)).toHaveLength(0);
  });
});

describe('detailsText', () => {
  test('small details go as they are', () => {
    expect(detailsText({ componentId: 'alert-ingestion', count: 2, ok: true, none: null })).toBe('{"componentId":"alert-ingestion","count":2,"ok":true,"none":null}');
  });

  test('long details are cut to the byte limit, longest text first, and stay JSON', () => {
    const text = detailsText({ path: `/${'é'.repeat(3_000)}`, note: 'x'.repeat(900), id: 7 });
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(ACTIVITY_LIMITS.detailsBytes);
    const parsed = JSON.parse(text) as { path: string; note: string; id: number };
    expect(parsed.id).toBe(7);
    expect(parsed.note).toBe('x'.repeat(900));
    expect(parsed.path.startsWith('/éé')).toBe(true);
  });

  test('details with nothing left to cut become an empty object', () => {
    const many = Object.fromEntries(Array.from({ length: 400 }, (_, index) => [`key${index}`, index]));
    expect(detailsText(many)).toBe('{}');
  });
});
