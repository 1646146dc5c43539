import type { Decision, RecordDecisionInput } from '../contract/decisions.js';
import { defineRoute } from './route.js';

/** What an admin can decide about a component. */
export const DECISION_OUTCOMES = ['accepted', 'accepted_with_changes', 'needs_rework', 'deferred'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** Each outcome as people read it. */
export const DECISION_LABELS: Readonly<Record<DecisionOutcome, string>> = {
  accepted: 'Accepted as is',
  accepted_with_changes: 'Accepted with changes',
  needs_rework: 'Needs rework',
  deferred: 'Deferred',
};

/** The most comments and suggestions one decision names as its basis. */
export const DECISION_BASIS_MAX = 100;

/**
 * A component's decisions, newest first (the first is the current one; the rest stay readable as
 * its history), and recording a new one (admin, with the admin password), which supersedes the last.
 */
export const decisionRoutes = {
  history: defineRoute<{ response: Decision[] }>()('GET', '/api/decisions/:componentId'),
  record: defineRoute<{ body: RecordDecisionInput; response: Decision }>()('POST', '/api/decisions/:componentId'),
} as const;
