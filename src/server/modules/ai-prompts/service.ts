import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/connection.js';
import { type AiPrompt } from '../../../shared/contract/ai.js';
import { NARRATIVE_PROMPT_NAME } from '../../../shared/api/ai-prompts.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { AdminActions } from '../admin/policies.js';
import { ERROR_CODES } from '../../../shared/api/error-codes.js';

const PROMPT_LOCK_KEY = 5_100_002;

type PromptRow = { id: number; name: string; prompt: string; description: string | null; is_active: number; created_by: string; created_at: number };

function present(row: PromptRow): AiPrompt {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    description: row.description,
    isActive: row.is_active === 1,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** The admin's narrative-summary prompts (spec section 7): a saved prompt becomes the only active one; history is kept. */
export class PromptService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly events: EventBus,
    private readonly adminActions: AdminActions,
  ) {}

  async list(): Promise<AiPrompt[]> {
    const rows = await this.db.selectFrom('ai_prompts').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(present);
  }

  async activeNarrativePrompt(): Promise<AiPrompt> {
    const row = await this.db.selectFrom('ai_prompts').selectAll().where('name', '=', NARRATIVE_PROMPT_NAME).where('is_active', '=', 1).executeTakeFirst();
    if (row === undefined) throw notFound('No active prompt', ERROR_CODES.noActivePrompt);
    return present(row);
  }

  /** Admin role (checked by the route guard) and the admin password, both on the server. */
  async create(admin: MemberRow, context: { ip: string }, input: { prompt: string; description?: string | undefined; adminPassword: string }): Promise<AiPrompt> {
    const row = await this.adminActions.run(admin, context, input.adminPassword, 'save AI prompt', () => this.insertActive(admin, input));
    await this.events.publish({ type: 'ai-prompt.changed', promptId: row.id });
    return present(row);
  }

  private insertActive(admin: MemberRow, input: { prompt: string; description?: string | undefined }): Promise<PromptRow> {
    return this.db.transaction().execute(async (trx) => {
      // Two saves at once on PostgreSQL would both deactivate, then both insert an active prompt.
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PROMPT_LOCK_KEY})`.execute(trx);
      await trx.updateTable('ai_prompts').set({ is_active: 0 }).where('name', '=', NARRATIVE_PROMPT_NAME).where('is_active', '=', 1).execute();
      return trx
        .insertInto('ai_prompts')
        .values({
          name: NARRATIVE_PROMPT_NAME,
          prompt: input.prompt,
          description: input.description === undefined || input.description === '' ? null : input.description,
          is_active: 1,
          created_by: admin.full_name,
          created_at: Date.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }
}
