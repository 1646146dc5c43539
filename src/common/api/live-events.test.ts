import { describe, expect, it } from 'vitest';
import { isServerOnlyEvent, parseLiveEventJson as parseLiveEvent } from './live-events.js';

describe('parseLiveEventJson', () => {
  it('accepts the three change events of the contract', () => {
    for (const type of ['comment.created', 'comment.deleted', 'vote.changed'] as const) {
      expect(parseLiveEvent(JSON.stringify({ type, componentId: 'event-management', commentId: 7 }))).toEqual({ type, componentId: 'event-management', commentId: 7 });
    }
  });

  it('accepts the suggestion and prompt events, with only their own fields', () => {
    expect(parseLiveEvent('{"type":"suggestions.generated","generationId":3,"extra":"x"}')).toEqual({ type: 'suggestions.generated', generationId: 3 });
    expect(parseLiveEvent('{"type":"suggestion.vote.changed","suggestionId":9}')).toEqual({ type: 'suggestion.vote.changed', suggestionId: 9 });
    expect(parseLiveEvent('{"type":"ai-prompt.changed","promptId":2}')).toEqual({ type: 'ai-prompt.changed', promptId: 2 });
  });

  it('accepts the admin events, which carry only their type', () => {
    for (const type of ['members.changed', 'pin-resets.changed', 'error-logs.changed', 'qa.progress'] as const) {
      expect(parseLiveEvent(JSON.stringify({ type, secret: 'x' }))).toEqual({ type });
    }
  });

  it('accepts the instances-only activity event, which no stream forwards', () => {
    const event = parseLiveEvent('{"type":"activity.recorded","memberId":4}');
    expect(event).toEqual({ type: 'activity.recorded' });
    expect(event !== null && isServerOnlyEvent(event)).toBe(true);
    expect(isServerOnlyEvent({ type: 'members.changed' })).toBe(false);
  });

  it('ignores anything else rather than trusting it', () => {
    for (const data of ['{"type":"suggestions.generated"}', '{"type":"suggestion.vote.changed","suggestionId":"9"}', '{"type":"ai-prompt.changed","promptId":null}']) {
      expect(parseLiveEvent(data)).toBeNull();
    }
    for (const data of ['', 'not json', 'null', '[]', '{"type":"comment.created"}', '{"type":"other","componentId":"a","commentId":1}', '{"type":"vote.changed","componentId":1,"commentId":1}', '{"type":"vote.changed","componentId":"a","commentId":"1"}']) {
      expect(parseLiveEvent(data)).toBeNull();
    }
  });
});
