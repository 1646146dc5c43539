import { FUNCTION_WORDS, wordsOf } from './rules.js';
import { compareText } from './text.js';

/**
 * Runs of words that several texts write alike ('flap damping window', 'kill switch'): how the
 * analyzer names a contested question, a conflict between suggestions and a theme, in the team's
 * own words rather than by one word that happens to recur. A run stays inside one clause, never
 * starts or ends with a filler word, and holds no figure (two sides differ exactly there: 'timeout
 * to 30 minutes', 'to 5 minutes') and no member's name.
 */

/** Words a run never starts or ends with: every function word. */
const EDGE_WORDS = wordsOf(...Object.values(FUNCTION_WORDS));

/** A word as written: letters (with digits, hyphens, an apostrophe's ending), or a figure. */
export const WORD = /\p{L}[\p{L}\p{N}-]*(?:'\p{L}+)?|\p{N}[\p{N}.,:]*/gu;
const CLAUSE_BREAK = /[.,;:!?()[\]"“”—–]+\s|[;:!?()[\]"“”—–]/u;

export const wordCount = (run: string): number => run.split(' ').length;

/** The words of members' names, lowercased: no run is made of them. */
export function namesIn(memberNames: readonly string[]): Set<string> {
  return new Set(memberNames.flatMap((name) => name.toLowerCase().match(WORD) ?? []));
}

/** A text's runs of two to four words, lowercased. */
function runsIn(text: string, names: ReadonlySet<string>): Set<string> {
  const runs = new Set<string>();
  for (const clause of text.toLowerCase().split(CLAUSE_BREAK)) {
    const words = clause.match(WORD) ?? [];
    for (let length = 2; length <= 4; length += 1) {
      for (let start = 0; start + length <= words.length; start += 1) {
        const run = words.slice(start, start + length);
        const first = run[0] ?? '';
        const last = run[run.length - 1] ?? '';
        if (EDGE_WORDS.has(first) || EDGE_WORDS.has(last) || run.some((word) => names.has(word) || /^\p{N}/u.test(word))) continue;
        runs.add(run.join(' '));
      }
    }
  }
  return runs;
}

/**
 * A question named as two sides write it: the longest run a text of each side uses, else the
 * longest run two of their texts use.
 */
export function sharedRun(textsA: readonly string[], textsB: readonly string[], names: ReadonlySet<string>): string | undefined {
  const a = textsA.map((text) => runsIn(text, names));
  const b = textsB.map((text) => runsIn(text, names));
  const count = (run: string) => [...a, ...b].filter((runs) => runs.has(run)).length;
  const all = [...new Set([...a, ...b].flatMap((runs) => [...runs]))];
  const byLength = (x: string, y: string) => wordCount(y) - wordCount(x) || count(y) - count(x) || compareText(x, y);
  const [run] = all.filter((candidate) => b.some((runs) => runs.has(candidate)) && a.some((runs) => runs.has(candidate))).sort(byLength);
  return run ?? all.filter((candidate) => count(candidate) >= 2).sort(byLength)[0];
}

/**
 * What a group of texts is about, in their words: the longest run that `enough` of them write, the
 * more texts the better among equals; `says` rules out a run that says nothing (the title's words alone).
 */
export function mostSharedRun(texts: readonly string[], names: ReadonlySet<string>, enough: number, says: (run: string) => boolean = () => true): string | undefined {
  const runs = texts.map((text) => runsIn(text, names));
  const counts = new Map<string, number>();
  for (const set of runs) for (const run of set) counts.set(run, (counts.get(run) ?? 0) + 1);
  const [best] = [...counts.entries()]
    .filter(([run, count]) => count >= enough && says(run))
    .sort(([x, countX], [y, countY]) => wordCount(y) - wordCount(x) || countY - countX || compareText(x, y));
  return best === undefined ? undefined : asWritten(best[0], texts);
}

/** A word for a regular expression, its special characters escaped. */
const literal = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A run as one of the texts writes it ('PoP code', not 'pop code'). */
function asWritten(run: string, texts: readonly string[]): string {
  const pattern = new RegExp(run.split(' ').map(literal).join('[^\\p{L}\\p{N}]+'), 'iu');
  for (const text of texts) {
    const found = pattern.exec(text);
    if (found !== null) return found[0];
  }
  return run;
}

/**
 * Whether the texts write a word (or a word it begins) as a name: with a figure, a capital inside
 * ('NetBox', 'CMDB', 'Sev1'), or a capital where no sentence starts ('the Splunk searches').
 */
export function writtenAsName(word: string, texts: readonly string[]): boolean {
  if (/\p{N}/u.test(word)) return true;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${literal(word)}[\\p{L}\\p{N}]*`, 'giu');
  for (const text of texts) {
    for (const found of text.matchAll(pattern)) {
      const written = found[0];
      if (/\p{Lu}/u.test(written.slice(1))) return true;
      const before = text.slice(0, found.index).trimEnd();
      if (/^\p{Lu}/u.test(written) && before !== '' && !/[.!?:;'"‘“(]$/u.test(before)) return true;
    }
  }
  return false;
}
