/**
 * The suggestions the suggestions page shows in the bench (Lighthouse reads that page): one done
 * generation of 60 suggestions worded from the demo review's requests, each citing a few of its
 * component's generated comments, with seeded votes. Written straight to the tables: generating
 * them from 50,000 comments is a measurement of its own, not the page's.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.js';
import type { DEMO_THREADS } from '../../src/server/seed/demo-comments.js';
import { prng } from '../../src/server/seed/random.js';
import { SEEDS } from './random.js';

export const SUGGESTION_DATA_TARGETS = { suggestions: 60, maxSourcesEach: 4, maxVotesEach: 8 } as const;

interface GenerateSuggestionOptions {
  db: Kysely<Database>;
  threads: typeof DEMO_THREADS;
  /** Members who vote, by id and name. */
  members: ReadonlyArray<{ id: number; full_name: string }>;
  now?: number;
}

/** A request's first sentence, as a suggestion is worded. */
function firstSentence(text: string): string {
  return text.split(/(?<=[.!?])\s/)[0] ?? text;
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

export async function generateSuggestionData(options: GenerateSuggestionOptions): Promise<{ suggestions: number; votes: number }> {
  const { db, members } = options;
  const now = options.now ?? Date.now();
  const random = prng(SEEDS.suggestionData);
  const T = SUGGESTION_DATA_TARGETS;
  // A PostgreSQL bench database keeps the previous run's rows; the bench owns the suggestion tables.
  await db.deleteFrom('suggestion_votes').execute();
  await db.deleteFrom('suggestions').execute();
  await db.deleteFrom('suggestion_generations').execute();

  const requests = Object.entries(options.threads).flatMap(([componentId, entries]) =>
    entries.filter((entry) => entry.kind === 'proposal' || /\b(?:should|must|please|need|add|make)\b/i.test(entry.text)).map((entry) => ({ componentId, text: firstSentence(entry.text) })),
  );
  if (requests.length === 0) throw new Error('the demo review has no requests to word suggestions from');

  const generation = await db
    .insertInto('suggestion_generations')
    .values({ status: 'done', started_at: now - 60_000, finished_at: now - 55_000, requested_by: 'bench', comment_count: 0, created: T.suggestions })
    .returning('id')
    .executeTakeFirstOrThrow();

  let votes = 0;
  for (let rank = 0; rank < T.suggestions; rank += 1) {
    const request = requests[rank % requests.length];
    if (request === undefined) continue;
    const sourceCount = 1 + Math.floor(random() * T.maxSourcesEach);
    const sources = await db
      .selectFrom('comments')
      .select(['id', 'member_name'])
      .where('component_id', '=', request.componentId)
      .orderBy('id')
      .offset(rank * T.maxSourcesEach)
      .limit(sourceCount)
      .execute();
    const row = await db
      .insertInto('suggestions')
      .values({
        suggestion: request.text,
        recommendation_type: /\b(?:split|merge|remove|replace|move)\b/i.test(request.text) ? 'structural' : 'content',
        components: JSON.stringify([request.componentId]),
        member_initials: JSON.stringify([...new Set(sources.map((source) => initialsOf(source.member_name)))]),
        sources: JSON.stringify(sources.map((source) => source.id)),
        status: 'active',
        rank,
        generation_id: generation.id,
        created_at: now - 55_000,
        updated_at: now - 55_000,
        archived_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const voteCount = Math.floor(random() * (T.maxVotesEach + 1));
    const voters = [...members].sort(() => random() - 0.5).slice(0, voteCount);
    if (voters.length > 0) {
      await db
        .insertInto('suggestion_votes')
        .values(
          voters.map((member) => ({
            suggestion_id: row.id,
            member_id: member.id,
            member_name: member.full_name,
            vote_type: random() < 0.8 ? ('thumbs_up' as const) : ('thumbs_down' as const),
            created_at: now - 50_000,
          })),
        )
        .execute();
      votes += voters.length;
    }
  }
  return { suggestions: T.suggestions, votes };
}
