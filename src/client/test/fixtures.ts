import type { CommentSummary, Suggestion } from '../../common/contract/ai';
import type { Comment } from '../../common/contract/comments';

/** Comments 1..count on one component, newest first as the API lists them. */
export function commentsOn(componentId: string, count: number): Comment[] {
  return Array.from({ length: count }, (_, index) => {
    const id = count - index;
    return {
      id,
      componentId,
      kind: 'comment' as const,
      content: `Comment number ${id}`,
      memberName: id % 2 === 0 ? 'Ada Lovelace' : 'Alan Turing',
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, id)).toISOString(),
      votes: [],
      resolution: null,
      mine: false,
      permissions: { canResolve: false, canReopen: true, canDelete: false },
    };
  });
}

/** A summary made from `commentIds`, confident unless told otherwise. */
export function summaryOf(componentId: string, commentIds: number[], overrides: Partial<CommentSummary> = {}): CommentSummary {
  return {
    componentId,
    commentIds,
    confidence: 0.82,
    understanding: 'The team wants ingestion to drop duplicates early.',
    contentChanges: '',
    structuralChanges: '',
    keyThemes: [],
    sources: { keyThemes: [], contentChanges: [], structuralChanges: [] },
    setAside: [],
    outcome: { decision: null, settledIds: [], resolvedCount: 0 },
    generatedBy: { provider: 'local', model: 'analyzer-1', promptVersion: 'v1', inputHash: 'a'.repeat(64), generatedAt: new Date().toISOString() },
    fallback: false,
    ...overrides,
  };
}

/** An open suggestion on one component, as the server presents it to a member with no controls over it. */
export function suggestionFixture(id: number, overrides: Partial<Suggestion> = {}): Suggestion {
  const at = '2026-11-20T10:00:00.000Z';
  return {
    id,
    suggestion: `Suggestion ${id}: add an owner to every suppression rule.`,
    components: ['event-deduplication'],
    recommendationType: 'content',
    memberInitials: ['AL'],
    votes: [],
    sources: [id],
    createdAt: at,
    updatedAt: at,
    status: 'open',
    statusReason: null,
    statusBy: null,
    statusAt: null,
    owner: null,
    dueDate: null,
    mine: false,
    permissions: { canSetStatus: false, canAssign: false, canComplete: false },
    ...overrides,
  };
}
