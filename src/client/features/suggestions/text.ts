/**
 * How the page words and cuts AI text: the consensus is cut at 120
 * characters, each key action at 100, the confidence shown as a rounded percent.
 */
export const CONSENSUS_CUT = 120;
export const KEY_ACTION_CUT = 100;
export const TOP_THEMES = 2;
export const TOP_ACTIONS = 2;

/**
 * The first `max` characters (whole code points, so an emoji is never split) and whether anything
 * was left out. Trailing spaces of the cut are dropped; the reader adds the ellipsis.
 */
export function cutText(text: string, max: number): { shown: string; cut: boolean } {
  const characters = Array.from(text);
  if (characters.length <= max) return { shown: text, cut: false };
  return { shown: characters.slice(0, max).join('').trimEnd(), cut: true };
}

/** 0.724 → '72%'; out-of-range values are held to 0–100. */
export function confidencePercent(confidence: number): string {
  const bounded = Number.isFinite(confidence) ? Math.min(1, Math.max(0, confidence)) : 0;
  return `${Math.round(bounded * 100)}%`;
}
