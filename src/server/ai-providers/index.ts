import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.js';
import { AiEngine } from './engine.js';
import type { AnalyzerPool } from './local/analyzer-pool.js';
import { createPooledEvidence, createPooledLocalProvider } from './local/local-provider.js';
import { createOpenAiProvider } from './openai/openai-provider.js';

/** `AI_PROVIDER=local` (default): the offline analyzer alone; `openai`: the configured model, with the analyzer as fallback. */
export function createAiEngine(config: AppConfig['ai'], log: FastifyBaseLogger, pool: AnalyzerPool): AiEngine {
  const local = createPooledLocalProvider(pool);
  if (config.provider === 'local') return new AiEngine(local, local, log, config.localBudgetMs);
  const primary = createOpenAiProvider({
    ...(config.baseUrl === undefined ? {} : { baseUrl: config.baseUrl }),
    // Self-hosted OpenAI-compatible servers often need no key; the SDK still wants a string.
    apiKey: config.apiKey ?? 'not-needed',
    model: config.model,
    evidence: createPooledEvidence(pool),
  });
  return new AiEngine(primary, local, log, config.localBudgetMs);
}
