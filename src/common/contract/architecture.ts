import { z } from 'zod';
import { DIAGRAM_PHASES, architectureRoutes } from '../api/architecture.js';

/** Stable kebab-case ids: comments attach to them, so they never change once shipped. */
export const componentIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'component ids are kebab-case');

export const diagramPhaseSchema = z.enum(DIAGRAM_PHASES);

export const cardSchema = z.strictObject({
  id: componentIdSchema,
  title: z.string().min(1).max(80),
  /** What the component does, for the reviewer: one or two specific sentences. */
  description: z.string().min(1).max(600),
  /** Three to five concrete capabilities. */
  highlights: z.array(z.string().min(1).max(160)).min(3).max(5),
});
export type Card = z.infer<typeof cardSchema>;

export const cardGroupSchema = z.strictObject({
  id: componentIdSchema,
  title: z.string().min(1).max(80),
  description: z.string().min(1).max(300),
  cards: z.array(cardSchema).min(1),
});
export type CardGroup = z.infer<typeof cardGroupSchema>;

/** A component of the diagram. Positions are in diagram units (React Flow pixels). */
export const diagramComponentSchema = z.strictObject({
  id: componentIdSchema,
  title: z.string().min(1).max(60),
  description: z.string().min(1).max(600),
  phase: diagramPhaseSchema,
  color: z.string().regex(/^#[0-9a-f]{6}$/i, 'colours are #rrggbb'),
  x: z.number(),
  y: z.number(),
  width: z.enum(['sm', 'md', 'lg', 'xl']),
  connectsToKnowledgeGraph: z.boolean().optional(),
});
export type DiagramComponent = z.infer<typeof diagramComponentSchema>;

export const diagramEdgeSchema = z.strictObject({
  from: componentIdSchema,
  to: componentIdSchema,
  label: z.string().max(40).optional(),
});

export const architectureSchema = z.strictObject({
  title: z.string(),
  groups: z.array(cardGroupSchema).length(3),
  diagram: z.strictObject({
    components: z.array(diagramComponentSchema).min(1),
    edges: z.array(diagramEdgeSchema),
    /** The order in which 'Reveal Step-by-Step' shows the boxes, one per click. */
    stepOrder: z.array(componentIdSchema).min(1),
  }),
  /** 17 ranked component ids, 'Human-Initiated' first, the QA test component 17th. */
  componentOrder: z.array(componentIdSchema).length(17),
});
export type Architecture = z.infer<typeof architectureSchema>;

export const architectureContract = {
  get: { ...architectureRoutes.get, response: { 200: architectureSchema } },
} as const;
