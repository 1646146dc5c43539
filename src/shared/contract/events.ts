import { z } from 'zod';

/**
 * Change events on GET /api/events (Server-Sent Events). Small on purpose: they name what changed,
 * and the client refetches exactly the affected queries.
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('comment.created'), componentId: z.string(), commentId: z.number() }),
  z.object({ type: z.literal('comment.deleted'), componentId: z.string(), commentId: z.number() }),
  z.object({ type: z.literal('vote.changed'), componentId: z.string(), commentId: z.number() }),
  z.object({ type: z.literal('suggestions.generated'), generationId: z.number() }),
  z.object({ type: z.literal('suggestion.vote.changed'), suggestionId: z.number() }),
  z.object({ type: z.literal('ai-prompt.changed'), promptId: z.number() }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;


export const EVENTS_PATH = '/api/events';
