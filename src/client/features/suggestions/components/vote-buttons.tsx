import type { Suggestion } from '../../../../common/contract/ai';
import { VoteButtons } from '../../../components/ui/vote-buttons';
import { useVoteSuggestion } from '../api/vote-suggestion';

/** A suggestion's votes, by the same rules as a comment's. */
export function SuggestionVotes({ suggestion, memberName }: { suggestion: Suggestion; memberName: string | undefined }) {
  const vote = useVoteSuggestion(suggestion.id);
  return (
    <div role="group" aria-label="Votes" className="flex items-center gap-1.5">
      <VoteButtons votes={suggestion.votes} memberName={memberName} vote={vote} />
    </div>
  );
}
