import type { Kysely } from 'kysely';
import type { AiPrompt } from '../../../common/contract/ai.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { AdminActions } from '../admin/policies.js';
import { activateNarrativePrompt, findActiveNarrativePrompt, insertActiveNarrativePrompt, listPrompts, type PromptRow } from './repo.js';

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
  ) {}

  async list(): Promise<AiPrompt[]> {
    return (await listPrompts(this.db)).map(present);
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
      insertActiveNarrativePrompt(this.db, this.dialect, { prompt: input.prompt, description, createdBy: admin.full_name }),
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
