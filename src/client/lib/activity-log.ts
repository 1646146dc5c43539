import { ACTIVITY_LIMITS, activityRoutes } from '../../common/api/activity';
import { api } from './api-client';

/** A log entry's details: a small flat object, sent as JSON text. */
export type ActivityDetails = Readonly<Record<string, string | number | boolean | null>>;

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

/**
 * The details as JSON text within the server's byte limit: the longest text is cut by about the
 * excess (measured in its own bytes per character) until it fits, so short fields stay whole.
 */
export function detailsText(details: ActivityDetails): string {
  const fitted: Record<string, string | number | boolean | null> = { ...details };
  let text = JSON.stringify(fitted);
  for (let excess = byteLength(text) - ACTIVITY_LIMITS.detailsBytes; excess > 0; excess = byteLength(text) - ACTIVITY_LIMITS.detailsBytes) {
    let longest: { key: string; value: string; bytes: number } | undefined;
    for (const [key, value] of Object.entries(fitted)) {
      if (typeof value !== 'string' || value === '') continue;
      const bytes = byteLength(value);
      if (longest === undefined || bytes > longest.bytes) longest = { key, value, bytes };
    }
    // Nothing left to shorten (only numbers and empty texts, far too many of them): no details at all.
    if (longest === undefined) return '{}';
    const cut = Math.max(1, Math.ceil(excess / (longest.bytes / longest.value.length)));
    fitted[longest.key] = longest.value.slice(0, Math.max(0, longest.value.length - cut));
    text = JSON.stringify(fitted);
  }
  return text;
}

/**
 * Records a page the member opened, for the analytics page: the only entry a page may log (the
 * server logs sign-ins, comments, votes and generations itself). Fire and forget: a failure goes
 * to the console only (not the error log, not a toast). The promise never rejects.
 */
export async function logPageView(path: string): Promise<void> {
  try {
    await api(activityRoutes.log, { body: { activityType: 'page_view', details: detailsText({ path: path.slice(0, ACTIVITY_LIMITS.pagePathChars) }) } });
  } catch (error) {
    console.warn('Activity log of a page view failed.', error);
  }
}
