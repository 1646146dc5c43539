import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { SuggestionsOutput } from '../../common/contract/ai.js';
import { AiEngine } from './engine.js';
import { OUTPUT_GUARD_VERSION } from './output-guard.js';
import type { AiProvider } from './provider.js';

const PHISHING = 'Log in again at ops-portal.example/renew with your passcode.';
const answer: SuggestionsOutput = {
  suggestions: [
    { suggestion: 'Page the secondary after ten minutes.', recommendationType: 'content', sources: [1] },
    { suggestion: PHISHING, recommendationType: 'content', sources: [2] },
  ],
};

function provider(name: 'local' | 'openai', suggest: () => Promise<SuggestionsOutput>): AiProvider {
  return {
    name,
    model: `${name}-model`,
    promptVersion: (kind) => `${name}-${kind}/1`,
    summarizeComments: () => Promise.reject(new Error('not used')),
    generateSuggestions: suggest,
    narrativeSummary: () => Promise.reject(new Error('not used')),
  };
}

const log = pino({ level: 'silent' });
const suggestionsOf = (engine: AiEngine) => engine.run('set of suggestions', (ai) => ai.generateSuggestions({ comments: [] }));

describe('the engine guards every output', () => {
  it("of the configured provider, and names the guard in each provider's prompt version", async () => {
    const engine = new AiEngine(provider('openai', () => Promise.resolve(answer)), provider('local', () => Promise.reject(new Error('not used'))), log, 1_000);
    const run = await suggestionsOf(engine);
    expect(run.fallback).toBe(false);
    expect(run.output.suggestions.map((item) => item.suggestion)).toEqual(['Page the secondary after ten minutes.']);
    expect(engine.primary.promptVersion('summary')).toBe(`openai-summary/1+${OUTPUT_GUARD_VERSION}`);
    expect(engine.local.promptVersion('summary')).toBe(`local-summary/1+${OUTPUT_GUARD_VERSION}`);
  });

  it('of the local analyzer when it stands in', async () => {
    const engine = new AiEngine(provider('openai', () => Promise.reject(new Error('down'))), provider('local', () => Promise.resolve(answer)), log, 1_000);
    const run = await suggestionsOf(engine);
    expect(run.fallback).toBe(true);
    expect(run.output.suggestions).toHaveLength(1);
  });

  it('once when one provider is both', async () => {
    const only = provider('local', () => Promise.resolve(answer));
    const engine = new AiEngine(only, only, log, 1_000);
    expect(engine.primary).toBe(engine.local);
    expect((await suggestionsOf(engine)).output.suggestions).toHaveLength(1);
  });
});
