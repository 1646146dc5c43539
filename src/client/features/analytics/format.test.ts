import { describe, expect, test } from 'vitest';
import { activityLabel, describeDetails, formatDay, formatHoursMinutes, plural } from './format';

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

describe('describeDetails', () => {
  test.each([
    [null, ''],
    ['', ''],
    ['{"componentId":"alert-ingestion","voteType":"thumbs_up"}', 'component id: alert-ingestion · vote type: thumbs_up'],
    ['{"page_path":"/analytics","count":2,"ok":true,"gone":null}', 'page path: /analytics · count: 2 · ok: true · gone: none'],
    ['{"nested":{"a":1}}', 'nested: {"a":1}'],
    ['["a",1]', 'a, 1'],
    ['"just text"', 'just text'],
    ['42', '42'],
    ['<script>alert(1)</script>', '<script>alert(1)</script>'],
  ])('%j reads %j', (details, text) => {
    expect(describeDetails(details)).toBe(text);
  });
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

test('days and counts', () => {
  expect(formatDay('2026-11-05')).toBe('Nov 5');
  expect(formatDay('soon')).toBe('soon');
  expect([plural(1, 'vote'), plural(0, 'vote'), plural(2, 'vote')]).toEqual(['1 vote', '0 votes', '2 votes']);
});
