import type { Kysely } from 'kysely';
import type { DecisionOutcome } from '../../../common/api/decisions.js';
import type { Database } from '../../db/schema.js';

export interface DecisionRow {
  id: number;
  component_id: string;
  outcome: DecisionOutcome;
  rationale: string;
  comment_ids: string;
  suggestion_ids: string;
  decided_by_name: string;
  created_at: number;
}

const COLUMNS = ['id', 'component_id', 'outcome', 'rationale', 'comment_ids', 'suggestion_ids', 'decided_by_name', 'created_at'] as const;

/** A component's decisions, newest first: the first is the current one. */
export function listDecisions(db: Kysely<Database>, componentId: string): Promise<DecisionRow[]> {
  return db.selectFrom('component_decisions').select(COLUMNS).where('component_id', '=', componentId).orderBy('id', 'desc').execute();
}

/** The newest decision id of each component. */
function latestIds(db: Kysely<Database>) {
  return db.selectFrom('component_decisions').select((eb) => ['component_id', eb.fn.max('id').as('id')]).groupBy('component_id');
}

/** Every component's current decision: the newest row of each. */
export async function currentOutcomes(db: Kysely<Database>): Promise<Map<string, DecisionOutcome>> {
  const rows = await db
    .selectFrom('component_decisions')
    .innerJoin(latestIds(db).as('latest'), 'latest.id', 'component_decisions.id')
    .select(['component_decisions.component_id', 'component_decisions.outcome'])
    .execute();
  return new Map(rows.map((row) => [row.component_id, row.outcome]));
}

/** Every component's current decision in full, oldest decided first. */
export function currentDecisions(db: Kysely<Database>): Promise<DecisionRow[]> {
  return db
    .selectFrom('component_decisions')
    .innerJoin(latestIds(db).as('latest'), 'latest.id', 'component_decisions.id')
    .select(COLUMNS.map((column) => `component_decisions.${column}` as const))
    .orderBy('component_decisions.id')
    .execute();
}

export function insertDecision(
  db: Kysely<Database>,
  decision: { componentId: string; outcome: DecisionOutcome; rationale: string; commentIds: readonly number[]; suggestionIds: readonly number[]; decidedBy: string; at: number },
): Promise<DecisionRow> {
  return db
    .insertInto('component_decisions')
    .values({
      component_id: decision.componentId,
      outcome: decision.outcome,
      rationale: decision.rationale,
      comment_ids: JSON.stringify(decision.commentIds),
      suggestion_ids: JSON.stringify(decision.suggestionIds),
      decided_by_name: decision.decidedBy,
      created_at: decision.at,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Of these comment ids, those on the component. */
export async function commentsOnComponent(db: Kysely<Database>, componentId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('comments').select('id').where('component_id', '=', componentId).where('id', 'in', [...ids]).execute();
  return new Set(rows.map((row) => row.id));
}

/** Of these suggestion ids, the listed ones that follow from comments on the component. */
export async function suggestionsOnComponent(db: Kysely<Database>, componentId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('suggestions').select(['id', 'components']).where('status', '=', 'active').where('id', 'in', [...ids]).execute();
  return new Set(rows.filter((row) => (JSON.parse(row.components) as unknown[]).includes(componentId)).map((row) => row.id));
}
