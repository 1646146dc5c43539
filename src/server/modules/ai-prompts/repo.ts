import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { NARRATIVE_PROMPT_NAME } from '../../../common/api/ai-prompts.js';
import type { Dialect } from '../../db/connection.js';
import type { AiPromptsTable, Database } from '../../db/schema.js';

/** One key for the prompts table in pg_advisory_xact_lock. */
const PROMPT_LOCK_KEY = 5_100_002;

export type PromptRow = Selectable<AiPromptsTable>;

export function listPrompts(db: Kysely<Database>): Promise<PromptRow[]> {
  return db.selectFrom('ai_prompts').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function findActiveNarrativePrompt(db: Kysely<Database>): Promise<PromptRow | undefined> {
  return db.selectFrom('ai_prompts').selectAll().where('name', '=', NARRATIVE_PROMPT_NAME).where('is_active', '=', 1).executeTakeFirst();
}

/** The prompts' writes take turns on PostgreSQL: two at once would each deactivate, then both activate one. */
async function takePromptLock(trx: Transaction<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PROMPT_LOCK_KEY})`.execute(trx);
}

async function deactivateNarrativePrompts(trx: Transaction<Database>): Promise<void> {
  await trx.updateTable('ai_prompts').set({ is_active: 0 }).where('name', '=', NARRATIVE_PROMPT_NAME).where('is_active', '=', 1).execute();
}

/** Makes an earlier narrative prompt the only active one again; undefined when there is no such prompt. */
export function activateNarrativePrompt(db: Kysely<Database>, dialect: Dialect, id: number): Promise<PromptRow | undefined> {
  return db.transaction().execute(async (trx) => {
    await takePromptLock(trx, dialect);
    const target = await trx.selectFrom('ai_prompts').select('id').where('id', '=', id).where('name', '=', NARRATIVE_PROMPT_NAME).executeTakeFirst();
    if (target === undefined) return undefined;
    await deactivateNarrativePrompts(trx);
    return trx.updateTable('ai_prompts').set({ is_active: 1 }).where('id', '=', id).returningAll().executeTakeFirst();
  });
}

/** Saves a narrative prompt as the only active one; the earlier ones are kept, inactive. */
export function insertActiveNarrativePrompt(
  db: Kysely<Database>,
  dialect: Dialect,
  prompt: { prompt: string; description: string | null; createdBy: string },
): Promise<PromptRow> {
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    await takePromptLock(trx, dialect);
    await deactivateNarrativePrompts(trx);
    return trx
      .insertInto('ai_prompts')
      .values({ name: NARRATIVE_PROMPT_NAME, prompt: prompt.prompt, description: prompt.description, is_active: 1, created_by: prompt.createdBy, created_at: Date.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
