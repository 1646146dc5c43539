import type { AssignSuggestionInput, GenerateSuggestionsResponse, NarrativeSummary, SetSuggestionStatusInput, Suggestion, SuggestionVoteResult } from '../contract/ai.js';
import type { VoteRequest } from '../contract/comments.js';
import { defineRoute } from './route.js';

/** Where a suggestion stands: open until an admin accepts or declines it; an accepted one is an action until done. */
export const SUGGESTION_STATUSES = ['open', 'accepted', 'in_progress', 'done', 'declined'] as const;
export type SuggestionReviewStatus = (typeof SUGGESTION_STATUSES)[number];

export const SUGGESTION_STATUS_LABELS: Readonly<Record<SuggestionReviewStatus, string>> = {
  open: 'Open',
  accepted: 'Accepted',
  in_progress: 'In progress',
  done: 'Done',
  declined: 'Declined',
};

/** The statuses in which a suggestion is an action that has, or can get, an owner. */
export const ACTION_STATUSES: readonly SuggestionReviewStatus[] = ['accepted', 'in_progress', 'done'];

/** The suggestion calls: generate from all comments, list with votes, vote, the team narrative, statuses and owners. */
export const suggestionRoutes = {
  generate: defineRoute<{ response: GenerateSuggestionsResponse }>()('POST', '/api/suggestions/generate'),
  withVotes: defineRoute<{ response: Suggestion[] }>()('GET', '/api/suggestions/with-votes'),
  vote: defineRoute<{ body: VoteRequest; response: SuggestionVoteResult }>()('POST', '/api/suggestions/:id/vote'),
  narrativeSummary: defineRoute<{ response: NarrativeSummary }>()('GET', '/api/suggestions/narrative-summary'),
  /** Admin: a new status (a reason when declined), with the admin password. */
  setStatus: defineRoute<{ body: SetSuggestionStatusInput; response: Suggestion }>()('POST', '/api/suggestions/:id/status'),
  /** Admin: the owner (a member) and due date of an accepted suggestion, with the admin password. */
  assign: defineRoute<{ body: AssignSuggestionInput; response: Suggestion }>()('POST', '/api/suggestions/:id/owner'),
  /** Its owner or an admin marks the action done. */
  complete: defineRoute<{ response: Suggestion }>()('POST', '/api/suggestions/:id/done'),
} as const;
