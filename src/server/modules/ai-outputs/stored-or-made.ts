import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { GeneratedBy } from '../../../common/contract/ai.js';
import { inputHash, stamp, type AiEngine } from '../../ai-providers/engine.js';
import type { AiProvider } from '../../ai-providers/provider.js';
import type { AiOutputsTable, Database } from '../../db/schema.js';
import { findOutput, storeOutput } from './repo.js';

/** What the server adds to every AI answer: who made it, and whether the local analyzer stood in. */
export interface MadeBy {
  generatedBy: GeneratedBy;
  fallback: boolean;
  notice?: string;
}

export interface OutputRequest<Output, Answer> {
  kind: AiOutputsTable['kind'];
  scope: string;
  /** What the log and a fallback notice call it: 'summary', 'team summary'. */
  what: string;
  /** Everything the output depends on besides the provider, its model and its prompt version. */
  input: unknown;
  /** Nothing for a model to read: the local analyzer answers alone. */
  localOnly: boolean;
  promptVersion: (provider: AiProvider) => string;
  /** Parses a stored answer; one that no longer parses is made again. */
  schema: z.ZodType<Answer>;
  task: (provider: AiProvider, signal?: AbortSignal) => Promise<Output>;
  answer: (output: Output, madeBy: MadeBy) => Answer;
}

function keyOf<Output, Answer>(engine: AiEngine, request: OutputRequest<Output, Answer>) {
  const provider = request.localOnly ? engine.local : engine.primary;
  const promptVersion = request.promptVersion(provider);
  return { provider, promptVersion, hash: inputHash({ kind: request.kind, provider, promptVersion, input: request.input }) };
}

/** What is stored for this input: the answer, or a row that no longer parses (`stale`), or nothing. */
async function lookUp<Output, Answer>(db: Kysely<Database>, engine: AiEngine, request: OutputRequest<Output, Answer>): Promise<{ answer?: Answer; stale: boolean }> {
  const stored = await findOutput(db, request.kind, request.scope, keyOf(engine, request).hash);
  if (stored === undefined) return { stale: false };
  const parsed = request.schema.safeParse(JSON.parse(stored));
  return parsed.success ? { answer: parsed.data, stale: false } : { stale: true };
}

/** The answer stored for this input, if one is (and still parses). */
export async function storedAnswer<Output, Answer>(db: Kysely<Database>, engine: AiEngine, request: OutputRequest<Output, Answer>): Promise<Answer | undefined> {
  return (await lookUp(db, engine, request)).answer;
}

/**
 * The answer stored for this input, or a new one: made once per distinct input (with the
 * provider, model and prompt version) and kept in the database for every instance.
 */
export async function storedOrMade<Output, Answer>(db: Kysely<Database>, engine: AiEngine, request: OutputRequest<Output, Answer>): Promise<Answer> {
  const { kind, scope, input } = request;
  const { provider, promptVersion, hash } = keyOf(engine, request);
  const stored = await lookUp(db, engine, request);
  if (stored.answer !== undefined) return stored.answer;

  const run = await engine.run(request.what, request.task, { localOnly: request.localOnly });
  const usedVersion = request.promptVersion(run.provider);
  const usedHash = run.fallback ? inputHash({ kind, provider: run.provider, promptVersion: usedVersion, input }) : hash;
  const answer = request.answer(run.output, {
    generatedBy: stamp(run.provider, usedVersion, usedHash, Date.now()),
    fallback: run.fallback,
    ...(run.notice === undefined ? {} : { notice: run.notice }),
  });
  // A fallback is not the answer to this input: the configured model is asked again next time.
  // A stored answer that no longer parses (made before the answer gained a field) is replaced, or
  // it would be made again on every request.
  if (!run.fallback) {
    await storeOutput(db, { kind, scope, hash, output: JSON.stringify(answer), provider: provider.name, model: provider.model, promptVersion }, { replace: stored.stale });
  }
  return answer;
}
