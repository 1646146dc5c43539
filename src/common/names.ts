import { NAME_MAX_LENGTH } from './limits.js';
import { hasBidiControls, hasForbiddenControls } from './text-rules.js';

/** Collapses inner whitespace and trims: how a member's full name is stored and shown. */
export function normalizeFullName(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ');
}

/** The uniqueness key of a name: normalized and case-folded, so 'ada  LOVELACE' is 'Ada Lovelace'. */
export function nameKey(name: string): string {
  return normalizeFullName(name).toLocaleLowerCase('en');
}

export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = normalizeFullName(fullName).split(' ');
  const firstName = words[0] ?? '';
  return { firstName, lastName: words.length > 1 ? words.slice(1).join(' ') : '' };
}

export const FULL_NAME_PATTERN = /^[\p{L}\p{M}][\p{L}\p{M}'’. -]*$/u;

/**
 * Controls and direction overrides are judged as typed, before inner whitespace is collapsed: a tab
 * or line break inside a name is refused, as it is at sign-in, not quietly turned into a space.
 */
export function isValidFullName(name: string): boolean {
  const typed = name.trim();
  if (hasForbiddenControls(typed, { multiline: false }) || hasBidiControls(typed)) return false;
  const normalized = normalizeFullName(name);
  return normalized.length > 0 && normalized.length <= NAME_MAX_LENGTH && FULL_NAME_PATTERN.test(normalized);
}

export const AUTOCOMPLETE_LIMIT = 5;

/**
 * Name autocomplete on the sign-in screen: matches rank by prefix of the full name, then prefix of the first word, of the
 * last word, of any word, then any substring; at most five, alphabetical within a rank.
 */
export function rankNameSuggestions(query: string, names: readonly string[], limit = AUTOCOMPLETE_LIMIT): string[] {
  const needle = nameKey(query);
  if (needle === '') return [];
  const ranked: { name: string; rank: number }[] = [];
  for (const name of names) {
    const rank = matchRank(needle, nameKey(name));
    if (rank !== undefined) ranked.push({ name, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name, 'en'));
  return ranked.slice(0, limit).map((entry) => entry.name);
}

function matchRank(needle: string, key: string): number | undefined {
  if (key.startsWith(needle)) return 0;
  const words = key.split(' ');
  if (words[0]?.startsWith(needle) === true) return 1;
  if (words.length > 1 && words[words.length - 1]?.startsWith(needle) === true) return 2;
  if (words.some((word) => word.startsWith(needle))) return 3;
  if (key.includes(needle)) return 4;
  return undefined;
}

/** 'Alice Archer' → 'AA', 'Cher' → 'C'; 'U' when there is no name. Avatars and suggestion authors. */
export function initialsOf(name: string | undefined): string {
  if (name === undefined || name.trim() === '') return 'U';
  const words = name.trim().split(/\s+/);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}
