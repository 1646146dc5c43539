import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { NARRATIVE_PROMPT_NAME, PROMPT_PREVIEW_LENGTH } from '../../../common/api/ai-prompts.js';
import type { Dialect } from '../../db/connection.js';
import type { AiPromptsTable, Database } from '../../db/schema.js';

/** One key for the prompts table in pg_advisory_xact_lock. */
const PROMPT_LOCK_KEY = 5_100_002;

export type PromptRow = Selectable<AiPromptsTable>;

export type PromptListRow = PromptRow & { prompt_length: number };

/**
 * A page of the history, newest first (ids grow with time): `limit` versions with an id below
 * `before`, each with the start of its text and the whole text's length (both in characters).
 */
export function listPromptPage(db: Kysely<Database>, page: { before: number | undefined; limit: number }): Promise<PromptListRow[]> {
  let query = db
    .selectFrom('ai_prompts')
    .select(['id', 'name', 'description', 'is_active', 'created_by', 'created_at'])
    .select([sql<string>`substr(prompt, 1, ${sql.lit(PROMPT_PREVIEW_LENGTH)})`.as('prompt'), sql<number>`length(prompt)`.as('prompt_length')]);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

export function findPrompt(db: Kysely<Database>, id: number): Promise<PromptRow | undefined> {
  return db.selectFrom('ai_prompts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Deletes the narrative versions past the newest `keep`, never the active one (an older version
 * made active again is kept, and counts among the `keep`).
 */
async function trimNarrativePrompts(trx: Transaction<Database>, keep: number): Promise<void> {
  const kept = trx.selectFrom('ai_prompts').select('id').where('name', '=', NARRATIVE_PROMPT_NAME).orderBy('is_active', 'desc').orderBy('id', 'desc').limit(keep);
  await trx
    .deleteFrom('ai_prompts')
    .where('name', '=', NARRATIVE_PROMPT_NAME)
    .where('is_active', '=', 0)
    .where('id', 'not in', trx.selectFrom(kept.as('kept')).select('kept.id'))
    .execute();
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

/** Saves a narrative prompt as the only active one; the earlier ones are kept, inactive, up to `historyMax` versions in all. */
export function insertActiveNarrativePrompt(
  db: Kysely<Database>,
  dialect: Dialect,
  prompt: { prompt: string; description: string | null; createdBy: string },
  historyMax: number,
): Promise<PromptRow> {
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    await takePromptLock(trx, dialect);
    await deactivateNarrativePrompts(trx);
    const row = await trx
      .insertInto('ai_prompts')
      .values({ name: NARRATIVE_PROMPT_NAME, prompt: prompt.prompt, description: prompt.description, is_active: 1, created_by: prompt.createdBy, created_at: Date.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trimNarrativePrompts(trx, historyMax);
    return row;
  });
}
