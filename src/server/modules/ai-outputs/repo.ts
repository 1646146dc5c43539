import type { Kysely } from 'kysely';
import type { AiOutputsTable, Database } from '../../db/schema.js';

/**
 * AI outputs stored by the hash of their input: shared by every instance and
 * kept across restarts, so the same input never costs a second model call.
 */
export async function findOutput(db: Kysely<Database>, kind: AiOutputsTable['kind'], scope: string, hash: string): Promise<string | undefined> {
  const row = await db.selectFrom('ai_outputs').select('output').where('kind', '=', kind).where('scope', '=', scope).where('input_hash', '=', hash).executeTakeFirst();
  return row?.output;
}

/** `replace`: the stored row is one that no longer parses, and this output takes its place. */
export async function storeOutput(
  db: Kysely<Database>,
  row: { kind: AiOutputsTable['kind']; scope: string; hash: string; output: string; provider: string; model: string; promptVersion: string },
  options: { replace?: boolean } = {},
): Promise<void> {
  const values = { output: row.output, provider: row.provider, model: row.model, prompt_version: row.promptVersion, created_at: Date.now() };
  await db
    .insertInto('ai_outputs')
    .values({ kind: row.kind, scope: row.scope, input_hash: row.hash, ...values })
    // Two instances that made the same output at once: the first one stays.
    .onConflict((oc) => (options.replace === true ? oc.columns(['kind', 'scope', 'input_hash']).doUpdateSet(values) : oc.columns(['kind', 'scope', 'input_hash']).doNothing()))
    .execute();
}
