import { ADDRESS, alternationOf } from './rules.js';

/**
 * Who a sentence is addressed to, out of what a lead reads: a comment often opens by greeting the
 * team or calling a teammate ('Hi all,', 'Team:', '@Priya', 'Priya, …', 'Morning Omar and Lena —'),
 * by crediting one ('Kenji is right on supply.', 'Grace has a point,', 'Yuki yes, but …') or ends
 * by naming them ('…, Priya.'), and an action or suggestion worded from it reads as a message to
 * that person instead of a decision. A name is dropped only when it is a member's (first or full
 * name, as the input gives them): 'Overall,' or 'Grafana,' stays.
 */

/** Greetings and the words that call the whole team. */
const GREETING = `(?:${alternationOf(ADDRESS.greetings)})`;
const GROUP = `(?:${alternationOf(ADDRESS.wholeGroup)})`;
/** What ends the address: a comma, colon, dash or an end mark, then space or the end. */
const END = String.raw`\s*(?:[,:;!.]+|\s[-–—]+)(?:\s+|$)`;
/** What credits a teammate named before it: 'is right (on supply)', 'has a point (though)', 'yes'. */
const CREDIT = String.raw`(?:(?:\s+(?:is|was)|'s)\s+(?:right|correct|spot\s+on)|\s+(?:has|had|makes|made|raises|raised)\s+a\s+(?:good\s+|fair\s+|valid\s+|real\s+)?point|\s+(?:yes|no|agreed))(?:\s+(?:on|about)\s+[^,.;:!?]{1,40})?(?:\s+(?:though|there|here|again))?`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names a member may be called by: their full name and their first name (two letters or more). */
function callingNames(memberNames: readonly string[]): string[] {
  const names = new Set<string>();
  for (const name of memberNames) {
    const full = name.trim().replace(/\s+/g, ' ');
    if (full.length < 2) continue;
    names.add(full);
    const first = full.split(' ')[0] ?? '';
    if (first.length >= 2) names.add(first);
  }
  // Longest first, so 'Priya Raman' is taken whole before 'Priya'.
  return [...names].sort((a, b) => b.length - a.length);
}

export interface Addressing {
  opening: RegExp;
  closing: RegExp | null;
}

/** The patterns for one review's members; build once and apply to many sentences. */
export function addressingOf(memberNames: readonly string[]): Addressing {
  const names = callingNames(memberNames).map(escape);
  const name = names.length === 0 ? null : String.raw`@?(?:${names.join('|')})(?:'s)?\b`;
  const handle = String.raw`@[\p{L}\p{N}._-]+`;
  const someone = name === null ? handle : String.raw`(?:${name}|${handle})`;
  const several = String.raw`${someone}(?:\s*(?:,|and|&)\s*${someone})*`;
  const credited = name === null ? null : String.raw`(?:${name}(?:\s*(?:,|and|&)\s*${name})*)${CREDIT}`;
  const called = String.raw`(?:${GREETING}(?:\s+(?:${GROUP}|${several}))?|${GROUP}|${credited === null ? '' : `${credited}|`}${several})`;
  return {
    // Repeated: 'Hi all, Priya: …'. A handle needs no mark after it ('@priya please add …').
    opening: new RegExp(String.raw`^(?:(?:${called})${END}|${handle}\s+)+`, 'iu'),
    closing: name === null ? null : new RegExp(String.raw`,\s*(?:${several})\s*([.!?]*)$`, 'u'),
  };
}

/**
 * The sentence without the greeting or the names it opens or closes with, capitalised; as it was
 * when little would be left (a sentence that is only a greeting says nothing either way).
 */
/** Whether the sentence says nothing but whom it addresses or credits ('Hi all!', 'Rhys has a point though.'). */
export function onlyAddress(sentence: string, addressing: Addressing): boolean {
  const text = sentence.trim();
  const rest = text.replace(addressing.opening, '');
  return rest !== text && !/\p{L}{3,}/u.test(rest);
}

export function withoutAddress(sentence: string, addressing: Addressing): string {
  const text = sentence.trim();
  let stripped = text.replace(addressing.opening, '');
  if (addressing.closing !== null) stripped = stripped.replace(addressing.closing, '$1');
  stripped = stripped.trim();
  if (stripped === text) return text;
  // Capitalised past a quote it may open with: "'Assessing' for six hours …".
  return stripped.length >= 12 ? stripped.replace(/^(["'“‘(]*)(\p{Ll})/u, (_all, quote: string, letter: string) => quote + letter.toUpperCase()) : text;
}
