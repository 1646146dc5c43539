import { compareText } from './text.js';

/**
 * Greedy grouping by shared key phrase: the candidate that covers the most (and best-voted) items
 * not yet covered wins, then the next, until no candidate has enough uncovered items left.
 */

export interface Candidate {
  /** Unique; the last tie-break. */
  key: string;
  phrase: string;
  /** Item indices, ascending. */
  members: number[];
  /** When the phrase was first seen (earlier wins a tie). */
  order: number;
}

export interface Group {
  candidate: Candidate;
  /** `exclusive`: the items it took; otherwise every item with the phrase. */
  members: number[];
}

export interface GroupOptions {
  minSize: number;
  maxGroups: number;
  /** Extra weight per item (e.g. half its positive net votes). */
  bonus: readonly number[];
  /** Each item in at most one group. */
  exclusive: boolean;
}

export function pickGroups(candidates: readonly Candidate[], options: GroupOptions): Group[] {
  const covered = new Uint8Array(options.bonus.length);
  const groups: Group[] = [];
  let live = candidates.filter((candidate) => candidate.members.length >= options.minSize);
  while (groups.length < options.maxGroups && live.length > 0) {
    let best: Candidate | undefined;
    let bestWeight = -1;
    let bestCount = 0;
    let bestWords = 0;
    const next: Candidate[] = [];
    for (const candidate of live) {
      let count = 0;
      let weight = 0;
      for (const member of candidate.members) {
        if (covered[member] === 1) continue;
        count += 1;
        weight += 1 + (options.bonus[member] ?? 0);
      }
      if (count < options.minSize) continue;
      next.push(candidate);
      const words = candidate.phrase.split(' ').length;
      // A longer phrase is the more specific topic: 'approval gate timeout' before 'incident'.
      weight *= 1 + 0.2 * (Math.min(words, 3) - 1);
      const better =
        best === undefined ||
        weight > bestWeight ||
        (weight === bestWeight &&
          (count > bestCount ||
            (count === bestCount &&
              (words > bestWords ||
                (words === bestWords && (candidate.order < best.order || (candidate.order === best.order && compareText(candidate.key, best.key) < 0)))))));
      if (better) {
        best = candidate;
        bestWeight = weight;
        bestCount = count;
        bestWords = words;
      }
    }
    if (best === undefined) break;
    const taken = best.members.filter((member) => covered[member] === 0);
    for (const member of taken) covered[member] = 1;
    groups.push({ candidate: best, members: options.exclusive ? taken : [...best.members] });
    live = next.filter((candidate) => candidate !== best);
  }
  return groups;
}

/** Candidates from each item's phrases, keyed by `keyOf` (e.g. component and phrase). */
export function candidatesOf(items: ReadonlyArray<readonly string[]>, keyOf: (item: number, phrase: string) => string): Candidate[] {
  const byKey = new Map<string, Candidate>();
  let order = 0;
  items.forEach((phrases, item) => {
    for (const phrase of phrases) {
      const key = keyOf(item, phrase);
      const candidate = byKey.get(key);
      if (candidate === undefined) byKey.set(key, { key, phrase, members: [item], order: order++ });
      else if (candidate.members[candidate.members.length - 1] !== item) candidate.members.push(item);
    }
  });
  return [...byKey.values()];
}
