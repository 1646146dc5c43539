import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { z } from 'zod';
import {
  commentSummaryTextSchema,
  narrativeOutputSchema,
  suggestionsOutputSchema,
  type CommentSummaryOutput,
  type NarrativeOutput,
  type SuggestionsOutput,
} from '../../../common/contract/ai.js';
import { groundedNarrative, groundedSuggestions, groundedSummary } from '../grounded.js';
import { narrativeWithKnownSources, onlyKnown, summaryWithKnownSources } from '../known-sources.js';
import type { EvidenceSource } from '../local/evidence.js';
import { setAsideForSummary, sortOut } from '../local/set-aside.js';
import type { AiProvider } from '../provider.js';
import { narrativeMessages, suggestionsMessages, summaryMessages, type ChatMessage } from './prompts.js';

/**
 * The `openai` provider: an OpenAI-compatible chat-completions endpoint of your choice, asked
 * for a JSON object. Every answer is parsed with the contract's output schema and its source ids
 * are kept only when they are ids of the input. A summary's comments set aside are the analyzer's,
 * never the model's. Any failure throws AiProviderError, with a short
 * reason and nothing of the key or the prompt: the caller falls back to the local provider.
 */

export class AiProviderError extends Error {
  /** Short and safe to log: 'timeout', 'http 500', 'malformed JSON', 'invalid shape: …'. */
  readonly reason: string;

  constructor(reason: string) {
    const short = reason.length > 160 ? `${reason.slice(0, 157)}...` : reason;
    super(`AI provider failed: ${short}`);
    this.name = 'AiProviderError';
    this.reason = short;
  }
}

export interface OpenAiProviderOptions {
  /** Default https://api.openai.com/v1; the SDK appends /chat/completions. */
  baseUrl?: string;
  apiKey: string;
  model: string;
  /** Per attempt; default 30 000. */
  timeoutMs?: number;
  /** Retries after a timeout, a connection failure, 408, 409, 429 or 5xx; default 1. */
  maxRetries?: number;
  fetch?: typeof fetch;
  /**
   * The analyzer's structure to send with each request (themes, disagreements, comments set
   * aside); without it, or when it fails, the model gets the data and the voters alone.
   */
  evidence?: EvidenceSource;
}

const PROMPT_VERSION = 4;

/** The SDK's backoff before retry n (0-based) is at most 0.5 s * 2^n, capped at 8 s. */
const backoffAllowanceMs = (retries: number) => {
  let total = 0;
  for (let retry = 0; retry < retries; retry++) total += Math.min(500 * 2 ** retry, 8_000);
  return total;
};

/** What is read of the SDK's answer: a compatible server may send anything, so nothing is assumed. */
const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
});

function answerText(completion: unknown): string {
  const parsed = completionSchema.safeParse(completion);
  if (!parsed.success) throw new AiProviderError('malformed response');
  // min(1) above: the first choice exists.
  const [choice] = parsed.data.choices;
  if (choice === undefined) throw new AiProviderError('malformed response');
  const { content, refusal } = choice.message;
  if (typeof refusal === 'string' && refusal.trim() !== '') throw new AiProviderError('refusal');
  if (choice.finish_reason === 'content_filter') throw new AiProviderError('content filter');
  if (choice.finish_reason === 'length') throw new AiProviderError('truncated answer');
  if (content == null || content.trim() === '') throw new AiProviderError('empty answer');
  return content;
}

/** The answer's JSON; a single ```json fence around it (some compatible servers add one) is removed. */
function parseJson(content: string): unknown {
  const fenced = /^```(?:json)?\s*\n([\s\S]*)\n\s*```$/i.exec(content.trim());
  try {
    return JSON.parse(fenced?.[1] ?? content) as unknown;
  } catch {
    throw new AiProviderError('malformed JSON');
  }
}

/**
 * The model's summary without a `setAside` of its own: the model is shown that key in the data and
 * may echo it, but which comments are left out is never its choice (the analyzer's list replaces it).
 */
function withoutSetAside(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || !('setAside' in answer)) return answer;
  return Object.fromEntries(Object.entries(answer).filter(([key]) => key !== 'setAside'));
}

function parseShape<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  throw new AiProviderError(`invalid shape: ${where}${issue?.message ?? 'rejected'}`);
}

export function createOpenAiProvider(options: OpenAiProviderOptions): AiProvider {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 1;
  // Every option the SDK would otherwise read from the environment is given (config.ts is the only reader).
  const client = new OpenAI({
    baseURL: options.baseUrl ?? 'https://api.openai.com/v1',
    apiKey: options.apiKey,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: timeoutMs,
    maxRetries,
    logLevel: 'off',
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  // The SDK's timeout covers each attempt until the headers; this covers the whole call, the body included.
  const deadlineMs = timeoutMs * (maxRetries + 1) + backoffAllowanceMs(maxRetries);

  async function ask(messages: ChatMessage[], signal: AbortSignal | undefined): Promise<unknown> {
    const deadline = AbortSignal.timeout(deadlineMs);
    const combined = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
    let completion: unknown;
    try {
      completion = await client.chat.completions.create(
        { model: options.model, messages, temperature: 0, response_format: { type: 'json_object' } },
        { signal: combined },
      );
    } catch (error) {
      throw requestFailure(error, signal, deadline);
    }
    return parseJson(answerText(completion));
  }

  /** The analyzer's reading, or nothing when there is no analyzer or it fails: the model can still answer. */
  async function evidenceFor<T>(read: (source: EvidenceSource) => Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
    if (options.evidence === undefined) return undefined;
    try {
      return await read(options.evidence);
    } catch {
      signal?.throwIfAborted();
      return undefined;
    }
  }

  return {
    name: 'openai',
    model: options.model,
    promptVersion(kind, promptId) {
      if (kind === 'narrative') return `narrative-prompt/${promptId ?? 'none'}`;
      return `openai-${kind}/${PROMPT_VERSION}`;
    },

    async summarizeComments(input, signal): Promise<CommentSummaryOutput> {
      const evidence = await evidenceFor((source) => source.summary(input, signal), signal);
      const written = parseShape(commentSummaryTextSchema, withoutSetAside(await ask(summaryMessages(input, evidence), signal)));
      // The analyzer's list; without the analyzer, its rules alone, as the prompt marked the comments.
      const setAside = setAsideForSummary(evidence?.setAside ?? sortOut(input.comments).setAside);
      // One list per key theme, in order, whatever the model sent, citing only comments read (never
      // one set aside); then each claim checked against what it cites.
      const aside = new Set(setAside.map((item) => item.id));
      const read = new Set(input.comments.map((comment) => comment.id).filter((id) => !aside.has(id)));
      const known = summaryWithKnownSources({ ...written, setAside }, read);
      return groundedSummary(known, new Map(input.comments.map((comment) => [comment.id, comment.content])));
    },

    async generateSuggestions(input, signal): Promise<SuggestionsOutput> {
      const evidence = await evidenceFor((source) => source.suggestions(input, signal), signal);
      const output = parseShape(suggestionsOutputSchema, await ask(suggestionsMessages(input, evidence), signal));
      const ids = new Set(input.comments.map((comment) => comment.id));
      const known = {
        suggestions: output.suggestions
          .map((suggestion) => ({ ...suggestion, sources: onlyKnown(suggestion.sources, ids) }))
          .filter((suggestion) => suggestion.sources.length > 0),
      };
      return groundedSuggestions(known, new Map(input.comments.map((comment) => [comment.id, comment.content])));
    },

    async narrativeSummary(input, signal): Promise<NarrativeOutput> {
      const evidence = await evidenceFor((source) => source.narrative(input, signal), signal);
      const output = parseShape(narrativeOutputSchema, await ask(narrativeMessages(input, evidence), signal));
      const known = narrativeWithKnownSources(output, new Set(input.suggestions.map((suggestion) => suggestion.id)));
      return groundedNarrative(known, new Map(input.suggestions.map((suggestion) => [suggestion.id, suggestion.suggestion])));
    },
  };
}

/** The short reason of a failed request; the SDK's message (which may quote the server) is not kept. */
function requestFailure(error: unknown, signal: AbortSignal | undefined, deadline: AbortSignal): AiProviderError {
  if (signal?.aborted === true) return new AiProviderError('aborted');
  if (deadline.aborted || error instanceof APIConnectionTimeoutError) return new AiProviderError('timeout');
  if (error instanceof APIUserAbortError) return new AiProviderError('aborted');
  if (error instanceof APIConnectionError) return new AiProviderError('connection failed');
  if (error instanceof APIError && typeof error.status === 'number') return new AiProviderError(`http ${error.status}`);
  return new AiProviderError('request failed');
}
