import { describe, expect, test } from 'vitest';
import { ROUTES } from '../../../common/routes';
import { activityLabel, activitySentence, countAxis, formatDay, formatDuration, formatHoursMinutes, labelInterval, pageName, timeAxis, type ActivityNames } from './format';

describe('formatHoursMinutes', () => {
  test.each([
    [0, '0h 0m'],
    [59, '0h 0m'],
    [60, '0h 1m'],
    [720, '0h 12m'],
    [3599, '0h 59m'],
    [3600, '1h 0m'],
    [7500, '2h 5m'],
    [90_000, '25h 0m'],
    [-5, '0h 0m'],
  ])('%i seconds read %s', (seconds, text) => {
    expect(formatHoursMinutes(seconds)).toBe(text);
  });
});

const NAMES: ActivityNames = {
  componentTitle: (id) => (id === 'deduplication' ? 'Deduplication & Suppression' : undefined),
  suggestionText: (id) => (id === 7 ? { text: 'Add an owner to every suppression rule', componentIds: ['deduplication'] } : undefined),
};

describe('activitySentence', () => {
  test.each([
    ['login', '{"method":"pin"}', 'signed in'],
    ['page_view', '{"path":"/analytics"}', 'viewed team analytics'],
    ['page_view', '{"path":"/elsewhere"}', 'viewed a missing page (/elsewhere)'],
    ['comment_added', '{"componentId":"deduplication","commentId":4}', 'commented on Deduplication & Suppression'],
    ['comment_added', '{"componentId":"unknown-id","commentId":4}', 'commented'],
    ['vote_cast', '{"target":"suggestion","suggestionId":7,"myVote":"thumbs_up"}', 'voted for “Add an owner to every suppression rule” on Deduplication & Suppression'],
    ['vote_cast', '{"target":"suggestion","suggestionId":8,"myVote":"thumbs_down"}', 'voted against a suggestion'],
    ['vote_cast', '{"target":"comment","commentId":3,"componentId":"deduplication","myVote":null}', 'withdrew a vote on a comment on Deduplication & Suppression'],
    ['suggestions_generated', '{"created":3,"kept":2,"archived":0,"reused":false}', 'generated suggestions (3 new, 2 kept)'],
    ['suggestions_generated', 'not json', 'generated suggestions'],
    ['export_done', null, 'export done'],
  ])('%s %s reads %j', (activityType, details, text) => {
    expect(activitySentence({ activityType, details }, NAMES)).toBe(text);
  });
});

describe('timeAxis', () => {
  test.each([
    [0, [0, 60], ['0m', '1m']],
    [15, [0, 60], ['0m', '1m']],
    [600, [0, 120, 240, 360, 480, 600], ['0m', '2m', '4m', '6m', '8m', '10m']],
    [3600, [0, 900, 1800, 2700, 3600], ['0m', '15m', '30m', '45m', '60m']],
    [7199, [0, 1800, 3600, 5400, 7200], ['0m', '30m', '60m', '90m', '120m']],
    [9000, [0, 1800, 3600, 5400, 7200, 9000], ['0m', '30m', '1h', '1h\u00a030m', '2h', '2h\u00a030m']],
    [36_000, [0, 2, 4, 6, 8, 10].map((hours) => hours * 3600), ['0m', '2h', '4h', '6h', '8h', '10h']],
  ])('%i seconds at most: ticks %j', (max, ticks, labels) => {
    const axis = timeAxis(max);
    expect(axis.ticks).toEqual(ticks);
    expect(axis.ticks.map(axis.label)).toEqual(labels);
  });
});

test('durations in minutes below an hour', () => {
  expect([59, 720, 3600, 7500].map(formatDuration)).toEqual(['0m', '12m', '1h 0m', '2h 5m']);
});

test('activity types in words, an unknown type as itself', () => {
  expect(['login', 'page_view', 'comment_added', 'vote_cast', 'suggestions_generated', 'export_done'].map(activityLabel)).toEqual([
    'Signed in',
    'Viewed a page',
    'Commented',
    'Voted',
    'Generated suggestions',
    'export done',
  ]);
});

test('every screen of the app has a name in words', () => {
  for (const path of Object.values(ROUTES)) expect(pageName(path)).not.toMatch(/\/|missing/);
  expect(pageName('/analytics/')).toBe('team analytics');
});

test('days', () => {
  expect(formatDay('2026-11-05')).toBe('Nov 5');
  expect(formatDay('soon')).toBe('soon');
});

describe('labelInterval', () => {
  const days = Array.from({ length: 30 }, (_, index) => `Nov ${index + 1}`);

  test('shows every label when all fit with the gap between them', () => {
    expect(labelInterval(['a', 'b', 'c'], 300, 16)).toBe(0);
  });

  test('skips labels on a narrow axis so that the ones shown keep the gap', () => {
    for (const width of [250, 330, 600, 1000]) {
      const every = labelInterval(days, width, 16) + 1;
      const shown = Math.ceil(days.length / every);
      // Each shown label takes at most 6 characters of 7 px, plus the gap.
      expect(shown * (6 * 7 + 16), `${width} px`).toBeLessThanOrEqual(width);
      // ...and no more are skipped than needed: one label fewer apart would not fit.
      if (every > 1) expect(Math.ceil(days.length / (every - 1)) * (6 * 7 + 16), `${width} px`).toBeGreaterThan(width);
    }
  });

  test('shows one label where not even one fits, rather than none', () => {
    expect(labelInterval(days, 0, 16)).toBe(29);
  });
});

describe('countAxis', () => {
  test('whole steps of 1, 2 or 5 times a power of ten, from zero to at or just past the largest count', () => {
    expect(countAxis(0).ticks).toEqual([0, 1]);
    expect(countAxis(3).ticks).toEqual([0, 1, 2, 3]);
    expect(countAxis(7).ticks).toEqual([0, 2, 4, 6, 8]);
    expect(countAxis(10).ticks).toEqual([0, 2, 4, 6, 8, 10]);
    expect(countAxis(23).ticks).toEqual([0, 5, 10, 15, 20, 25]);
    expect(countAxis(4_120).ticks).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
  });

  test('never more than five steps, and the top tick never below the largest count', () => {
    for (let max = 0; max < 3_000; max += 7) {
      const { ticks } = countAxis(max);
      expect(ticks.length - 1, `${max}`).toBeLessThanOrEqual(5);
      expect(ticks.at(-1) ?? 0, `${max}`).toBeGreaterThanOrEqual(max);
    }
  });
});
