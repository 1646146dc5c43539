import { capitalise } from './text.js';

/**
 * Who a sentence is addressed to, out of what a lead reads: a comment often opens by greeting the
 * team or calling a teammate ('Hi all,', 'Team:', '@Priya', 'Priya, …', 'Morning Omar and Lena —')
 * or ends by naming them ('…, Priya.'), and an action or suggestion worded from it reads as a
 * message to that person instead of a decision. A name is dropped only when it is a member's
 * (first or full name, as the input gives them): 'Overall,' or 'Grafana,' stays.
 */

/** Greetings and the words that call the whole team. */
const GREETING = String.raw`(?:hi|hello|hey|hiya|morning|good\s+(?:morning|afternoon|evening)|afternoon|evening|greetings|dear)`;
const GROUP = String.raw`(?:all|everyone|everybody|team|folks|people|y'all|you\s+all|guys|both(?:\s+of\s+you)?)`;
/** What ends the address: a comma, colon, dash or an end mark, then space. */
const END = String.raw`\s*(?:[,:;!.]+|\s[-–—]+)\s+`;

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
  const called = String.raw`(?:${GREETING}(?:\s+(?:${GROUP}|${several}))?|${GROUP}|${several})`;
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
export function withoutAddress(sentence: string, addressing: Addressing): string {
  const text = sentence.trim();
  let stripped = text.replace(addressing.opening, '');
  if (addressing.closing !== null) stripped = stripped.replace(addressing.closing, '$1');
  stripped = stripped.trim();
  if (stripped === text) return text;
  return stripped.length >= 12 ? capitalise(stripped) : text;
}
