import type { Kysely } from 'kysely';
import { commentSummarySchema, type CommentSummary, type CommentSummaryOutput } from '../../../common/contract/ai.js';
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
 */
export class CommentSummaryService {
  private readonly computing = new Coalescer<CommentSummary>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: AiEngine,
    private readonly titleOf: (componentId: string) => string | undefined,
    /** What the component does, which the analyzer reads as the component's own vocabulary. */
    private readonly descriptionOf: (componentId: string) => string | undefined = () => undefined,
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
    const all = await componentCommentsForAnalysis(this.db, componentId, componentTitle, this.descriptionOf(componentId));
    // However many comments there are, the provider reads a bounded sample (analysis-bounds.ts).
    const { comments, sample } = boundedComments(all);
    const input = { componentId, componentTitle, comments };
    const commentIds = all.map((comment) => comment.id);
    const readIds = new Set(comments.map((comment) => comment.id));
    return {
      kind: 'summary',
      scope: componentId,
      what: 'summary',
      // Stored by what was read; a sample's answer also names every comment there was, so a change
      // outside the sample (one deleted) still makes a new answer. Unsampled, the key is as before.
      input: sample === undefined ? input : { ...input, sample, commentIds },
      // Nothing to read: the local analyzer says so without a model call.
      localOnly: comments.length === 0,
      promptVersion: (provider) => provider.promptVersion('summary'),
      schema: commentSummarySchema,
      task: (provider, signal) => provider.summarizeComments(input, signal),
      answer: (output: CommentSummaryOutput, madeBy: MadeBy): CommentSummary => ({
        ...summaryWithKnownSources(output, readIds),
        componentId,
        commentIds,
        ...(sample === undefined ? {} : { sample }),
        ...madeBy,
      }),
    } satisfies OutputRequest<CommentSummaryOutput, CommentSummary>;
  }
}
