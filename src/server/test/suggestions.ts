import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type SuggestionValues = Insertable<Database['suggestions']>;

/**
 * A listed suggestion written straight to the database, in a finished generation of its own: for
 * tests that need one without running the analyzer. `outcome` sets its review status, owner and the like.
 */
export async function insertListedSuggestion(
  db: Kysely<Database>,
  suggestion: { text: string; componentIds: readonly string[]; initials: readonly string[]; sources: readonly number[]; requestedBy: string },
  outcome: Partial<Pick<SuggestionValues, 'review_status' | 'owner_name' | 'owner_member_id' | 'due_date'>> = {},
): Promise<number> {
  const now = Date.now();
  const generation = await db
    .insertInto('suggestion_generations')
    .values({ status: 'done', started_at: now, finished_at: now, requested_by: suggestion.requestedBy, generated_by: null, notice: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('suggestions')
    .values({
      suggestion: suggestion.text,
      recommendation_type: 'content',
      components: JSON.stringify(suggestion.componentIds),
      member_initials: JSON.stringify(suggestion.initials),
      sources: JSON.stringify(suggestion.sources),
      status: 'active',
      rank: 0,
      generation_id: generation.id,
      created_at: now,
      updated_at: now,
      archived_at: null,
      ...outcome,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
