import { sql, type Kysely, type Transaction } from 'kysely';
import {
  generatedBySchema,
  type GenerateSuggestionsResponse,
  type GeneratedBy,
  type Suggestion,
  type SuggestionOutput,
  type SuggestionVoteResult,
} from '../../../shared/contract/ai.js';
import type { VoteType } from '../../../shared/contract/comments.js';
import { inputHash, onlyKnown, stamp, type AiEngine, type AiRun } from '../../ai-providers/engine.js';
import type { CommentForAnalysis } from '../../ai-providers/provider.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { ReadCache } from '../../event-bus/read-cache.js';
import { initialsOf } from '../../../shared/names.js';
import { allCommentsForAnalysis } from './comment-input.js';
import { matchSuggestions } from './match-suggestions.js';
import { ERROR_CODES } from '../../../shared/api/error-codes.js';

/** At most one generation per 10 s, and one at a time. */
export const GENERATION_INTERVAL_MS = 10_000;
/** A 'running' generation older than this died with its instance (the model call times out at 30 s, retried once). */
const GENERATION_LEASE_MS = 90_000;
const WAIT_POLL_MS = 200;
/** One key for the whole suggestions table in pg_advisory_xact_lock. */
const GENERATION_LOCK_KEY = 5_100_001;
const LIST_KEY = 'with-votes';
const READ_CACHE_MAX_AGE_MS = 10_000;

interface StoredSuggestion {
  suggestion: string;
  recommendationType: 'content' | 'structural';
  components: string[];
  memberInitials: string[];
  sources: number[];
}

const parseIds = (json: string): number[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
};
const parseStrings = (json: string): string[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

/** What a provider proposed, tied to real comments: unknown sources dropped, components and authors from the sources. */
export function groundSuggestions(outputs: readonly SuggestionOutput[], comments: readonly CommentForAnalysis[]): StoredSuggestion[] {
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  const known = new Set(byId.keys());
  const grounded: StoredSuggestion[] = [];
  for (const output of outputs) {
    const sources = onlyKnown(output.sources, known);
    if (sources.length === 0) continue;
    const cited = sources.flatMap((id) => byId.get(id) ?? []);
    grounded.push({
      suggestion: output.suggestion,
      recommendationType: output.recommendationType,
      components: [...new Set(cited.map((comment) => comment.componentId))],
      memberInitials: [...new Set(cited.map((comment) => initialsOf(comment.memberName)))],
      sources,
    });
  }
  return grounded;
}

type Claim = { kind: 'claimed'; generationId: number } | { kind: 'recent'; generationId: number } | { kind: 'running'; generationId: number };

export class SuggestionService {
  private running: Promise<GenerateSuggestionsResponse> | undefined;
  private readonly cache: ReadCache;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly engine: AiEngine,
    private readonly events: EventBus,
    private readonly titleOf: (componentId: string) => string,
  ) {
    this.cache = new ReadCache(events, { maxAgeMs: READ_CACHE_MAX_AGE_MS });
    events.onChange((event) => {
      if (event.type === 'suggestions.generated' || event.type === 'suggestion.vote.changed') this.cache.invalidate(LIST_KEY);
    });
    events.onGap(() => {
      this.cache.invalidateAll();
    });
  }

  /** GET /api/suggestions/with-votes as JSON bytes. */
  listJson(): Promise<Buffer> {
    return this.cache.get(LIST_KEY, async () => Buffer.from(JSON.stringify(await this.list())));
  }

  /** The active suggestions, in the latest generation's order, with their votes: two queries. */
  async list(db: Kysely<Database> = this.db): Promise<Suggestion[]> {
    const rows = await db.selectFrom('suggestions').selectAll().where('status', '=', 'active').orderBy('rank').orderBy('id').execute();
    if (rows.length === 0) return [];
    const votes = await db
      .selectFrom('suggestion_votes')
      .innerJoin('suggestions', 'suggestions.id', 'suggestion_votes.suggestion_id')
      .select(['suggestion_votes.suggestion_id', 'suggestion_votes.member_name', 'suggestion_votes.vote_type'])
      .where('suggestions.status', '=', 'active')
      .orderBy('suggestion_votes.created_at')
      .execute();
    const votesOf = new Map<number, { memberName: string; voteType: VoteType }[]>();
    for (const vote of votes) {
      const list = votesOf.get(vote.suggestion_id) ?? [];
      list.push({ memberName: vote.member_name, voteType: vote.vote_type });
      votesOf.set(vote.suggestion_id, list);
    }
    return rows.map((row) => ({
      id: row.id,
      suggestion: row.suggestion,
      components: parseStrings(row.components),
      recommendationType: row.recommendation_type,
      memberInitials: parseStrings(row.member_initials),
      votes: votesOf.get(row.id) ?? [],
      sources: parseIds(row.sources),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    }));
  }

  /**
   * POST /api/suggestions/generate. A request while one runs in this instance shares its result;
   * one while another instance runs waits for that; one within 10 s of the last generation gets
   * that generation's result again (`reused`).
   */
  generate(member: MemberRow): Promise<GenerateSuggestionsResponse> {
    if (this.running !== undefined) return this.running.then((result) => ({ ...result, reused: true }));
    const run = this.generateOnce(member).finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async generateOnce(member: MemberRow): Promise<GenerateSuggestionsResponse> {
    const claim = await this.claim(member.full_name);
    if (claim.kind === 'recent') return this.resultOf(claim.generationId, true);
    if (claim.kind === 'running') return this.resultOf(await this.waitFor(claim.generationId), true);

    const { generationId } = claim;
    try {
      const comments = await allCommentsForAnalysis(this.db, this.titleOf);
      const run = await this.engine.run('set of suggestions', (provider, signal) => provider.generateSuggestions({ comments }, signal), { localOnly: comments.length === 0 });
      const version = run.provider.promptVersion('suggestions');
      const generatedBy = stamp(run.provider, version, inputHash({ kind: 'suggestions', provider: run.provider, promptVersion: version, input: comments }), Date.now());
      await this.apply(generationId, comments, run, generatedBy);
    } catch (error) {
      await this.db.updateTable('suggestion_generations').set({ status: 'failed', finished_at: Date.now() }).where('id', '=', generationId).execute();
      throw error;
    }
    await this.events.publish({ type: 'suggestions.generated', generationId });
    return this.resultOf(generationId, false);
  }

  private async lockGenerations(trx: Transaction<Database>): Promise<void> {
    // SQLite runs one transaction at a time on its single connection; PostgreSQL needs the lock.
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${GENERATION_LOCK_KEY})`.execute(trx);
  }

  private claim(requestedBy: string): Promise<Claim> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockGenerations(trx);
      const now = Date.now();
      await trx
        .updateTable('suggestion_generations')
        .set({ status: 'failed', finished_at: now })
        .where('status', '=', 'running')
        .where('started_at', '<=', now - GENERATION_LEASE_MS)
        .execute();
      const running = await trx.selectFrom('suggestion_generations').select('id').where('status', '=', 'running').orderBy('id', 'desc').executeTakeFirst();
      if (running !== undefined) return { kind: 'running', generationId: running.id };
      const recent = await trx
        .selectFrom('suggestion_generations')
        .select('id')
        .where('status', '=', 'done')
        .where('finished_at', '>', now - GENERATION_INTERVAL_MS)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (recent !== undefined) return { kind: 'recent', generationId: recent.id };
      const inserted = await trx
        .insertInto('suggestion_generations')
        .values({ status: 'running', started_at: now, requested_by: requestedBy.slice(0, 100) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { kind: 'claimed', generationId: inserted.id };
    });
  }

  /** Another instance's generation: its result is this request's answer. */
  private async waitFor(generationId: number): Promise<number> {
    const deadline = Date.now() + GENERATION_LEASE_MS;
    while (Date.now() < deadline) {
      const row = await this.db.selectFrom('suggestion_generations').select('status').where('id', '=', generationId).executeTakeFirst();
      if (row?.status === 'done') return generationId;
      if (row === undefined || row.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
    throw new AppError(503, ERROR_CODES.generationFailed, 'The suggestion generation running at the same time failed; try again');
  }

  /** Stores a generation: matched suggestions keep their id and votes, new ones are added, the rest archived. */
  private async apply(generationId: number, comments: readonly CommentForAnalysis[], run: AiRun<{ suggestions: SuggestionOutput[] }>, generatedBy: GeneratedBy) {
    const fresh = groundSuggestions(run.output.suggestions, comments);
    await this.db.transaction().execute(async (trx) => {
      await this.lockGenerations(trx);
      const now = Date.now();
      const existing = (await trx.selectFrom('suggestions').select(['id', 'suggestion', 'sources', 'status']).execute()).map((row) => ({
        id: row.id,
        text: row.suggestion,
        sources: parseIds(row.sources),
        status: row.status,
      }));
      const matches = matchSuggestions(
        existing,
        fresh.map((suggestion) => ({ text: suggestion.suggestion, sources: suggestion.sources })),
      );
      let created = 0;
      let kept = 0;
      for (const [rank, suggestion] of fresh.entries()) {
        const values = {
          suggestion: suggestion.suggestion,
          recommendation_type: suggestion.recommendationType,
          components: JSON.stringify(suggestion.components),
          member_initials: JSON.stringify(suggestion.memberInitials),
          sources: JSON.stringify(suggestion.sources),
          status: 'active' as const,
          rank,
          generation_id: generationId,
          updated_at: now,
          archived_at: null,
        };
        const id = matches[rank];
        if (id === undefined) {
          await trx.insertInto('suggestions').values({ ...values, created_at: now }).execute();
          created += 1;
        } else {
          await trx.updateTable('suggestions').set(values).where('id', '=', id).execute();
          kept += 1;
        }
      }
      const keptIds = new Set(matches.filter((id): id is number => id !== undefined));
      const toArchive = existing.filter((old) => old.status === 'active' && !keptIds.has(old.id)).map((old) => old.id);
      if (toArchive.length > 0) {
        await trx.updateTable('suggestions').set({ status: 'archived', archived_at: now, updated_at: now }).where('id', 'in', toArchive).execute();
      }
      await trx
        .updateTable('suggestion_generations')
        .set({
          status: 'done',
          finished_at: now,
          comment_count: comments.length,
          created,
          kept,
          archived: toArchive.length,
          generated_by: JSON.stringify(generatedBy),
          fallback: run.fallback ? 1 : 0,
          notice: run.notice ?? null,
        })
        .where('id', '=', generationId)
        .execute();
    });
  }

  private async resultOf(generationId: number, reused: boolean): Promise<GenerateSuggestionsResponse> {
    const row = await this.db.selectFrom('suggestion_generations').selectAll().where('id', '=', generationId).executeTakeFirstOrThrow();
    const generatedBy = generatedBySchema.parse(JSON.parse(row.generated_by ?? 'null'));
    return {
      suggestions: await this.list(),
      commentCount: row.comment_count,
      reused,
      created: row.created,
      kept: row.kept,
      archived: row.archived,
      generatedBy,
      fallback: row.fallback === 1,
      ...(row.notice === null ? {} : { notice: row.notice }),
    };
  }

  /** Same rules as comment votes: the same vote again removes it, the other replaces it. */
  async vote(member: MemberRow, suggestionId: number, voteType: VoteType): Promise<SuggestionVoteResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      const query = trx.selectFrom('suggestions').select(['id', 'status']).where('id', '=', suggestionId);
      const suggestion = await (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
      if (suggestion === undefined || suggestion.status !== 'active') throw notFound('Suggestion not found', ERROR_CODES.suggestionNotFound);
      const existing = await trx
        .selectFrom('suggestion_votes')
        .select('vote_type')
        .where('suggestion_id', '=', suggestionId)
        .where('member_id', '=', member.id)
        .executeTakeFirst();
      if (existing?.vote_type === voteType) {
        await trx.deleteFrom('suggestion_votes').where('suggestion_id', '=', suggestionId).where('member_id', '=', member.id).execute();
        return { suggestionId, myVote: null };
      }
      const now = Date.now();
      await trx
        .insertInto('suggestion_votes')
        .values({ suggestion_id: suggestionId, member_id: member.id, member_name: member.full_name, vote_type: voteType, created_at: now })
        .onConflict((oc) => oc.columns(['suggestion_id', 'member_id']).doUpdateSet({ vote_type: voteType, created_at: now }))
        .execute();
      return { suggestionId, myVote: voteType };
    });
    await this.events.publish({ type: 'suggestion.vote.changed', suggestionId });
    return result;
  }
}
