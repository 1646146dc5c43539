import { ROUTES } from '../../../common/routes';

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

/** What a sentence about a log entry may name: components by id, suggestions' text by id. */
export interface ActivityNames {
  componentTitle: (componentId: string) => string | undefined;
  suggestionText: (suggestionId: number) => { text: string; componentIds: readonly string[] } | undefined;
}

const SCREEN_NAMES: Readonly<Record<keyof typeof ROUTES, string>> = {
  home: 'the review',
  capabilities: 'the capabilities',
  principles: 'the development principles',
  analytics: 'team analytics',
  suggestions: 'the suggestions',
  admin: 'the admin page',
};

const PAGE_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(ROUTES).map(([screen, path]) => [path, SCREEN_NAMES[screen as keyof typeof ROUTES]]));

/** Details are the client's own JSON text: an object's fields, or nothing when they are not an object. */
function detailsObject(details: string | null): Readonly<Record<string, unknown>> {
  if (details === null) return {};
  try {
    const parsed: unknown = JSON.parse(details);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const stringField = (fields: Readonly<Record<string, unknown>>, key: string) => (typeof fields[key] === 'string' ? fields[key] : undefined);
const numberField = (fields: Readonly<Record<string, unknown>>, key: string) => (typeof fields[key] === 'number' ? fields[key] : undefined);

/** "on Deduplication", or nothing when the component is unknown: a raw id is not a name. */
function onComponents(componentIds: readonly string[], names: ActivityNames): string {
  const titles = componentIds.map((id) => names.componentTitle(id)).filter((title) => title !== undefined);
  return titles.length === 0 ? '' : ` on ${titles.join(', ')}`;
}

/** A page's name in words; an address that is no screen of the app (a mistyped link) says so, with the address. */
export function pageName(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return PAGE_NAMES.get(trimmed) ?? `a missing page (${trimmed})`;
}

function voteSentence(fields: Readonly<Record<string, unknown>>, names: ActivityNames): string {
  const myVote = stringField(fields, 'myVote');
  // The log stores the voter's own vote ("myVote"): read as theirs, never the reader's.
  const verb = myVote === 'thumbs_up' ? 'voted for' : myVote === 'thumbs_down' ? 'voted against' : 'withdrew a vote on';
  if (fields.target === 'suggestion') {
    const id = numberField(fields, 'suggestionId');
    const known = id === undefined ? undefined : names.suggestionText(id);
    if (known === undefined) return `${verb} a suggestion`;
    return `${verb} “${known.text}”${onComponents(known.componentIds, names)}`;
  }
  const componentId = stringField(fields, 'componentId');
  return `${verb} a comment${componentId === undefined ? '' : onComponents([componentId], names)}`;
}

function generatedSentence(fields: Readonly<Record<string, unknown>>): string {
  const parts = (
    [
      ['created', 'new'],
      ['kept', 'kept'],
      ['archived', 'archived'],
    ] as const
  ).flatMap(([key, word]) => {
    const count = numberField(fields, key);
    return count === undefined || count === 0 ? [] : [`${count} ${word}`];
  });
  return parts.length === 0 ? 'generated suggestions' : `generated suggestions (${parts.join(', ')})`;
}

/**
 * A log entry as what the member did, to follow their name: 'voted for a comment on Deduplication'.
 * Only what the details say is written, so a sentence stays true when a title or text is unknown.
 */
export function activitySentence(entry: { activityType: string; details: string | null }, names: ActivityNames): string {
  const fields = detailsObject(entry.details);
  switch (entry.activityType) {
    case 'login':
      return 'signed in';
    case 'page_view': {
      const path = stringField(fields, 'path');
      return path === undefined ? 'viewed a page' : `viewed ${pageName(path)}`;
    }
    case 'comment_added': {
      const componentId = stringField(fields, 'componentId');
      return `commented${componentId === undefined ? '' : onComponents([componentId], names)}`;
    }
    case 'vote_cast':
      return voteSentence(fields, names);
    case 'suggestions_generated':
      return generatedSentence(fields);
    default:
      return activityLabel(entry.activityType).toLowerCase();
  }
}

/** "voted for …" → "Voted for …", for a sentence without a name before it. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** A moment as the reader's clock time, "10:02". */
export function formatClock(iso: string): string {
  return clockFormat.format(Date.parse(iso));
}

/** What a run of one kind says, before its time: "viewed 5 pages", "signed in 3 times". */
const RUN_WORDS: Readonly<Record<string, (count: number) => string>> = {
  page_view: (count) => `viewed ${count} pages`,
  login: (count) => `signed in ${count} times`,
};

/** A run of page views or sign-ins: "viewed 5 pages between 10:02 and 10:09", or "at 10:02" when both fall in one minute. */
export function runSentence(activityType: string, count: number, firstIso: string, lastIso: string): string {
  const what = RUN_WORDS[activityType]?.(count) ?? `${activityLabel(activityType).toLowerCase()} ${count} times`;
  const from = formatClock(firstIso);
  const to = formatClock(lastIso);
  return from === to ? `${what} at ${from}` : `${what} between ${from} and ${to}`;
}

/** Runs of entries by one member, newest first as they came. */
export interface ActivityRun<Entry> {
  first: Entry;
  entries: Entry[];
}

/** Consecutive page views, or sign-ins, by one member fold into one run: browsing and coming back do not push comments and votes out of sight. */
export function foldRuns<Entry extends { activityType: string; memberName?: string }>(entries: readonly Entry[]): ActivityRun<Entry>[] {
  const runs: ActivityRun<Entry>[] = [];
  for (const entry of entries) {
    const last = runs.at(-1);
    const folds = entry.activityType in RUN_WORDS && last?.first.activityType === entry.activityType && last.first.memberName === entry.memberName;
    if (folds) last.entries.push(entry);
    else runs.push({ first: entry, entries: [entry] });
  }
  return runs;
}

const dayFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A UTC day 'YYYY-MM-DD' as "Nov 5"; anything else as it came. */
export function formatDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : dayFormat.format(time);
}

/** A duration in the smallest units that hold it: "12m", "2h 5m"; seconds are dropped. */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  return minutes < 60 ? `${minutes}m` : formatHoursMinutes(seconds);
}

/** A time axis: where its ticks go (seconds) and how each reads. */
export interface TimeAxis {
  ticks: number[];
  label: (seconds: number) => string;
}

const MINUTE_STEPS = [1, 2, 5, 10, 15, 20, 30].map((minutes) => minutes * 60);
const HOUR_STEPS = [0.5, 1, 2, 3, 4, 6, 12, 24].map((hours) => hours * 3600);
/** At most this many steps above zero: a 288 px chart stays readable. */
const MAX_STEPS = 5;

/** "45m", "2h", "1h 30m"; a no-break space, as Recharts wraps a tick label at spaces. */
function axisHoursMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes}m`;
  return minutes % 60 === 0 ? `${hours}h` : `${hours}h\u00a0${minutes % 60}m`;
}

/**
 * The axis for times up to `maxSeconds`: in minutes below two hours, in hours and minutes above,
 * with round steps from zero to just past the largest value.
 */
export function timeAxis(maxSeconds: number): TimeAxis {
  const top = Math.max(maxSeconds, 60);
  const inMinutes = top < 2 * 3600;
  const steps = inMinutes ? MINUTE_STEPS : HOUR_STEPS;
  const step = steps.find((candidate) => Math.ceil(top / candidate) <= MAX_STEPS) ?? Math.ceil(top / MAX_STEPS / 86_400) * 86_400;
  const count = Math.ceil(top / step);
  return {
    ticks: Array.from({ length: count + 1 }, (_, index) => index * step),
    label: inMinutes ? (seconds) => `${Math.round(seconds / 60)}m` : axisHoursMinutes,
  };
}

/** Pixels a character of a 12 px axis label takes at most (digits and short month names). */
export const AXIS_CHAR_PX = 7;

/**
 * Every how many labels one is shown on an axis of `count` labels across `width` px (Recharts'
 * `interval`: 0 shows all), so that no two come closer than `gap` px. Worked out from the labels'
 * length: left to Recharts, it measures every label in the page, a forced layout each, which on a
 * phone was most of the chart's first render.
 */
export function labelInterval(labels: readonly string[], width: number, gap: number): number {
  const longest = Math.max(0, ...labels.map((label) => label.length));
  const fits = Math.max(1, Math.floor(width / (longest * AXIS_CHAR_PX + gap)));
  return Math.max(0, Math.ceil(labels.length / fits) - 1);
}

/** A count axis: whole numbers from zero, in steps of 1, 2 or 5 times a power of ten. */
export interface CountAxis {
  ticks: number[];
}

/** The axis for counts up to `max`: at most MAX_STEPS round steps from zero to just past it. */
export function countAxis(max: number): CountAxis {
  const top = Math.max(max, 1);
  let step = 1;
  for (let magnitude = 1; ; magnitude *= 10) {
    const found = [1, 2, 5].map((factor) => factor * magnitude).find((candidate) => Math.ceil(top / candidate) <= MAX_STEPS);
    if (found !== undefined) {
      step = found;
      break;
    }
  }
  const count = Math.ceil(top / step);
  return { ticks: Array.from({ length: count + 1 }, (_, index) => index * step) };
}
