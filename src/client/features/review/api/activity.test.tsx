import { describe, expect, test } from 'vitest';
import { commentRoutes } from '../../../../common/api/comments';
import type { Comment } from '../../../../common/contract/comments';
import { loggedActivities, runMutation } from '../../../test/activity';
import { mockFetch } from '../../../test/mock-fetch';
import { useCreateComment } from './create-comment';
import { useVoteComment } from './vote-comment';

const CREATED: Comment = { id: 41, componentId: 'alert-ingestion', kind: 'comment', content: 'Hi', memberName: 'Ada Lovelace', createdAt: '2025-01-02T03:04:05.000Z', votes: [], resolution: null, mine: true, permissions: { canResolve: true, canReopen: true, canDelete: true } };
const VOTED = { commentId: 41, componentId: 'alert-ingestion', myVote: 'thumbs_up' } as const;

const addComment = () =>
  runMutation(
    () => useCreateComment(),
    (mutation) => {
      mutation.mutate({ componentId: 'alert-ingestion', content: 'Hi', kind: 'comment' });
    },
  );
const vote = () =>
  runMutation(
    () => useVoteComment(41),
    (mutation) => {
      mutation.mutate('thumbs_up');
    },
  );

describe('review activity', () => {
  // The server logs comments and votes where they happen; the page posts no entry for them.
  test('a comment added and a vote post no activity entry', async () => {
    const api = mockFetch().on(commentRoutes.create, { status: 201, body: CREATED }).on(commentRoutes.vote, { body: VOTED });
    expect((await addComment()).isSuccess).toBe(true);
    expect((await vote()).isSuccess).toBe(true);
    expect(loggedActivities(api)).toEqual([]);
  });
});
