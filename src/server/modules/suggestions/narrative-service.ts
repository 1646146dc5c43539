import type { Kysely } from 'kysely';
import { narrativeSummarySchema, type NarrativeOutput, type NarrativeSummary } from '../../../common/contract/ai.js';
import type { Decision } from '../../../common/contract/decisions.js';
import type { AiEngine } from '../../ai-providers/engine.js';
import { narrativeWithKnownSources } from '../../ai-providers/known-sources.js';
import type { Database } from '../../db/schema.js';
import { storedAnswer, storedOrMade, type MadeBy, type OutputRequest } from '../ai-outputs/stored-or-made.js';
import type { PromptService } from '../ai-prompts/service.js';
import type { SuggestionService } from './service.js';

/**
 * The team-level reading of the active suggestions and their votes, through the admin's active
 * prompt; stored per input like comment summaries. It carries the components' current decisions
 * and reads as live only what they and the resolutions leave open.
 */
export class NarrativeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: AiEngine,
    private readonly suggestions: SuggestionService,
    private readonly prompts: PromptService,
    /** Every component's current decision, which the narrative cites. */
    private readonly currentDecisions: () => Promise<Decision[]> = () => Promise.resolve([]),
  ) {}

  async summarize(): Promise<NarrativeSummary> {
    return storedOrMade(this.db, this.engine, await this.request());
  }

  /** Whether the narrative of the suggestions and votes as they are now is stored: asking for it then costs no AI call. */
  async isStored(): Promise<boolean> {
    return (await storedAnswer(this.db, this.engine, await this.request())) !== undefined;
  }

  private async request() {
    const decisions = await this.currentDecisions();
    const { suggestions, sourceComments, sample, settledSuggestionCount, settledCommentCount } = await this.suggestions.listForAnalysis({
      commentIds: new Set(decisions.flatMap((decision) => decision.commentIds)),
      suggestionIds: new Set(decisions.flatMap((decision) => decision.suggestionIds)),
    });
    const prompt = await this.prompts.activeNarrativePrompt();
    const input = {
      suggestions,
      sourceComments,
      prompt: { id: prompt.id, template: prompt.prompt },
      ...(settledSuggestionCount === 0 ? {} : { settledCount: settledSuggestionCount }),
    };
    const outcome = { decisions, settledSuggestionCount, settledCommentCount };
    // Stored by what was settled too; with nothing settled, the key is as before.
    const settled = decisions.length === 0 && settledSuggestionCount === 0 && settledCommentCount === 0 ? {} : { outcome };
    return {
      kind: 'narrative',
      scope: 'team',
      what: 'team summary',
      // Stored by what was read (the sampled source comments); unsampled, the key is as before.
      input: { ...(sample === undefined ? input : { ...input, sample }), ...settled },
      localOnly: suggestions.length === 0,
      promptVersion: (provider) => provider.promptVersion('narrative', prompt.id),
      schema: narrativeSummarySchema,
      task: (provider, signal) => provider.narrativeSummary(input, signal),
      answer: (output: NarrativeOutput, madeBy: MadeBy): NarrativeSummary => ({
        ...narrativeWithKnownSources(output, new Set(suggestions.map((suggestion) => suggestion.id))),
        suggestionCount: suggestions.length,
        outcome,
        ...(sample === undefined ? {} : { sample }),
        ...madeBy,
      }),
    } satisfies OutputRequest<NarrativeOutput, NarrativeSummary>;
  }
}
