/** "1 comment", "3 comments". */
export function plural(count: number, word: string): string {
  return `${count} ${count === 1 ? word : `${word}s`}`;
}

/**
 * Active time as whole hours and minutes: 7,500 s reads "2h 5m", 720 s "0h 12m", 59 s "0h 0m".
 * Seconds are dropped (never rounded up), so a total never shows more time than was recorded.
 */
export function formatHoursMinutes(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

const ACTIVITY_LABELS: Readonly<Record<string, string>> = {
  login: 'Signed in',
  page_view: 'Viewed a page',
  comment_added: 'Commented',
  vote_cast: 'Voted',
  suggestions_generated: 'Generated suggestions',
};

/** A logged activity type in words; a type this client does not know yet reads as itself. */
export function activityLabel(activityType: string): string {
  return ACTIVITY_LABELS[activityType] ?? activityType.replaceAll('_', ' ');
}

function valueText(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** "componentId" → "component id", "page_path" → "page path". */
function keyText(key: string): string {
  return key
    .replaceAll('_', ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/**
 * A log entry's details (JSON text) as one line of plain text: an object's fields as
 * "key: value · key: value", any other value as itself, text that is not JSON as it came.
 * The caller renders the result as text, never as HTML.
 */
export function describeDetails(details: string | null): string {
  if (details === null || details.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return details;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    return Object.entries(parsed)
      .map(([key, value]) => `${keyText(key)}: ${valueText(value)}`)
      .join(' · ');
  }
  if (Array.isArray(parsed)) return parsed.map(valueText).join(', ');
  return valueText(parsed);
}

const dayFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A UTC day 'YYYY-MM-DD' as "Nov 5"; anything else as it came. */
export function formatDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : dayFormat.format(time);
}
