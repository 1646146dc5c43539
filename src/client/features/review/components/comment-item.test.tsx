import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { routes } from '../../../../common/api';
import type { Comment, VoteResult } from '../../../../common/contract/comments';
import { deferred, mockFetch, type Answer } from '../../../test/mock-fetch';
import { expectToast, renderWithApp } from '../../../test/render';
import { CommentItem } from './comment-item';

const COMMENT: Comment = {
  id: 7,
  componentId: 'alert-ingestion',
  kind: 'comment',
  content: 'Dedupe before enrichment.',
  memberName: 'Alan Turing',
  createdAt: '2025-01-02T03:04:05.000Z',
  votes: [
    { memberName: 'Ada Lovelace', voteType: 'thumbs_down' },
    { memberName: 'Grace Hopper', voteType: 'thumbs_up' },
    { memberName: 'Alan Turing', voteType: 'thumbs_up' },
  ],
  resolution: null,
  mine: false,
  permissions: { canResolve: false, canReopen: true, canDelete: false },
};

/** The same comment as the server presents it to its author. */
const OWN: Comment = { ...COMMENT, mine: true, permissions: { canResolve: true, canReopen: true, canDelete: true } };

const NOW = Date.parse('2025-01-02T04:04:05.000Z');

function renderItem(memberName: string | undefined, comment: Comment = memberName === COMMENT.memberName ? OWN : COMMENT) {
  return renderWithApp(
    <ul>
      <CommentItem comment={comment} memberName={memberName} now={NOW} onDeleted={vi.fn()} />
    </ul>,
  );
}

const thumbsUp = () => screen.getByRole('button', { name: /thumbs up$/ });
const thumbsDown = () => screen.getByRole('button', { name: /thumbs down$/ });

describe('comment votes', () => {
  test('show the counts, with the member’s own vote pressed', () => {
    mockFetch();
    renderItem('Ada Lovelace');
    expect(thumbsUp().textContent).toBe('2 thumbs up');
    expect(thumbsDown().textContent).toBe('1 thumbs down');
    expect(thumbsUp().getAttribute('aria-pressed')).toBe('false');
    expect(thumbsDown().getAttribute('aria-pressed')).toBe('true');
  });

  test('press nothing for a member who has not voted or is unknown', () => {
    mockFetch();
    renderItem(undefined);
    expect(thumbsUp().getAttribute('aria-pressed')).toBe('false');
    expect(thumbsDown().getAttribute('aria-pressed')).toBe('false');
  });

  test('only the author gets the (you) mark and the delete button', () => {
    mockFetch();
    renderItem('Alan Turing');
    const article = screen.getByRole('article', { name: 'Comment by Alan Turing' });
    expect(article.textContent).toContain('Alan Turing (you)');
    expect(within(article).getByRole('button', { name: 'Delete comment' })).toBeTruthy();
    expect(thumbsUp().getAttribute('aria-pressed')).toBe('true');
    expect(within(article).getByText('1 hour ago')).toBeTruthy();
  });

  test('others get neither', () => {
    mockFetch();
    renderItem('Ada Lovelace', { ...COMMENT, kind: 'proposal' });
    const article = screen.getByRole('article', { name: 'Change proposal by Alan Turing' });
    expect(article.textContent).not.toContain('(you)');
    expect(within(article).queryByRole('button', { name: 'Delete comment' })).toBeNull();
  });

  test('a click sends the vote type to the comment’s vote call, ignores clicks while it runs, and toasts', async () => {
    const answer = deferred<Answer<VoteResult>>();
    const api = mockFetch().on(routes.comments.vote, () => answer.promise);
    const { user } = renderItem('Ada Lovelace');

    await user.click(thumbsUp());
    const sent = api.requests(routes.comments.vote);
    expect(sent.map((request) => ({ id: request.params.id, body: request.body }))).toEqual([{ id: '7', body: { voteType: 'thumbs_up' } }]);

    // aria-disabled rather than disabled keeps keyboard focus on the button.
    expect(thumbsUp().getAttribute('aria-disabled')).toBe('true');
    expect(thumbsDown().getAttribute('aria-disabled')).toBe('true');
    await user.click(thumbsDown());
    expect(api.requests(routes.comments.vote)).toHaveLength(1);

    answer.resolve({ body: { commentId: 7, componentId: 'alert-ingestion', myVote: 'thumbs_up' } });
    await expectToast('Vote recorded', 'Your vote has been saved.');
    await waitFor(() => {
      expect(thumbsUp().getAttribute('aria-disabled')).toBe('false');
    });
  });

  test('the same vote again is sent as is: the server decides it removes the vote', async () => {
    const api = mockFetch().on(routes.comments.vote, { body: { commentId: 7, componentId: 'alert-ingestion', myVote: null } });
    const { user } = renderItem('Ada Lovelace');
    await user.click(thumbsDown());
    await expectToast('Vote recorded', 'Your vote has been saved.');
    expect(api.requests(routes.comments.vote).map((request) => request.body)).toEqual([{ voteType: 'thumbs_down' }]);
  });

  test('a refused vote shows the server’s message', async () => {
    mockFetch().on(routes.comments.vote, { status: 404, error: { code: 'COMMENT_NOT_FOUND', message: 'Comment not found' } });
    const { user } = renderItem('Ada Lovelace');
    await user.click(thumbsUp());
    await expectToast('Failed to vote', 'Comment not found');
    expect(thumbsUp().getAttribute('aria-disabled')).toBe('false');
  });
});

describe('resolving a comment', () => {
  const RESOLVED: Comment = { ...COMMENT, resolution: { by: 'Grace Hopper', at: '2025-01-02T03:34:05.000Z', note: 'Covered by the dedupe stage' } };

  test('offers Resolve, Reopen and Delete only as the server allows, whoever the member is', () => {
    mockFetch();
    renderItem('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Resolve' })).toBeNull();
    cleanup();
    // An admin: the server allows resolving someone else's comment, not deleting it.
    renderItem('Ada Lovelace', { ...COMMENT, permissions: { ...COMMENT.permissions, canResolve: true } });
    expect(screen.getByRole('button', { name: 'Resolve' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete comment' })).toBeNull();
    cleanup();
    // The names match, but the server's word decides.
    renderItem('Alan Turing', { ...COMMENT, mine: true });
    expect(screen.queryByRole('button', { name: 'Resolve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete comment' })).toBeNull();
    cleanup();
    renderItem('Ada Lovelace', { ...RESOLVED, permissions: { ...COMMENT.permissions, canReopen: false } });
    expect(screen.queryByRole('button', { name: 'Reopen' })).toBeNull();
  });

  test('asks for an optional note, sends it, and toasts', async () => {
    const api = mockFetch().on(routes.comments.resolve, { body: RESOLVED });
    const { user } = renderItem('Alan Turing');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    const dialog = screen.getByRole('dialog', { name: 'Resolve this comment?' });
    await user.type(within(dialog).getByLabelText(/Note/), 'Covered by the dedupe stage');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await expectToast('Comment resolved', 'It is folded in the list, with its votes.');
    expect(api.requests(routes.comments.resolve).map((request) => ({ id: request.params.id, body: request.body }))).toEqual([
      { id: '7', body: { note: 'Covered by the dedupe stage' } },
    ]);
  });

  test('sends no note when none is written', async () => {
    const api = mockFetch().on(routes.comments.resolve, { body: RESOLVED });
    const { user } = renderItem('Alan Turing');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resolve' }));
    await expectToast('Comment resolved', 'It is folded in the list, with its votes.');
    expect(api.requests(routes.comments.resolve).map((request) => request.body)).toEqual([{}]);
  });

  test('folds a resolved comment to who, when and the note; one click unfolds it with its votes', async () => {
    mockFetch();
    const { user, container } = renderItem('Ada Lovelace', RESOLVED);
    expect(screen.getByText(/Resolved/).closest('p')?.textContent).toContain('Resolved by Grace Hopper, 30 minutes ago · “Covered by the dedupe stage”Alan Turing’s comment');
    const article = container.querySelector('article');
    if (article === null) throw new Error('no article');
    expect(article.getAttribute('aria-label')).toBe('Resolved comment by Alan Turing');
    expect(article.hidden).toBe(true);
    const show = screen.getByRole('button', { name: 'Show' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await user.click(show);
    expect(article.hidden).toBe(false);
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true');
    expect(thumbsUp().textContent).toBe('2 thumbs up');
    expect(within(article).queryByRole('button', { name: 'Resolve' })).toBeNull();
  });

  test('lets any member reopen it', async () => {
    const api = mockFetch().on(routes.comments.reopen, { body: COMMENT });
    const { user } = renderItem('Ada Lovelace', RESOLVED);
    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    await expectToast('Comment reopened', 'It counts as open again.');
    expect(api.requests(routes.comments.reopen).map((request) => request.params.id)).toEqual(['7']);
  });

  test("shows the server's refusal", async () => {
    mockFetch().on(routes.comments.resolve, { status: 409, error: { code: 'COMMENT_RESOLVED', message: 'This comment is already resolved' } });
    const { user } = renderItem('Alan Turing');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resolve' }));
    await expectToast('Could not change the comment', 'This comment is already resolved');
  });
});
