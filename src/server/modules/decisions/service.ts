import type { Kysely } from 'kysely';
import type { DecisionOutcome } from '../../../common/api/decisions.js';
import { DECISION_LABELS } from '../../../common/api/decisions.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { Decision } from '../../../common/contract/decisions.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { AdminActions } from '../admin/policies.js';
import { commentsOnComponent, currentDecisions, currentOutcomes, insertDecision, listDecisions, suggestionsOnComponent, type DecisionRow } from './repo.js';

const ids = (json: string): number[] => (JSON.parse(json) as unknown[]).filter((value): value is number => typeof value === 'number');

function presentDecision(row: DecisionRow): Decision {
  return {
    id: row.id,
    componentId: row.component_id,
    outcome: row.outcome,
    rationale: row.rationale,
    commentIds: ids(row.comment_ids),
    suggestionIds: ids(row.suggestion_ids),
    decidedBy: row.decided_by_name,
    decidedAt: new Date(row.created_at).toISOString(),
  };
}

/** Names what is missing from a list, for the message of a 400. */
const missing = (asked: readonly number[], found: ReadonlySet<number>) => [...new Set(asked)].filter((id) => !found.has(id));

/**
 * Decisions on components: an admin records one (checked with the admin password, audited), which
 * supersedes the component's last; every member reads a component's decisions.
 */
export class DecisionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly events: EventBus,
    private readonly adminActions: AdminActions,
    private readonly isReviewed: (componentId: string) => boolean,
  ) {}

  private assertComponent(componentId: string): void {
    if (!this.isReviewed(componentId)) throw notFound(`Unknown component "${componentId}"`, ERROR_CODES.unknownComponent);
  }

  async history(componentId: string): Promise<Decision[]> {
    this.assertComponent(componentId);
    return (await listDecisions(this.db, componentId)).map(presentDecision);
  }

  /** Each component's current outcome, for the counts every page reads. */
  current(): Promise<Map<string, DecisionOutcome>> {
    return currentOutcomes(this.db);
  }

  /** A component's current decision, if it has one (what its AI summary cites). */
  async currentOf(componentId: string): Promise<Decision | undefined> {
    const [latest] = await listDecisions(this.db, componentId);
    return latest === undefined ? undefined : presentDecision(latest);
  }

  /** Every component's current decision (what the team narrative cites). */
  async currentAll(): Promise<Decision[]> {
    return (await currentDecisions(this.db)).map(presentDecision);
  }

  async record(
    admin: MemberRow,
    context: { ip: string },
    componentId: string,
    input: { outcome: DecisionOutcome; rationale: string; commentIds: number[]; suggestionIds: number[]; adminPassword: string },
  ): Promise<Decision> {
    this.assertComponent(componentId);
    const decision = await this.adminActions.run(admin, context, input.adminPassword, `decided ${componentId}: ${DECISION_LABELS[input.outcome]}`, async () => {
      // The basis is picked from the component's own comments and suggestions: anything else is named back.
      const comments = await commentsOnComponent(this.db, componentId, input.commentIds);
      const strayComments = missing(input.commentIds, comments);
      if (strayComments.length > 0) throw badRequest(`Not comments on this component: ${strayComments.join(', ')}`, ERROR_CODES.badRequest);
      const suggestions = await suggestionsOnComponent(this.db, componentId, input.suggestionIds);
      const straySuggestions = missing(input.suggestionIds, suggestions);
      if (straySuggestions.length > 0) throw badRequest(`Not suggestions about this component: ${straySuggestions.join(', ')}`, ERROR_CODES.badRequest);
      return presentDecision(
        await insertDecision(this.db, {
          componentId,
          outcome: input.outcome,
          rationale: input.rationale,
          commentIds: [...new Set(input.commentIds)],
          suggestionIds: [...new Set(input.suggestionIds)],
          decidedBy: admin.full_name,
          at: Date.now(),
        }),
      );
    });
    await this.events.publish({ type: 'decision.recorded', componentId });
    return decision;
  }
}
