import { describe, expect, test, vi } from 'vitest';
import { activityRoutes } from '../../../../common/api/activity';
import { commentRoutes } from '../../../../common/api/comments';
import type { Comment } from '../../../../common/contract/comments';
import { loggedActivities, runMutation } from '../../../test/activity';
import { mockFetch } from '../../../test/mock-fetch';
import { useCreateComment } from './create-comment';
import { useVoteComment } from './vote-comment';

const CREATED: Comment = { id: 41, componentId: 'alert-ingestion', kind: 'comment', content: 'Hi', memberName: 'Ada Lovelace', createdAt: '2025-01-02T03:04:05.000Z', votes: [] };
const VOTED = { commentId: 41, componentId: 'alert-ingestion', myVote: 'thumbs_up' } as const;
const REFUSED = { status: 500, error: { code: 'INTERNAL_ERROR', message: 'Boom' } } as const;

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
  test('a comment added logs one comment_added with its component', async () => {
    const api = mockFetch().on(commentRoutes.create, { status: 201, body: CREATED });
    await addComment();
    expect(loggedActivities(api)).toEqual([{ activityType: 'comment_added', details: { componentId: 'alert-ingestion' } }]);
  });

  test('a vote logs one vote_cast with the vote it left', async () => {
    const api = mockFetch().on(commentRoutes.vote, { body: VOTED });
    await vote();
    expect(loggedActivities(api)).toEqual([{ activityType: 'vote_cast', details: { target: 'comment', commentId: 41, componentId: 'alert-ingestion', myVote: 'thumbs_up' } }]);
  });

  test('failed calls log nothing', async () => {
    const api = mockFetch().on(commentRoutes.create, REFUSED).on(commentRoutes.vote, REFUSED);
    expect((await addComment()).isError).toBe(true);
    expect((await vote()).isError).toBe(true);
    expect(loggedActivities(api)).toEqual([]);
  });

  test('a log the server refuses only warns: the comment and the vote still succeed', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch().on(commentRoutes.create, { status: 201, body: CREATED }).on(commentRoutes.vote, { body: VOTED }).on(activityRoutes.log, REFUSED);
    expect((await addComment()).isSuccess).toBe(true);
    expect((await vote()).isSuccess).toBe(true);
    await vi.waitFor(() => {
      expect(warn).toHaveBeenCalledTimes(2);
    });
  });
});
