import type { Kysely } from 'kysely';
import { commentSummarySchema, type CommentSummary, type CommentSummaryOutput } from '../../../shared/contract/ai.js';
import { Coalescer } from '../../ai-providers/coalescer.js';
import { type AiEngine, inputHash, onlyKnown, stamp } from '../../ai-providers/engine.js';
import type { AiProvider } from '../../ai-providers/provider.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { ERROR_CODES } from '../../../shared/api/error-codes.js';
import { findOutput, storeOutput } from '../ai-outputs/repo.js';
import { componentCommentsForAnalysis } from './analysis-input.js';

const KIND = 'summary';

/** Source ids limited to the input's comments, theme lists kept parallel to the themes. */
function cleanSources(output: CommentSummaryOutput, known: ReadonlySet<number>): CommentSummaryOutput {
  return {
    ...output,
    sources: {
      keyThemes: output.keyThemes.map((_theme, index) => onlyKnown(output.sources.keyThemes[index] ?? [], known)),
      contentChanges: onlyKnown(output.sources.contentChanges, known),
      structuralChanges: onlyKnown(output.sources.structuralChanges, known),
    },
  };
}

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
    const comments = await componentCommentsForAnalysis(this.db, componentId, componentTitle);
    // Nothing to read: the local analyzer says so without a model call.
    const provider: AiProvider = comments.length === 0 ? this.engine.local : this.engine.primary;
    const promptVersion = provider.promptVersion('summary');
    const input = { componentId, componentTitle, comments };
    const hash = inputHash({ kind: KIND, provider, promptVersion, input });
    const commentIds = comments.map((comment) => comment.id);

    const stored = await findOutput(this.db, KIND, componentId, hash);
    if (stored !== undefined) {
      const parsed = commentSummarySchema.safeParse(JSON.parse(stored));
      if (parsed.success) return parsed.data;
    }

    const run = await this.engine.run('summary', (chosen, signal) => chosen.summarizeComments(input, signal), { localOnly: comments.length === 0 });
    const usedVersion = run.provider.promptVersion('summary');
    const usedHash = run.fallback ? inputHash({ kind: KIND, provider: run.provider, promptVersion: usedVersion, input }) : hash;
    const summary: CommentSummary = {
      ...cleanSources(run.output, new Set(commentIds)),
      componentId,
      commentIds,
      generatedBy: stamp(run.provider, usedVersion, usedHash, Date.now()),
      fallback: run.fallback,
      ...(run.notice === undefined ? {} : { notice: run.notice }),
    };
    // A fallback is not the answer to this input: the configured model is asked again next time.
    if (!run.fallback) {
      await storeOutput(this.db, { kind: KIND, scope: componentId, hash, output: JSON.stringify(summary), provider: provider.name, model: provider.model, promptVersion });
    }
    return summary;
  }
}
