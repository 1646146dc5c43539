/**
 * Regenerating never loses votes: a new suggestion that is an old one again —
 * the same text, or mostly the same source comments — takes over the old one's id (and so its
 * votes). Pure, so the rule is tested on its own.
 */

export interface ExistingSuggestion {
  id: number;
  text: string;
  sources: readonly number[];
  status: 'active' | 'archived';
}

export interface FreshSuggestion {
  text: string;
  sources: readonly number[];
}

/** Sources overlap (Jaccard) from which two suggestions are the same one reworded. */
export const SAME_SUGGESTION_OVERLAP = 0.5;

export function normalizeSuggestionText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function sourceOverlap(a: readonly number[], b: readonly number[]): number {
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const id of left) if (right.has(id)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** For each fresh suggestion, in order, the id of the old one it continues, or undefined for a new one. */
export function matchSuggestions(existing: readonly ExistingSuggestion[], fresh: readonly FreshSuggestion[]): (number | undefined)[] {
  const taken = new Set<number>();
  const matches: (number | undefined)[] = fresh.map(() => undefined);
  const byText = new Map<string, ExistingSuggestion[]>();
  for (const old of [...existing].sort((a, b) => statusOrder(a) - statusOrder(b) || a.id - b.id)) {
    const key = normalizeSuggestionText(old.text);
    byText.set(key, [...(byText.get(key) ?? []), old]);
  }
  // The same text first: it is the same suggestion, active or archived (it comes back with its votes).
  fresh.forEach((suggestion, index) => {
    const candidate = byText.get(normalizeSuggestionText(suggestion.text))?.find((old) => !taken.has(old.id));
    if (candidate === undefined) return;
    taken.add(candidate.id);
    matches[index] = candidate.id;
  });
  // Then reworded ones: the active suggestion sharing the most sources, if enough.
  fresh.forEach((suggestion, index) => {
    if (matches[index] !== undefined) return;
    let best: { id: number; overlap: number } | undefined;
    for (const old of existing) {
      if (old.status !== 'active' || taken.has(old.id)) continue;
      const overlap = sourceOverlap(old.sources, suggestion.sources);
      if (overlap < SAME_SUGGESTION_OVERLAP) continue;
      if (best === undefined || overlap > best.overlap || (overlap === best.overlap && old.id < best.id)) best = { id: old.id, overlap };
    }
    if (best === undefined) return;
    taken.add(best.id);
    matches[index] = best.id;
  });
  return matches;
}

function statusOrder(suggestion: ExistingSuggestion): number {
  return suggestion.status === 'active' ? 0 : 1;
}
