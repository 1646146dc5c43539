import type { Kysely } from 'kysely';
import { commentSummarySchema, type CommentSummary, type CommentSummaryOutput, type SummaryOutcome } from '../../../common/contract/ai.js';
import type { Decision } from '../../../common/contract/decisions.js';
import { boundedComments } from '../../ai-providers/analysis-bounds.js';
import { Coalescer } from '../../ai-providers/coalescer.js';
import type { AiEngine } from '../../ai-providers/engine.js';
import { summaryWithKnownSources } from '../../ai-providers/known-sources.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import { storedAnswer, storedOrMade, type MadeBy, type OutputRequest } from '../ai-outputs/stored-or-made.js';
import { componentCommentsForAnalysis } from './analysis-input.js';

/**
 * The AI summary of one component's comments: made once per distinct input (the comments and
 * their votes, the provider, model and prompt version) and kept in the database for every
 * instance; the route keeps the answer in memory until a comment event on the component.
 * Settled comments (resolved, or a basis of the component's current decision) are not read as
 * open points: the summary reads the open ones and carries the decision and the settled ids.
 */
export class CommentSummaryService {
  private readonly computing = new Coalescer<CommentSummary>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: AiEngine,
    private readonly titleOf: (componentId: string) => string | undefined,
    /** What the component does, which the analyzer reads as the component's own vocabulary. */
    private readonly descriptionOf: (componentId: string) => string | undefined = () => undefined,
    /** The component's current decision, which the summary cites. */
    private readonly currentDecision: (componentId: string) => Promise<Decision | undefined> = () => Promise.resolve(undefined),
  ) {}

  /** The component's title; 404 for a component that is not in the architecture. */
  titleOrThrow(componentId: string): string {
    const title = this.titleOf(componentId);
    if (title === undefined) throw notFound(`Unknown component "${componentId}"`, ERROR_CODES.unknownComponent);
    return title;
  }

  /**
   * However fast comments and requests come, one analysis runs per component and one waits behind
   * it, shared by every request that arrived meanwhile (the analyzer is the slow part).
   */
  summary(componentId: string): Promise<CommentSummary> {
    const title = this.titleOrThrow(componentId);
    return this.computing.run(componentId, () => this.summarize(componentId, title));
  }

  async summarize(componentId: string, componentTitle: string): Promise<CommentSummary> {
    return storedOrMade(this.db, this.engine, await this.requestFor(componentId, componentTitle));
  }

  /**
   * Whether the summary of the component's comments as they are now is stored: asking for it then
   * costs no AI call, whatever the memory of this instance holds (a change notice that arrives
   * after a fresh summary was kept drops it from memory, not from the database).
   */
  async isStored(componentId: string): Promise<boolean> {
    return (await storedAnswer(this.db, this.engine, await this.requestFor(componentId, this.titleOrThrow(componentId)))) !== undefined;
  }

  private async requestFor(componentId: string, componentTitle: string) {
    const [all, decision] = await Promise.all([
      componentCommentsForAnalysis(this.db, componentId, componentTitle, this.descriptionOf(componentId)),
      this.currentDecision(componentId),
    ]);
    const outcome = outcomeOf(all, decision);
    const settled = new Set(outcome.settledIds);
    // However many comments there are, the provider reads a bounded sample of the open ones (analysis-bounds.ts).
    const { comments, sample } = boundedComments(all.filter((comment) => !settled.has(comment.id)));
    // Only with something settled: otherwise the input (and so the stored answer's key) is as before.
    const input = { componentId, componentTitle, comments, ...(settled.size === 0 ? {} : { settledCount: settled.size }) };
    const commentIds = all.map((comment) => comment.id);
    const readIds = new Set(comments.map((comment) => comment.id));
    return {
      kind: 'summary',
      scope: componentId,
      what: 'summary',
      // Stored by what was read; a sample's answer also names every comment there was, so a change
      // outside the sample (one deleted) still makes a new answer. Unsampled, the key is as before.
      input: { ...(sample === undefined ? input : { ...input, sample, commentIds }), ...(outcome.decision === null ? {} : { decision: outcome.decision }) },
      // Nothing to read: the local analyzer says so without a model call.
      localOnly: comments.length === 0,
      promptVersion: (provider) => provider.promptVersion('summary'),
      schema: commentSummarySchema,
      task: (provider, signal) => provider.summarizeComments(input, signal),
      answer: (output: CommentSummaryOutput, madeBy: MadeBy): CommentSummary => ({
        ...summaryWithKnownSources(output, readIds),
        componentId,
        outcome,
        commentIds,
        ...(sample === undefined ? {} : { sample }),
        ...madeBy,
      }),
    } satisfies OutputRequest<CommentSummaryOutput, CommentSummary>;
  }
}

/** The decision and the comments it settles with the resolved ones: what the summary does not read as open. */
function outcomeOf(comments: readonly { id: number; resolved?: boolean }[], decision: Decision | undefined): SummaryOutcome {
  const basis = new Set(decision?.commentIds ?? []);
  const settled = comments.filter((comment) => comment.resolved === true || basis.has(comment.id));
  return {
    decision: decision ?? null,
    settledIds: settled.map((comment) => comment.id),
    resolvedCount: settled.filter((comment) => comment.resolved === true).length,
  };
}
