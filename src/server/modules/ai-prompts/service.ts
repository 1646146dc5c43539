import type { Kysely } from 'kysely';
import { PROMPT_HISTORY_PAGE } from '../../../common/api/ai-prompts.js';
import type { AiPrompt, AiPromptListItem } from '../../../common/contract/ai.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { AdminActions } from '../admin/policies.js';
import { activateNarrativePrompt, findActiveNarrativePrompt, findPrompt, insertActiveNarrativePrompt, listPromptPage, type PromptRow } from './repo.js';

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

/** The admin's narrative-summary prompts: a saved prompt becomes the only active one; history is kept. */
export class PromptService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly events: EventBus,
    private readonly adminActions: AdminActions,
    /** Versions kept at most (AI_PROMPT_HISTORY_MAX); older ones go when a new one is saved, never the active one. */
    private readonly historyMax: number,
  ) {}

  /** A page of the history, newest first, each version with the start of its text. */
  async list(page: { before?: number | undefined; limit?: number | undefined }): Promise<AiPromptListItem[]> {
    const rows = await listPromptPage(this.db, { before: page.before, limit: page.limit ?? PROMPT_HISTORY_PAGE.defaultLimit });
    return rows.map((row) => ({ ...present(row), promptLength: row.prompt_length }));
  }

  /** One version with its whole text. */
  async get(id: number): Promise<AiPrompt> {
    const row = await findPrompt(this.db, id);
    if (row === undefined) throw notFound('No such prompt', ERROR_CODES.promptNotFound);
    return present(row);
  }

  async activeNarrativePrompt(): Promise<AiPrompt> {
    const row = await findActiveNarrativePrompt(this.db);
    if (row === undefined) throw notFound('No active prompt', ERROR_CODES.noActivePrompt);
    return present(row);
  }

  /** Admin role (checked by the route guard) and the admin password, both on the server. */
  async create(admin: MemberRow, context: { ip: string }, input: { prompt: string; description?: string | undefined; adminPassword: string }): Promise<AiPrompt> {
    const description = input.description === undefined || input.description === '' ? null : input.description;
    const row = await this.adminActions.run(admin, context, input.adminPassword, 'save AI prompt', () =>
      insertActiveNarrativePrompt(this.db, this.dialect, { prompt: input.prompt, description, createdBy: admin.full_name }, this.historyMax),
    );
    await this.events.publish({ type: 'ai-prompt.changed', promptId: row.id });
    return present(row);
  }

  /** Rollback: an earlier version becomes the active prompt again. */
  async activate(admin: MemberRow, context: { ip: string }, id: number, adminPassword: string): Promise<AiPrompt> {
    const row = await this.adminActions.run(admin, context, adminPassword, `activate AI prompt ${id}`, async () => {
      const activated = await activateNarrativePrompt(this.db, this.dialect, id);
      if (activated === undefined) throw notFound('No such prompt', ERROR_CODES.promptNotFound);
      return activated;
    });
    await this.events.publish({ type: 'ai-prompt.changed', promptId: row.id });
    return present(row);
  }
}
