import type { Kysely } from 'kysely';
import { narrativeSummarySchema, type NarrativeOutput, type NarrativeSummary } from '../../../shared/contract/ai.js';
import { inputHash, onlyKnown, stamp, type AiEngine } from '../../ai-providers/engine.js';
import type { SuggestionForAnalysis } from '../../ai-providers/provider.js';
import type { Database } from '../../db/schema.js';
import { findOutput, storeOutput } from '../ai-outputs/repo.js';
import type { PromptService } from '../ai-prompts/service.js';
import { tallyVotes } from '../comments/analysis-input.js';
import { listVoteTypesOf } from '../comments/repo.js';
import type { SuggestionService } from './service.js';

const KIND = 'narrative';
const SCOPE = 'team';

function cleanSources(output: NarrativeOutput, known: ReadonlySet<number>): NarrativeOutput {
  return {
    ...output,
    keyThemes: output.keyThemes.map((theme) => ({ ...theme, sources: onlyKnown(theme.sources, known) })),
    actionItems: output.actionItems.map((item) => ({ ...item, sources: onlyKnown(item.sources, known) })),
    conflicts: output.conflicts.map((conflict) => ({ ...conflict, sources: onlyKnown(conflict.sources, known) })),
  };
}

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
    private readonly titleOf: (componentId: string) => string,
  ) {}

  async summarize(): Promise<NarrativeSummary> {
    const active = await this.suggestions.list();
    const prompt = await this.prompts.activeNarrativePrompt();
    const commentVotes = tallyVotes(await listVoteTypesOf(this.db, active.flatMap((suggestion) => suggestion.sources)));
    const suggestions: SuggestionForAnalysis[] = active.map((suggestion) => {
      // Support is the votes on the suggestion plus those on the comments it came from: a fresh
      // suggestion has no votes of its own yet, but its comments may have many.
      const fromComments = suggestion.sources.map((id) => commentVotes.get(id) ?? { up: 0, down: 0 });
      return {
        id: suggestion.id,
        suggestion: suggestion.suggestion,
        recommendationType: suggestion.recommendationType,
        componentTitles: suggestion.components.map(this.titleOf),
        memberInitials: suggestion.memberInitials,
        upVotes: suggestion.votes.filter((vote) => vote.voteType === 'thumbs_up').length + fromComments.reduce((sum, votes) => sum + votes.up, 0),
        downVotes: suggestion.votes.filter((vote) => vote.voteType === 'thumbs_down').length + fromComments.reduce((sum, votes) => sum + votes.down, 0),
        sourceCount: suggestion.sources.length,
      };
    });
    const input = { suggestions, prompt: { id: prompt.id, template: prompt.prompt } };
    const localOnly = suggestions.length === 0;
    const provider = localOnly ? this.engine.local : this.engine.primary;
    const promptVersion = provider.promptVersion('narrative', prompt.id);
    const hash = inputHash({ kind: KIND, provider, promptVersion, input });

    const stored = await findOutput(this.db, KIND, SCOPE, hash);
    if (stored !== undefined) {
      const parsed = narrativeSummarySchema.safeParse(JSON.parse(stored));
      if (parsed.success) return parsed.data;
    }

    const run = await this.engine.run('team summary', (chosen, signal) => chosen.narrativeSummary(input, signal), { localOnly });
    const usedVersion = run.provider.promptVersion('narrative', prompt.id);
    const usedHash = run.fallback ? inputHash({ kind: KIND, provider: run.provider, promptVersion: usedVersion, input }) : hash;
    const summary: NarrativeSummary = {
      ...cleanSources(run.output, new Set(suggestions.map((suggestion) => suggestion.id))),
      suggestionCount: suggestions.length,
      generatedBy: stamp(run.provider, usedVersion, usedHash, Date.now()),
      fallback: run.fallback,
      ...(run.notice === undefined ? {} : { notice: run.notice }),
    };
    if (!run.fallback) {
      await storeOutput(this.db, { kind: KIND, scope: SCOPE, hash, output: JSON.stringify(summary), provider: provider.name, model: provider.model, promptVersion });
    }
    return summary;
  }
}
