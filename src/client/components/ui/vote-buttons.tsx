import clsx from 'clsx';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import type { CommentVote, VoteType } from '../../../common/contract/comments';
import { tip } from './tooltip';

/**
 * Thumbs up and down with their counts, the member's own vote pressed: the same
 * buttons for comments and for suggestions. One vote at a time: a click while the last one is on
 * its way would toggle against a state the server has not answered yet.
 */
export function VoteButtons({
  votes,
  memberName,
  vote,
}: {
  votes: readonly CommentVote[];
  memberName: string | undefined;
  /** The vote call (a mutation taking the vote type): busy while it runs. */
  vote: { isPending: boolean; mutate: (voteType: VoteType) => void };
}) {
  const busy = vote.isPending;
  const up = votes.filter((entry) => entry.voteType === 'thumbs_up').length;
  const down = votes.length - up;
  const myVote = votes.find((entry) => entry.memberName === memberName)?.voteType ?? null;
  const castVote = (voteType: VoteType) => {
    if (!busy) vote.mutate(voteType);
  };
  return (
    <>
      <VoteButton kind="thumbs_up" count={up} pressed={myVote === 'thumbs_up'} busy={busy} onVote={castVote} />
      <VoteButton kind="thumbs_down" count={down} pressed={myVote === 'thumbs_down'} busy={busy} onVote={castVote} />
    </>
  );
}

/**
 * While a vote is on its way the buttons are aria-disabled rather than disabled: a disabled
 * button drops keyboard focus to the page.
 */
function VoteButton({ kind, count, pressed, busy, onVote }: { kind: VoteType; count: number; pressed: boolean; busy: boolean; onVote: (kind: VoteType) => void }) {
  const up = kind === 'thumbs_up';
  const Icon = up ? ThumbsUp : ThumbsDown;
  return (
    <button
      type="button"
      {...tip(pressed ? 'Your vote: select again to remove it' : up ? 'Vote thumbs up' : 'Vote thumbs down')}
      aria-pressed={pressed}
      aria-disabled={busy}
      onClick={() => {
        onVote(kind);
      }}
      className={clsx(
        'inline-flex h-8 items-center gap-1.5 rounded-full border px-2.5 text-sm font-medium tabular-nums transition-colors aria-disabled:cursor-wait',
        pressed
          ? up
            ? 'border-emerald-600 bg-emerald-50 text-emerald-800'
            : 'border-red-600 bg-red-50 text-red-800'
          : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
      )}
    >
      <Icon className="h-4 w-4" aria-hidden="true" fill={pressed ? 'currentColor' : 'none'} fillOpacity={pressed ? 0.2 : 0} />
      {/* The name starts with what the button shows, the count (label in name): '3 thumbs up'. */}
      {count}
      <span className="sr-only">{up ? ' thumbs up' : ' thumbs down'}</span>
    </button>
  );
}
