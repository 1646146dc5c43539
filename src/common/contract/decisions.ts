import { z } from 'zod';
import { DECISION_BASIS_MAX, DECISION_OUTCOMES, decisionRoutes } from '../api/decisions.js';
import { DECISION_RATIONALE_MAX_LENGTH, MAX_ROW_ID } from '../limits.js';
import { TEXT_RULE_MESSAGES, hasForbiddenControls, withoutZeroWidth } from '../text-rules.js';
import { adminPasswordSchema } from './admin.js';
import { componentParamsSchema } from './comments.js';

const rowId = z.number().int().positive().max(MAX_ROW_ID);

export const decisionOutcomeSchema = z.enum(DECISION_OUTCOMES, { error: `outcome must be one of ${DECISION_OUTCOMES.join(', ')}` });

/** A decision on a component: what was decided, why, on which comments and suggestions, by whom and when. */
export const decisionSchema = z.object({
  id: rowId,
  componentId: z.string(),
  outcome: decisionOutcomeSchema,
  rationale: z.string(),
  commentIds: z.array(rowId),
  suggestionIds: z.array(rowId),
  decidedBy: z.string(),
  decidedAt: z.iso.datetime(),
});
export type Decision = z.infer<typeof decisionSchema>;

const basis = (what: string) =>
  z
    .array(rowId, { error: `${what} must be a list of ids` })
    .max(DECISION_BASIS_MAX, `A decision names at most ${DECISION_BASIS_MAX} ${what}`)
    .default([]);

export const recordDecisionSchema = z.strictObject({
  outcome: decisionOutcomeSchema,
  rationale: z
    .string({ error: 'A decision needs a rationale' })
    .refine((text) => !hasForbiddenControls(text, { multiline: true }), `Rationale ${TEXT_RULE_MESSAGES.control}`)
    .transform(withoutZeroWidth)
    .pipe(
      z
        .string()
        .trim()
        .min(1, 'A decision needs a rationale')
        .max(DECISION_RATIONALE_MAX_LENGTH, `Rationale cannot be longer than ${DECISION_RATIONALE_MAX_LENGTH} characters`),
    ),
  commentIds: basis('comments'),
  suggestionIds: basis('suggestions'),
  adminPassword: adminPasswordSchema,
});
export type RecordDecisionInput = z.input<typeof recordDecisionSchema>;

export const decisionsContract = {
  history: { ...decisionRoutes.history, params: componentParamsSchema, response: { 200: z.array(decisionSchema) } },
  record: { ...decisionRoutes.record, params: componentParamsSchema, body: recordDecisionSchema, response: { 201: decisionSchema } },
} as const;
