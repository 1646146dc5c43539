/**
 * The seeds of the bench's data sets. Every data set draws from the one seeded generator
 * (`src/server/seed/random.ts`, shared with the demo seed), so the same seed gives the same data.
 */

/** The seed of each generated data set; changing one changes that data set. */
export const SEEDS = {
  /** The 50,000 comments and 250,000 votes of the comment scenarios (lib/comment-data.ts). */
  commentData: 4_050_000,
  /** The 1,000,000 activity log rows of the analytics scenarios (lib/activity-data.ts). */
  activityData: 6_100_000,
  /** The analyzer's comments and suggestions (lib/analyzer.ts). */
  analyzerComments: 5_000,
  analyzerSuggestions: 7_000,
  /** The suggestions page's 60 suggestions and their votes (lib/suggestion-data.ts). */
  suggestionData: 8_300,
} as const;
