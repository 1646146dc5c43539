/**
 * Change events on the live stream (Server-Sent Events, `change` frames). Small on purpose: they
 * name what changed, and each page refetches exactly the affected queries. Plain values: the
 * server checks what it reads from the bus and the client what it reads from the stream with the
 * same `parseLiveEvent`.
 */
export const EVENTS_PATH = '/api/events';
/**
 * A frame of its own (not a `change`): the server may have missed events (its database connection
 * dropped, or an event could not be sent), so the page refetches everything it shows.
 */
export const RESYNC_EVENT = 'resync';

export type CommentEvent =
  | { type: 'comment.created'; componentId: string; commentId: number }
  | { type: 'comment.deleted'; componentId: string; commentId: number }
  | { type: 'vote.changed'; componentId: string; commentId: number }
  /** Resolved or reopened. */
  | { type: 'comment.resolution.changed'; componentId: string; commentId: number };
export type SuggestionsGeneratedEvent = { type: 'suggestions.generated'; generationId: number };
/** An admin recorded a decision on a component. */
export type DecisionEvent = { type: 'decision.recorded'; componentId: string };
export type SuggestionVoteEvent = { type: 'suggestion.vote.changed'; suggestionId: number };
/** Its status, reason, owner or due day changed. */
export type SuggestionOutcomeEvent = { type: 'suggestion.outcome.changed'; suggestionId: number };
export type AiPromptEvent = { type: 'ai-prompt.changed'; promptId: number };
/** What only the admin's panel shows: members, PIN reset requests, error logs, the self-test. */
export type AdminEvent = { type: 'members.changed' } | { type: 'pin-resets.changed' } | { type: 'error-logs.changed' } | { type: 'qa.progress' };

/**
 * Activity was recorded (a sign-in, a sync, a log entry): drops the analytics answers every
 * instance keeps. Never streamed: it comes with every member's minute of work.
 */
export type ActivityEvent = { type: 'activity.recorded' };

export type LiveEvent = CommentEvent | DecisionEvent | SuggestionsGeneratedEvent | SuggestionVoteEvent | SuggestionOutcomeEvent | AiPromptEvent | AdminEvent | ActivityEvent;
export type LiveEventType = LiveEvent['type'];

export function isCommentEvent(event: LiveEvent): event is CommentEvent {
  return event.type === 'comment.created' || event.type === 'comment.deleted' || event.type === 'vote.changed' || event.type === 'comment.resolution.changed';
}

export function isSuggestionEvent(event: LiveEvent): event is SuggestionsGeneratedEvent | SuggestionVoteEvent | SuggestionOutcomeEvent {
  return event.type === 'suggestions.generated' || event.type === 'suggestion.vote.changed' || event.type === 'suggestion.outcome.changed';
}

const ADMIN_EVENT_TYPES: ReadonlySet<string> = new Set<AdminEvent['type']>(['members.changed', 'pin-resets.changed', 'error-logs.changed', 'qa.progress']);

/** Admin events go only to admins' streams. */
export function isAdminEvent(event: LiveEvent): event is AdminEvent {
  return ADMIN_EVENT_TYPES.has(event.type);
}

/** Events for the instances only, never sent to a browser. */
export function isServerOnlyEvent(event: LiveEvent): event is ActivityEvent {
  return event.type === 'activity.recorded';
}

/** A whole number id, as every id in an event is. */
function idField(record: ReadonlyMap<string, unknown>, key: string): number | undefined {
  const value = record.get(key);
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * One event from a decoded JSON value; anything that is not a known event is null rather than
 * trusted. Only the known fields are kept.
 */
export function parseLiveEvent(value: unknown): LiveEvent | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = new Map<string, unknown>(Object.entries(value));
  const type = record.get('type');
  switch (type) {
    case 'comment.created':
    case 'comment.deleted':
    case 'vote.changed':
    case 'comment.resolution.changed': {
      const componentId = record.get('componentId');
      const commentId = idField(record, 'commentId');
      return typeof componentId === 'string' && commentId !== undefined ? { type, componentId, commentId } : null;
    }
    case 'decision.recorded': {
      const componentId = record.get('componentId');
      return typeof componentId === 'string' ? { type, componentId } : null;
    }
    case 'suggestions.generated': {
      const generationId = idField(record, 'generationId');
      return generationId === undefined ? null : { type, generationId };
    }
    case 'suggestion.vote.changed':
    case 'suggestion.outcome.changed': {
      const suggestionId = idField(record, 'suggestionId');
      return suggestionId === undefined ? null : { type, suggestionId };
    }
    case 'ai-prompt.changed': {
      const promptId = idField(record, 'promptId');
      return promptId === undefined ? null : { type, promptId };
    }
    case 'members.changed':
    case 'pin-resets.changed':
    case 'error-logs.changed':
    case 'qa.progress':
    case 'activity.recorded':
      return { type };
    default:
      return null;
  }
}

/** One event from JSON text (a stream frame, a NOTIFY payload); null for bad JSON or an unknown event. */
export function parseLiveEventJson(text: string): LiveEvent | null {
  try {
    return parseLiveEvent(JSON.parse(text));
  } catch {
    return null;
  }
}
