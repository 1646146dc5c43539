import type { Kysely } from 'kysely';
import {
  generatedBySchema,
  type AnalysisSample,
  type GenerateSuggestionsResponse,
  type GeneratedBy,
  type Suggestion,
  type SuggestionOutput,
  type SuggestionVoteResult,
} from '../../../common/contract/ai.js';
import type { VoteType } from '../../../common/contract/comments.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import { initialsOf } from '../../../common/names.js';
import { boundedComments } from '../../ai-providers/analysis-bounds.js';
import { inputHash, stamp, type AiEngine, type AiRun } from '../../ai-providers/engine.js';
import { onlyKnown } from '../../ai-providers/known-sources.js';
import type { CommentForAnalysis, SuggestionForAnalysis } from '../../ai-providers/provider.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { JoinWrite } from '../../http/joined-work.js';
import { allCommentsForAnalysis, commentsForAnalysisByIds } from '../comments/analysis-input.js';
import { voteStore } from '../votes/repo.js';
import { toggleVote } from '../votes/toggle.js';
import { matchSuggestions } from './match-suggestions.js';
import {
  archiveSuggestions,
  failStaleGenerations,
  findGeneration,
  findGenerationFinishedAfter,
  findGenerationStatus,
  findRunningGeneration,
  finishGeneration,
  insertRunningGeneration,
  insertSuggestion,
  listActiveSuggestionsWithVotes,
  listAllSuggestions,
  lockGenerations,
  countActions,
  findSuggestion,
  listSuggestionVotes,
  lockSuggestion,
  markGenerationFailed,
  updateOutcome,
  updateSuggestion,
  type SuggestionRow,
} from './repo.js';
import { SUGGESTION_STATUS_LABELS, type SuggestionReviewStatus } from '../../../common/api/suggestions.js';
import { nameKey } from '../../../common/names.js';
import { badRequest, conflict, forbidden } from '../../errors.js';
import type { AdminActions } from '../admin/policies.js';
import { canCompleteAction, suggestionPermissions } from './policies.js';
import { audit } from '../auth/audit.js';
import { findMemberByKey } from '../members/repo.js';

/** At most one generation per 10 s, and one at a time. */
export const GENERATION_INTERVAL_MS = 10_000;
/** A 'running' generation older than this died with its instance (the model call times out at 30 s, retried once). */
const GENERATION_LEASE_MS = 90_000;
const WAIT_POLL_MS = 200;

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

/** A suggestion as every member sees it, with its owner's id (kept on the server) to present it to one member. */
export type OwnedSuggestion = Omit<Suggestion, 'mine' | 'permissions'> & { ownerId: number | null };

/** Presenter, second step: what one member is told of a suggestion, with what they may do with it. */
export function suggestionFor(member: MemberRow, { ownerId, ...suggestion }: OwnedSuggestion): Suggestion {
  return { ...suggestion, mine: ownerId === member.id, permissions: suggestionPermissions(member, { owner_member_id: ownerId }) };
}

/** Presenter: a suggestion's row and votes to its API shape, before it is told to one member. */
function presentSuggestion(row: SuggestionRow, votes: Array<{ memberName: string; voteType: VoteType }>): OwnedSuggestion {
  return {
    ownerId: row.owner_member_id,
    id: row.id,
    suggestion: row.suggestion,
    components: parseStrings(row.components),
    recommendationType: row.recommendation_type,
    memberInitials: parseStrings(row.member_initials),
    votes,
    sources: parseIds(row.sources),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    status: row.review_status,
    statusReason: row.status_reason,
    statusBy: row.status_by_name,
    statusAt: row.status_at === null ? null : new Date(row.status_at).toISOString(),
    owner: row.owner_name,
    dueDate: row.due_date,
  };
}

const suggestionNotFound = () => notFound('Suggestion not found', ERROR_CODES.suggestionNotFound);

type Claim = { kind: 'claimed'; generationId: number } | { kind: 'recent'; generationId: number } | { kind: 'running'; generationId: number };

export class SuggestionService {
  private running: Promise<GenerateSuggestionsResponse> | undefined;
  /**
   * The sample the last generation of this instance read, by generation id: the row stores how many
   * comments were read, not of how many (a reused result from another instance says nothing of it).
   */
  private lastSample: { generationId: number; sample: AnalysisSample } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly engine: AiEngine,
    private readonly events: EventBus,
    /** Checks the admin password of status and owner changes (throttled, audited). */
    private readonly adminActions: AdminActions,
    private readonly titleOf: (componentId: string) => string,
    /** What a component does, which the analyzer reads as the component's own vocabulary. */
    private readonly descriptionOf: (componentId: string) => string | undefined = () => undefined,
  ) {}

  private names() {
    return { titleOf: this.titleOf, descriptionOf: this.descriptionOf };
  }

  /** The active suggestions, in the latest generation's order, with their votes: two queries. */
  async list(): Promise<OwnedSuggestion[]> {
    const { rows, votes } = await listActiveSuggestionsWithVotes(this.db);
    const votesOf = new Map<number, { memberName: string; voteType: VoteType }[]>();
    for (const vote of votes) {
      const list = votesOf.get(vote.suggestion_id) ?? [];
      list.push({ memberName: vote.member_name, voteType: vote.vote_type });
      votesOf.set(vote.suggestion_id, list);
    }
    return rows.map((row) => presentSuggestion(row, votesOf.get(row.id) ?? []));
  }

  /**
   * The active suggestions as the team narrative reads them, with the comments they follow from.
   * Support is the votes on the suggestion plus those on the comments it came from: a fresh
   * suggestion has no votes of its own yet, but its comments may have many. What the team has
   * settled is not read as live: a suggestion with a status (accepted, in progress, done,
   * declined) or that a decision rests on is left out, and so are the texts of source comments
   * that are resolved or that a decision rests on, which is where disagreement is read from.
   */
  async listForAnalysis(decisionBasis: { commentIds: ReadonlySet<number>; suggestionIds: ReadonlySet<number> } = { commentIds: new Set(), suggestionIds: new Set() }): Promise<{
    suggestions: SuggestionForAnalysis[];
    sourceComments: CommentForAnalysis[];
    sample: AnalysisSample | undefined;
    settledSuggestionCount: number;
    settledCommentCount: number;
  }> {
    const listed = await this.list();
    const active = listed.filter((suggestion) => suggestion.status === 'open' && !decisionBasis.suggestionIds.has(suggestion.id));
    const allSources = await commentsForAnalysisByIds(this.db, active.flatMap((suggestion) => suggestion.sources), this.names());
    const open = allSources.filter((comment) => comment.resolved !== true && !decisionBasis.commentIds.has(comment.id));
    // Support counts every source comment's voters; the texts read are a bounded sample of the open ones (analysis-bounds.ts).
    const { comments: sourceComments, sample } = boundedComments(open);
    const commentById = new Map(allSources.map((comment) => [comment.id, comment]));
    const suggestions = active.map((suggestion) => {
      const sources = suggestion.sources.flatMap((id) => commentById.get(id) ?? []);
      // A suggestion is its source comments' authors' own: their votes, on it or on any of its
      // sources, are not support for it (the analyzer counts each author as backing it already).
      // Members are told apart by id on comments, by name (unique per member) on suggestion votes.
      const authorIds = new Set(sources.flatMap((comment) => (comment.memberId === undefined ? [] : [comment.memberId])));
      const authorNames = new Set(sources.map((comment) => comment.memberName));
      const notAuthor = (memberId: number) => !authorIds.has(memberId);
      const fromComments = sources.map((comment) => ({ up: (comment.upVoterIds ?? []).filter(notAuthor), down: (comment.downVoterIds ?? []).filter(notAuthor) }));
      const votesByOthers = suggestion.votes.filter((vote) => !authorNames.has(vote.memberName));
      return {
        id: suggestion.id,
        suggestion: suggestion.suggestion,
        recommendationType: suggestion.recommendationType,
        componentTitles: suggestion.components.map(this.titleOf),
        memberInitials: suggestion.memberInitials,
        upVotes: votesByOthers.filter((vote) => vote.voteType === 'thumbs_up').length + fromComments.reduce((sum, voters) => sum + voters.up.length, 0),
        downVotes: votesByOthers.filter((vote) => vote.voteType === 'thumbs_down').length + fromComments.reduce((sum, voters) => sum + voters.down.length, 0),
        sourceCount: suggestion.sources.length,
        upVoterIds: [...new Set(fromComments.flatMap((voters) => voters.up))],
        downVoterIds: [...new Set(fromComments.flatMap((voters) => voters.down))],
        sourceIds: suggestion.sources,
      };
    });
    return { suggestions, sourceComments, sample, settledSuggestionCount: listed.length - active.length, settledCommentCount: allSources.length - open.length };
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
    if (claim.kind === 'recent') return this.resultOf(member, claim.generationId, true);
    if (claim.kind === 'running') return this.resultOf(member, await this.waitFor(claim.generationId), true);

    const { generationId } = claim;
    try {
      // However many comments there are, the provider reads a bounded sample (analysis-bounds.ts),
      // and the stamp's hash is of that sample.
      const { comments, sample } = boundedComments(await allCommentsForAnalysis(this.db, this.names()));
      if (sample !== undefined) this.lastSample = { generationId, sample };
      const run = await this.engine.run('set of suggestions', (provider, signal) => provider.generateSuggestions({ comments }, signal), { localOnly: comments.length === 0 });
      const version = run.provider.promptVersion('suggestions');
      const generatedBy = stamp(run.provider, version, inputHash({ kind: 'suggestions', provider: run.provider, promptVersion: version, input: comments }), Date.now());
      await this.apply(generationId, comments, run, generatedBy);
    } catch (error) {
      await markGenerationFailed(this.db, generationId);
      throw error;
    }
    await this.events.publish({ type: 'suggestions.generated', generationId });
    return this.resultOf(member, generationId, false);
  }

  private claim(requestedBy: string): Promise<Claim> {
    return this.db.transaction().execute(async (trx) => {
      await lockGenerations(trx, this.dialect);
      const now = Date.now();
      await failStaleGenerations(trx, now - GENERATION_LEASE_MS, now);
      const running = await findRunningGeneration(trx);
      if (running !== undefined) return { kind: 'running', generationId: running };
      const recent = await findGenerationFinishedAfter(trx, now - GENERATION_INTERVAL_MS);
      if (recent !== undefined) return { kind: 'recent', generationId: recent };
      return { kind: 'claimed', generationId: await insertRunningGeneration(trx, requestedBy, now) };
    });
  }

  /** Another instance's generation: its result is this request's answer. */
  private async waitFor(generationId: number): Promise<number> {
    const deadline = Date.now() + GENERATION_LEASE_MS;
    while (Date.now() < deadline) {
      const status = await findGenerationStatus(this.db, generationId);
      if (status === 'done') return generationId;
      if (status === undefined || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
    throw new AppError(503, ERROR_CODES.generationFailed, 'The suggestion generation running at the same time failed; try again');
  }

  /** Stores a generation: matched suggestions keep their id and votes, new ones are added, the rest archived. */
  private async apply(generationId: number, comments: readonly CommentForAnalysis[], run: AiRun<{ suggestions: SuggestionOutput[] }>, generatedBy: GeneratedBy) {
    const fresh = groundSuggestions(run.output.suggestions, comments);
    await this.db.transaction().execute(async (trx) => {
      await lockGenerations(trx, this.dialect);
      const now = Date.now();
      const existing = (await listAllSuggestions(trx)).map((row) => ({
        id: row.id,
        text: row.suggestion,
        sources: parseIds(row.sources),
        status: row.status,
        reviewStatus: row.review_status,
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
          await insertSuggestion(trx, values, now);
          created += 1;
        } else {
          await updateSuggestion(trx, id, values);
          kept += 1;
        }
      }
      const keptIds = new Set(matches.filter((id): id is number => id !== undefined));
      // A suggestion the team has decided on (accepted, declined, an action in progress or done) stays
      // listed whatever the new generation says: its status, reason, owner and votes are the review's record.
      const toArchive = existing.filter((old) => old.status === 'active' && old.reviewStatus === 'open' && !keptIds.has(old.id)).map((old) => old.id);
      await archiveSuggestions(trx, toArchive, now);
      await finishGeneration(trx, generationId, {
          finished_at: now,
          comment_count: comments.length,
          created,
          kept,
          archived: toArchive.length,
          generated_by: JSON.stringify(generatedBy),
          fallback: run.fallback ? 1 : 0,
          notice: run.notice ?? null,
        });
    });
  }

  private async resultOf(member: MemberRow, generationId: number, reused: boolean): Promise<GenerateSuggestionsResponse> {
    const row = await findGeneration(this.db, generationId);
    const generatedBy = generatedBySchema.parse(JSON.parse(row.generated_by ?? 'null'));
    return {
      suggestions: (await this.list()).map((suggestion) => suggestionFor(member, suggestion)),
      commentCount: row.comment_count,
      ...(this.lastSample?.generationId === generationId ? { sample: this.lastSample.sample } : {}),
      reused,
      created: row.created,
      kept: row.kept,
      archived: row.archived,
      generatedBy,
      fallback: row.fallback === 1,
      ...(row.notice === null ? {} : { notice: row.notice }),
    };
  }

  /** How many listed suggestions are actions (accepted, in progress or done), and how many are done. */
  actionCounts(): Promise<{ total: number; done: number }> {
    return countActions(this.db);
  }

  /** A suggestion after a change, as the member who made it is told. */
  private async present(member: MemberRow, id: number): Promise<Suggestion> {
    const [row, votes] = await Promise.all([findSuggestion(this.db, id), listSuggestionVotes(this.db, id)]);
    return suggestionFor(member, presentSuggestion(row, votes.map((vote) => ({ memberName: vote.member_name, voteType: vote.vote_type }))));
  }

  /** Admin: a new status for an active suggestion; declining needs a reason (the schema checks it). */
  async setStatus(admin: MemberRow, context: { ip: string }, id: number, input: { status: SuggestionReviewStatus; reason?: string | undefined; adminPassword: string }): Promise<Suggestion> {
    await this.adminActions.run(admin, context, input.adminPassword, `suggestion ${id}: ${SUGGESTION_STATUS_LABELS[input.status]}`, () =>
      this.db.transaction().execute(async (trx) => {
        const suggestion = await lockSuggestion(trx, this.dialect, id);
        if (suggestion === undefined || suggestion.status !== 'active') throw suggestionNotFound();
        await updateOutcome(trx, id, {
          review_status: input.status,
          status_reason: input.status === 'declined' ? (input.reason ?? null) : null,
          status_by_name: admin.full_name,
          status_at: Date.now(),
        });
      }),
    );
    await this.events.publish({ type: 'suggestion.outcome.changed', suggestionId: id });
    return this.present(admin, id);
  }

  /** Admin: the owner and due day of an accepted suggestion's action. The owner is an active member of the team. */
  async assign(admin: MemberRow, context: { ip: string }, id: number, input: { ownerName: string; dueDate: string | null; adminPassword: string }): Promise<Suggestion> {
    await this.adminActions.run(admin, context, input.adminPassword, `suggestion ${id}: owner ${input.ownerName}${input.dueDate === null ? '' : `, due ${input.dueDate}`}`, () =>
      this.db.transaction().execute(async (trx) => {
        const suggestion = await lockSuggestion(trx, this.dialect, id);
        if (suggestion === undefined || suggestion.status !== 'active') throw suggestionNotFound();
        if (suggestion.review_status !== 'accepted' && suggestion.review_status !== 'in_progress') {
          throw conflict('Accept the suggestion before it gets an owner', ERROR_CODES.suggestionNotAccepted);
        }
        const owner = await findMemberByKey(trx, nameKey(input.ownerName));
        if (owner === undefined || owner.active !== 1 || owner.is_qa === 1) throw badRequest(`No active member is named "${input.ownerName}"`, ERROR_CODES.badRequest);
        await updateOutcome(trx, id, { owner_member_id: owner.id, owner_name: owner.full_name, due_date: input.dueDate });
      }),
    );
    await this.events.publish({ type: 'suggestion.outcome.changed', suggestionId: id });
    return this.present(admin, id);
  }

  /** Its owner, or an admin, marks an accepted suggestion's action done. */
  async complete(member: MemberRow, context: { ip: string }, id: number): Promise<Suggestion> {
    await this.db.transaction().execute(async (trx) => {
      const suggestion = await lockSuggestion(trx, this.dialect, id);
      if (suggestion === undefined || suggestion.status !== 'active') throw suggestionNotFound();
      if (!canCompleteAction(member, suggestion)) throw forbidden('Only the owner or an admin can mark this action done', ERROR_CODES.forbidden);
      if (suggestion.review_status !== 'accepted' && suggestion.review_status !== 'in_progress') {
        throw conflict(suggestion.review_status === 'done' ? 'This action is already done' : 'Only an accepted suggestion is an action to complete', ERROR_CODES.suggestionNotAccepted);
      }
      await updateOutcome(trx, id, { review_status: 'done', status_reason: null, status_by_name: member.full_name, status_at: Date.now() });
      await audit(trx, { event: 'action-completed', outcome: 'success', actorName: member.full_name, ip: context.ip, detail: `suggestion ${id}` });
    });
    await this.events.publish({ type: 'suggestion.outcome.changed', suggestionId: id });
    return this.present(member, id);
  }

  /** The vote rule of comments (toggleVote), on an active suggestion. */
  /** `join`: the request's work that commits with the vote (its Idempotency-Key's answer, its log entry). */
  async vote(member: MemberRow, suggestionId: number, voteType: VoteType, join?: JoinWrite): Promise<SuggestionVoteResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      const suggestion = await lockSuggestion(trx, this.dialect, suggestionId);
      if (suggestion === undefined || suggestion.status !== 'active') throw notFound('Suggestion not found', ERROR_CODES.suggestionNotFound);
      const voted = { suggestionId, myVote: await toggleVote(voteStore(trx, { table: 'suggestion_votes', itemColumn: 'suggestion_id', itemId: suggestionId }, member), voteType) };
      await join?.(trx, voted);
      return voted;
    });
    await this.events.publish({ type: 'suggestion.vote.changed', suggestionId });
    return result;
  }
}
