import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { GeneratedBy } from '../../common/contract/ai.js';
import { AppError } from '../errors.js';
import { guardedProvider } from './output-guard.js';
import type { AiProvider } from './provider.js';
import { ERROR_CODES } from '../../common/api/error-codes.js';

export interface AiRun<T> {
  output: T;
  /** The provider that made the output: the local one after a fallback. */
  provider: AiProvider;
  fallback: boolean;
  notice?: string;
}

/** A short reason a provider failed, for the log and the notice; never the prompt or a key. */
function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'reason' in error && typeof error.reason === 'string') return error.reason;
  return error instanceof Error && error.name === 'ZodError' ? 'invalid output' : 'unexpected error';
}

/**
 * The configured provider answers, and when it fails in any way (network,
 * timeout, malformed or invalid output) the local analyzer answers instead, saying so.
 * Every output of either passes the output guard (output-guard.ts) on its way out: the services
 * store and serve only what went through it.
 */
export class AiEngine {
  readonly primary: AiProvider;
  readonly local: AiProvider;

  constructor(
    primary: AiProvider,
    local: AiProvider,
    private readonly log: FastifyBaseLogger,
    /** The local analyzer's time budget per call; a model call has its provider's own deadline. */
    private readonly localBudgetMs: number,
  ) {
    this.local = guardedProvider(local);
    this.primary = primary === local ? this.local : guardedProvider(primary);
  }

  /** `localOnly`: when there is nothing for a model to read, the local analyzer answers alone. */
  async run<T>(what: string, task: (provider: AiProvider, signal?: AbortSignal) => Promise<T>, options: { localOnly?: boolean } = {}): Promise<AiRun<T>> {
    if (options.localOnly === true || this.primary === this.local) return { output: await this.runLocal(what, task), provider: this.local, fallback: false };
    try {
      return { output: await task(this.primary), provider: this.primary, fallback: false };
    } catch (error) {
      const reason = reasonOf(error);
      this.log.warn({ provider: this.primary.name, model: this.primary.model, reason, what }, 'AI provider failed; the local analyzer answered instead');
      return {
        output: await this.runLocal(what, task),
        provider: this.local,
        fallback: true,
        notice: `The configured AI model could not answer (${reason}), so the built-in analyzer made this ${what} instead.`,
      };
    }
  }

  /** Past its budget the analysis is stopped and the caller told to come back, instead of waiting without end. */
  private async runLocal<T>(what: string, task: (provider: AiProvider, signal?: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await task(this.local, AbortSignal.timeout(this.localBudgetMs));
    } catch (error) {
      if (error instanceof Error && error.name === 'AnalyzerStopped') {
        this.log.error({ what, err: error }, 'the local analyzer stopped during an analysis');
        throw new AppError(503, ERROR_CODES.aiUnavailable, `The analyzer stopped while making this ${what}. Try again in a minute.`, { 'retry-after': '30' });
      }
      if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
      this.log.warn({ what, budgetMs: this.localBudgetMs }, 'local analysis ran past its time budget and was stopped');
      const seconds = Math.round(this.localBudgetMs / 1000);
      throw new AppError(503, ERROR_CODES.aiTimeout, `Making this ${what} took longer than ${seconds} s, so it was stopped. Try again in a minute.`, { 'retry-after': '30' });
    }
  }
}

/** sha256 of everything an output depends on: same stamp inputs, same output (and the same cache row). */
export function inputHash(parts: { kind: string; provider: AiProvider; promptVersion: string; input: unknown }): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.kind, parts.provider.name, parts.provider.model, parts.promptVersion, parts.input]))
    .digest('hex');
}

export function stamp(provider: AiProvider, promptVersion: string, hash: string, at: number): GeneratedBy {
  return { provider: provider.name, model: provider.model, promptVersion, inputHash: hash, generatedAt: new Date(at).toISOString() };
}
