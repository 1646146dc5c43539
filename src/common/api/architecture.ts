import type { Architecture } from '../contract/architecture.js';
import { defineRoute } from './route.js';

export const DIAGRAM_PHASES = [
  'Detection',
  'Noise Removal',
  'Initiation',
  'Context',
  'Triage',
  'Investigation',
  'Response',
  'Validation',
  'Outcome',
  'IT Knowledge Graph',
  'Connection Hub',
] as const;

/** The hidden component the built-in QA suite comments on; it is never shown in the review. */
export const QA_TEST_COMPONENT_ID = 'qa-test-component';
export const UNKNOWN_COMPONENT_RANK = 999;

/** Rank of a component in the product's ordering (1-based); unknown components rank 999. */
export function componentRank(componentOrder: readonly string[], componentId: string): number {
  const index = componentOrder.indexOf(componentId);
  return index === -1 ? UNKNOWN_COMPONENT_RANK : index + 1;
}

export const architectureRoutes = {
  get: defineRoute<{ response: Architecture }>()('GET', '/api/architecture'),
} as const;
