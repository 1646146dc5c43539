/**
 * The one date formatter of the client, so every date reads alike: "5 minutes ago" for lists, the full local
 * date and time for a tooltip. Intl does the wording, so no date library is shipped.
 */
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absoluteFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const timeOfDayFormat = new Intl.DateTimeFormat('en', { timeStyle: 'short' });

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', YEAR],
  ['month', MONTH],
  ['week', WEEK],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
];

/** "just now", "3 minutes ago", "yesterday", "2 weeks ago"; a date in the future reads as "just now" (clock skew). */
export function formatRelativeTime(date: Date | string, now: number = Date.now()): string {
  const time = typeof date === 'string' ? Date.parse(date) : date.getTime();
  if (Number.isNaN(time)) return '';
  const elapsed = now - time;
  if (elapsed < 45 * SECOND) return 'just now';
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return relativeFormat.format(-Math.floor(elapsed / size), unit);
  }
  return relativeFormat.format(-1, 'minute');
}

/** "Mar 4, 2026, 2:05 PM" in the reader's time zone. */
export function formatDateTime(date: Date | string): string {
  const value = typeof date === 'string' ? new Date(date) : date;
  return Number.isNaN(value.getTime()) ? '' : absoluteFormat.format(value);
}

/** "2:05 PM" in the reader's time zone: for a moment within the next hours (when an unlock ends). */
export function formatTimeOfDay(epochMs: number): string {
  return timeOfDayFormat.format(new Date(epochMs));
}
