/**
 * The bench's one seeded generator: every generated data set draws from it, so the same seed gives
 * the same data on every run.
 */

/** The seed of each generated data set; changing one changes that data set. */
export const SEEDS = {
  /** The 50,000 comments and 250,000 votes of the comment scenarios (lib/comment-data.ts). */
  commentData: 4_050_000,
  /** The analyzer's comments and suggestions (lib/analyzer.ts). */
  analyzerComments: 5_000,
  analyzerSuggestions: 7_000,
} as const;

/** mulberry32: small, fast and seedable; returns numbers in [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
