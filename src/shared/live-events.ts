import type { LiveEvent } from './contract/events.js';

/** The events about one component's comments and votes. Kept apart from the contract so the page does not load zod for it. */
export type CommentEvent = Extract<LiveEvent, { componentId: string }>;

export function isCommentEvent(event: LiveEvent): event is CommentEvent {
  return event.type === 'comment.created' || event.type === 'comment.deleted' || event.type === 'vote.changed';
}
