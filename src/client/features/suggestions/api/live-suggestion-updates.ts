import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../../../lib/live-events';
import { SUGGESTION_QUERIES_ROOT } from './endpoints';
import { narrativeSummaryQueryOptions } from './get-narrative-summary';
import { suggestionsQueryOptions } from './get-suggestions';

/**
 * Teammates' generations and votes, live: both change the list and the narrative over it; a new
 * active prompt changes only the narrative. After the stream broke, events may have been missed,
 * so every suggestion query is refetched.
 */
export function useLiveSuggestionUpdates(): void {
  const queryClient = useQueryClient();
  useLiveEvents({
    onChange: (event) => {
      switch (event.type) {
        case 'suggestions.generated':
        case 'suggestion.vote.changed':
          void queryClient.invalidateQueries({ queryKey: suggestionsQueryOptions().queryKey });
          void queryClient.invalidateQueries({ queryKey: narrativeSummaryQueryOptions().queryKey });
          break;
        case 'ai-prompt.changed':
          void queryClient.invalidateQueries({ queryKey: narrativeSummaryQueryOptions().queryKey });
          break;
        default:
          break;
      }
    },
    onOpen: ({ afterDrop }) => {
      if (afterDrop) void queryClient.invalidateQueries({ queryKey: SUGGESTION_QUERIES_ROOT });
    },
  });
}
