import { ADDRESS, alternationOf } from './rules.js';

/**
 * Who a sentence is addressed to, out of what a lead reads: a comment often opens by greeting the
 * team or calling a teammate ('Hi all,', 'Team:', '@Priya', 'Priya, …', 'Morning Omar and Lena —'),
 * by crediting one ('Mira is right on the cost.', 'Tom has a point,', 'Ola yes, but …') or ends
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
  /**
   * Lowercased words an address can open with, and the words a name can end with: most sentences
   * open with neither, and are not run through the patterns at all (they backtrack through every
   * name at every comma, which cost a narrative of 200 suggestions a third of its first call).
   */
  openers: ReadonlySet<string>;
  closers: ReadonlySet<string>;
}

const FIRST_WORD = /^[\s"'“‘(]*@?(\p{L}+)/u;
const LAST_WORD = /(\p{L}+)(?:'s)?\s*[.!?]*\s*$/u;

const lowerWords = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/**
 * The patterns last built, and the names they know. Compiling them is most of their cost (some
 * 15–20 ms for a review's members), and each call brings a subset of the review's members (a
 * component's authors, a narrative's): the patterns know every name seen so far, up to a bound,
 * and are built again only when a new name comes. A name of another member of the review is a
 * member's name all the same.
 */
const KNOWN_NAMES_MAX = 500;
let known: { names: Set<string>; addressing: Addressing } | undefined;

/** The patterns for one review's members; build once and apply to many sentences. */
export function addressingOf(memberNames: readonly string[]): Addressing {
  if (known !== undefined && memberNames.every((name) => known?.names.has(name) === true)) return known.addressing;
  const names = new Set(known !== undefined && known.names.size + memberNames.length <= KNOWN_NAMES_MAX ? known.names : []);
  for (const name of memberNames) names.add(name);
  known = { names, addressing: buildAddressing([...names]) };
  return known.addressing;
}

function buildAddressing(memberNames: readonly string[]): Addressing {
  const names = callingNames(memberNames).map(escape);
  const name = names.length === 0 ? null : String.raw`@?(?:${names.join('|')})(?:'s)?\b`;
  const handle = String.raw`@[\p{L}\p{N}._-]+`;
  const someone = name === null ? handle : String.raw`(?:${name}|${handle})`;
  const several = String.raw`${someone}(?:\s*(?:,|and|&)\s*${someone})*`;
  const credited = name === null ? null : String.raw`(?:${name}(?:\s*(?:,|and|&)\s*${name})*)${CREDIT}`;
  const called = String.raw`(?:${GREETING}(?:\s+(?:${GROUP}|${several}))?|${GROUP}|${credited === null ? '' : `${credited}|`}${several})`;
  const calling = callingNames(memberNames);
  const openers = new Set([...ADDRESS.greetings.words, ...ADDRESS.wholeGroup.words, ...calling].flatMap((phrase) => lowerWords(phrase).slice(0, 1)));
  const closers = new Set(calling.flatMap((phrase) => lowerWords(phrase).slice(-1)));
  return {
    openers,
    closers,
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
  const rest = mayOpen(text, addressing) ? text.replace(addressing.opening, '') : text;
  return rest !== text && !/\p{L}{3,}/u.test(rest);
}

function mayOpen(text: string, addressing: Addressing): boolean {
  if (text.startsWith('@')) return true;
  const first = FIRST_WORD.exec(text)?.[1];
  return first !== undefined && addressing.openers.has(first.toLowerCase());
}

function mayClose(text: string, addressing: Addressing): boolean {
  if (!text.includes(',')) return false;
  if (text.includes('@')) return true;
  const last = LAST_WORD.exec(text)?.[1];
  return last !== undefined && addressing.closers.has(last.toLowerCase());
}

export function withoutAddress(sentence: string, addressing: Addressing): string {
  const text = sentence.trim();
  let stripped = mayOpen(text, addressing) ? text.replace(addressing.opening, '') : text;
  if (addressing.closing !== null && mayClose(stripped, addressing)) stripped = stripped.replace(addressing.closing, '$1');
  stripped = stripped.trim();
  if (stripped === text) return text;
  // Capitalised past a quote it may open with: "'Assessing' for six hours …".
  return stripped.length >= 12 ? stripped.replace(/^(["'“‘(]*)(\p{Ll})/u, (_all, quote: string, letter: string) => quote + letter.toUpperCase()) : text;
}
