import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRelativeTime } from './relative-time';

const now = Date.parse('2026-03-04T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatRelativeTime', () => {
  it.each([
    [0, 'just now'],
    [44_000, 'just now'],
    [50_000, '1 minute ago'],
    [5 * 60_000, '5 minutes ago'],
    [60 * 60_000, '1 hour ago'],
    [26 * 3_600_000, 'yesterday'],
    [3 * 86_400_000, '3 days ago'],
    [8 * 86_400_000, 'last week'],
    [45 * 86_400_000, 'last month'],
    [400 * 86_400_000, 'last year'],
  ])('%i ms ago reads "%s"', (elapsed, text) => {
    expect(formatRelativeTime(ago(elapsed), now)).toBe(text);
  });

  it('reads a time slightly in the future (clock skew) as just now, and an invalid date as nothing', () => {
    expect(formatRelativeTime(ago(-5_000), now)).toBe('just now');
    expect(formatRelativeTime('not a date', now)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});
