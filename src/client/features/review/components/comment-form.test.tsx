import { act, screen, waitFor } from '@testing-library/react';
import { useRef } from 'react';
import { beforeEach, describe, expect, test } from 'vitest';
import { routes } from '../../../../common/api';
import type { Comment } from '../../../../common/contract/comments';
import type { CurrentUser } from '../../../../common/contract/user';
import { COMMENT_MAX_LENGTH } from '../../../../common/limits';
import { useCurrentUser } from '../../../lib/auth';
import { useComments } from '../../../lib/queries/comments';
import { queryKeys } from '../../../lib/query-keys';
import { deferred, mockFetch, type Answer } from '../../../test/mock-fetch';
import { expectToast, renderWithApp } from '../../../test/render';
import { draftKey } from '../comment-draft';
import { CommentForm } from './comment-form';

const COMPONENT_ID = 'alert-ingestion';

function stored(content: string, kind: Comment['kind'] = 'comment'): Comment {
  return { id: 41, componentId: COMPONENT_ID, kind, content, memberName: 'Ada Lovelace', createdAt: '2025-01-02T03:04:05.000Z', votes: [], resolution: null, mine: true, permissions: { canResolve: true, canReopen: true, canDelete: true } };
}

/** The panel owns the text field's ref; the form only hands focus back to it. */
function FormInPanel() {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  return <CommentForm componentId={COMPONENT_ID} componentTitle="Alert Ingestion" textareaRef={textareaRef} />;
}

/** The panel's list of the same component, so a new comment has an observed list to refetch. */
function ListBeside() {
  const comments = useComments(COMPONENT_ID);
  return <p>{comments.data === undefined ? 'loading' : `${comments.data.length} comments listed`}</p>;
}

const textField = () => screen.getByRole('textbox', { name: 'Your comment' });
const postButton = () => screen.getByRole('button', { name: 'Post comment' });

describe('comment form', () => {
  test('cannot post empty or whitespace-only text', async () => {
    const api = mockFetch();
    const { user } = renderWithApp(<FormInPanel />);
    expect(screen.getByRole('form', { name: 'Add a comment on Alert Ingestion' })).toBeTruthy();
    expect(postButton()).toHaveProperty('disabled', true);

    await user.type(textField(), '   \n  ');
    expect(postButton()).toHaveProperty('disabled', true);
    // Ctrl+Enter is the keyboard's way to post; it must obey the same rule.
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(api.requests(routes.comments.create)).toHaveLength(0);

    await user.type(textField(), 'x');
    expect(postButton()).toHaveProperty('disabled', false);
  });

  test('counts characters against the limit, and the field stops at it', async () => {
    mockFetch();
    const { user } = renderWithApp(<FormInPanel />);
    const limit = new Intl.NumberFormat('en').format(COMMENT_MAX_LENGTH);
    expect(screen.getByText(`0 / ${limit}`)).toBeTruthy();

    await user.type(textField(), 'Hello');
    expect(screen.getByText(`5 / ${limit}`)).toBeTruthy();

    await user.click(textField());
    await user.paste('a'.repeat(COMMENT_MAX_LENGTH + 10));
    expect(textField()).toHaveProperty('value.length', COMMENT_MAX_LENGTH);
    expect(screen.getByText(`${limit} / ${limit}`)).toBeTruthy();
  });

  test("shows 'Posting...' while the call runs, then toasts, clears the text and resets the kind", async () => {
    const answer = deferred<Answer<Comment>>();
    const api = mockFetch().on(routes.comments.create, () => answer.promise);
    const { user } = renderWithApp(<FormInPanel />);

    await user.click(screen.getByRole('radio', { name: 'Change proposal' }));
    const field = screen.getByRole('textbox', { name: 'Your change proposal' });
    await user.type(field, '  Split the queue per tenant.  ');
    await user.click(screen.getByRole('button', { name: 'Post proposal' }));

    const pending = screen.getByRole('button', { name: 'Posting...' });
    expect(pending).toHaveProperty('disabled', true);
    expect(api.requests(routes.comments.create).map((request) => request.body)).toEqual([
      { componentId: COMPONENT_ID, content: 'Split the queue per tenant.', kind: 'proposal' },
    ]);

    answer.resolve({ status: 201, body: stored('Split the queue per tenant.', 'proposal') });
    await expectToast('Comment added', 'Your comment has been posted successfully.');
    expect(textField()).toHaveProperty('value', '');
    expect(screen.getByRole('radio', { name: 'Comment' })).toHaveProperty('checked', true);
    // The mutation settles just after its success handler has cleared the form.
    expect(await screen.findByRole('button', { name: 'Post comment' })).toHaveProperty('disabled', true);
    expect(document.activeElement).toBe(textField());
  });

  test("stays 'Posting...' until the panel's comment list has refetched", async () => {
    const refetched = deferred<Answer<Comment[]>>();
    const api = mockFetch()
      .on(routes.comments.create, { status: 201, body: stored('First') })
      .on(routes.comments.withVotes, { body: [] });
    const { user } = renderWithApp(
      <>
        <FormInPanel />
        <ListBeside />
      </>,
    );
    expect(await screen.findByText('0 comments listed')).toBeTruthy();
    api.on(routes.comments.withVotes, () => refetched.promise);

    await user.type(textField(), 'First');
    await user.click(postButton());
    await waitFor(() => {
      expect(api.requests(routes.comments.withVotes)).toHaveLength(2);
    });
    expect(screen.getByRole('button', { name: 'Posting...' })).toBeTruthy();
    expect(screen.queryByText('Comment added')).toBeNull();

    refetched.resolve({ body: [stored('First')] });
    await expectToast('Comment added', 'Your comment has been posted successfully.');
    expect(screen.getByText('1 comments listed')).toBeTruthy();
  });

  test("a refusal shows the server's message and keeps the text", async () => {
    mockFetch().on(routes.comments.create, { status: 429, error: { code: 'RATE_LIMITED', message: 'Too many comments, wait a minute' } });
    const { user } = renderWithApp(<FormInPanel />);
    await user.type(textField(), 'Another thought');
    await user.click(postButton());

    await expectToast('Failed to add comment', 'Too many comments, wait a minute');
    expect(textField()).toHaveProperty('value', 'Another thought');
    expect(postButton()).toHaveProperty('disabled', false);
    expect(document.activeElement).toBe(textField());
  });

  test('Ctrl+Enter posts from the text field', async () => {
    const api = mockFetch().on(routes.comments.create, { status: 201, body: stored('Quick one') });
    const { user } = renderWithApp(<FormInPanel />);
    await user.type(textField(), 'Quick one');
    await user.keyboard('{Control>}{Enter}{/Control}');

    await expectToast('Comment added', 'Your comment has been posted successfully.');
    expect(api.requests(routes.comments.create).map((request) => request.body)).toEqual([{ componentId: COMPONENT_ID, content: 'Quick one', kind: 'comment' }]);
  });
});

describe('comment drafts', () => {
  const ADA: CurrentUser = { name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', email: null, profileImageUrl: null, role: 'member', permissions: { canAdminister: false, canDecide: false } };
  const ALAN: CurrentUser = { ...ADA, name: 'Alan Turing', firstName: 'Alan', lastName: 'Turing' };
  const adaKey = draftKey(ADA.name, COMPONENT_ID);
  const DAY_MS = 24 * 60 * 60_000;

  /** As the auth gate does: the form only while signed in, the sign-in prompt once the session ends. */
  function SignedInForm() {
    const { user, isLoading } = useCurrentUser();
    if (isLoading) return <p>Loading</p>;
    if (user === null) return <p>Signed out</p>;
    return <FormInPanel />;
  }

  /** The form opened by `member` (the current user answered by the server). */
  async function openAs(member: CurrentUser) {
    const api = mockFetch().on(routes.auth.user, { body: member });
    const rendered = renderWithApp(<SignedInForm />);
    await screen.findByRole('form');
    return { ...rendered, api };
  }

  const storedDraft = () => {
    const raw = localStorage.getItem(adaKey);
    return raw === null ? null : (JSON.parse(raw) as { text: string; kind: string; savedAt: number });
  };

  beforeEach(() => {
    localStorage.clear();
  });

  test('typing saves a draft after a pause, and the form opened again restores it with its kind', async () => {
    const first = await openAs(ADA);
    await first.user.click(screen.getByRole('radio', { name: 'Change proposal' }));
    await first.user.type(screen.getByRole('textbox', { name: 'Your change proposal' }), 'Split the queue');
    await waitFor(() => {
      expect(storedDraft()).toMatchObject({ text: 'Split the queue', kind: 'proposal' });
    });
    first.unmount();

    await openAs(ADA);
    expect(screen.getByRole('textbox', { name: 'Your change proposal' })).toHaveProperty('value', 'Split the queue');
    expect(screen.getByRole('radio', { name: 'Change proposal' })).toHaveProperty('checked', true);
  });

  test('closing the panel straight after typing still keeps the text', async () => {
    const { user, unmount } = await openAs(ADA);
    await user.type(textField(), 'Half a thought');
    unmount();
    expect(storedDraft()?.text).toBe('Half a thought');
  });

  test('a successful post removes the draft', async () => {
    const { user, api, unmount } = await openAs(ADA);
    api.on(routes.comments.create, { status: 201, body: stored('Posted') });
    await user.type(textField(), 'Posted');
    await user.click(postButton());
    await expectToast('Comment added', 'Your comment has been posted successfully.');
    unmount();
    expect(storedDraft()).toBeNull();

    await openAs(ADA);
    expect(textField()).toHaveProperty('value', '');
  });

  test('clearing the text removes the draft', async () => {
    const { user, unmount } = await openAs(ADA);
    await user.type(textField(), 'Never mind');
    await waitFor(() => {
      expect(storedDraft()).not.toBeNull();
    });
    await user.clear(textField());
    unmount();
    expect(storedDraft()).toBeNull();
  });

  test('a post refused because the session ended keeps the draft, and signing in again brings it back', async () => {
    const { user, api, queryClient } = await openAs(ADA);
    api.on(routes.comments.create, { status: 401, error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue' } });
    await user.type(textField(), 'Written before lunch');
    await user.click(postButton());
    // The 401 signs the member out: the form is gone, as the sign-in screen replaces the page.
    expect(await screen.findByText('Signed out')).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
    expect(storedDraft()?.text).toBe('Written before lunch');

    act(() => {
      queryClient.setQueryData(queryKeys.user, ADA);
    });
    expect(await screen.findByRole('textbox', { name: 'Your comment' })).toHaveProperty('value', 'Written before lunch');
  });

  test("another member on the same browser never sees a member's draft", async () => {
    localStorage.setItem(adaKey, JSON.stringify({ text: "Ada's idea", kind: 'comment', savedAt: Date.now() }));
    const { user, unmount } = await openAs(ALAN);
    expect(textField()).toHaveProperty('value', '');
    await user.type(textField(), "Alan's idea");
    unmount();
    expect(storedDraft()?.text).toBe("Ada's idea");
    expect(localStorage.getItem(draftKey(ALAN.name, COMPONENT_ID))).toContain("Alan's idea");
  });

  test('a draft older than 7 days is dropped', async () => {
    localStorage.setItem(adaKey, JSON.stringify({ text: 'Stale', kind: 'comment', savedAt: Date.now() - 8 * DAY_MS }));
    await openAs(ADA);
    expect(textField()).toHaveProperty('value', '');
    expect(storedDraft()).toBeNull();
  });
});
