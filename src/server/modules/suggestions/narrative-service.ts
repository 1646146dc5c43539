import type { Kysely } from 'kysely';
import { narrativeSummarySchema, type NarrativeOutput, type NarrativeSummary } from '../../../common/contract/ai.js';
import type { AiEngine } from '../../ai-providers/engine.js';
import { narrativeWithKnownSources } from '../../ai-providers/known-sources.js';
import type { Database } from '../../db/schema.js';
import { storedAnswer, storedOrMade, type MadeBy, type OutputRequest } from '../ai-outputs/stored-or-made.js';
import type { PromptService } from '../ai-prompts/service.js';
import type { SuggestionService } from './service.js';

/**
 * The team-level reading of the active suggestions and their votes, through the admin's active
 * prompt; stored per input like comment summaries.
 */
export class NarrativeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: AiEngine,
    private readonly suggestions: SuggestionService,
    private readonly prompts: PromptService,
  ) {}

  async summarize(): Promise<NarrativeSummary> {
    return storedOrMade(this.db, this.engine, await this.request());
  }

  /** Whether the narrative of the suggestions and votes as they are now is stored: asking for it then costs no AI call. */
  async isStored(): Promise<boolean> {
    return (await storedAnswer(this.db, this.engine, await this.request())) !== undefined;
  }

  private async request() {
    const { suggestions, sourceComments, sample } = await this.suggestions.listForAnalysis();
    const prompt = await this.prompts.activeNarrativePrompt();
    const input = { suggestions, sourceComments, prompt: { id: prompt.id, template: prompt.prompt } };
    return {
      kind: 'narrative',
      scope: 'team',
      what: 'team summary',
      // Stored by what was read (the sampled source comments); unsampled, the key is as before.
      input: sample === undefined ? input : { ...input, sample },
      localOnly: suggestions.length === 0,
      promptVersion: (provider) => provider.promptVersion('narrative', prompt.id),
      schema: narrativeSummarySchema,
      task: (provider, signal) => provider.narrativeSummary(input, signal),
      answer: (output: NarrativeOutput, madeBy: MadeBy): NarrativeSummary => ({
        ...narrativeWithKnownSources(output, new Set(suggestions.map((suggestion) => suggestion.id))),
        suggestionCount: suggestions.length,
        ...(sample === undefined ? {} : { sample }),
        ...madeBy,
      }),
    } satisfies OutputRequest<NarrativeOutput, NarrativeSummary>;
  }
}
