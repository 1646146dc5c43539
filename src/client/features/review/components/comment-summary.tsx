import type { Decision } from '../../../../common/contract/decisions';
import { plural } from '../../../lib/plural';
import { outcomeChangedSince, SummaryOutcome } from './summary-outcome';
import { useDecisions } from '../../../lib/queries/decisions';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { AlertTriangle, ChevronRight, Info, RefreshCw, Sparkles, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useId, useState } from 'react';
import { describeSample } from '../../../../common/analysis-sample';
import type { CommentSummary, SetAside } from '../../../../common/contract/ai';
import type { Comment } from '../../../../common/contract/comments';
import { Button } from '../../../components/ui/button';
import { InlineError } from '../../../components/ui/inline-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { describeError } from '../../../lib/api-client';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { useCommentSummary } from '../api/get-comment-summary';
import { commentsQueryOptions } from '../../../lib/queries/comments';
import { useNow } from '../../../lib/use-now';

/** Below this the summary says to read it as a first impression. */
const LOW_CONFIDENCE = 0.5;


/** A summary made from fewer comments says little the comments below do not: it starts closed. */
const OPEN_FROM_COMMENTS = 3;

/**
 * Open or closed as the member last chose in this tab, for every component's summary: module state,
 * so it outlives the panel; undefined until the first choice.
 */
let memberChoice: boolean | undefined;

/** Forgets the member's choice, as a fresh tab would (tests start each case from it). */
export function resetSummaryChoice() {
  memberChoice = undefined;
}

/**
 * The AI summary of the component's comments, shown only when there are comments (only then is
 * it requested). Every claim can be checked: a theme or a change
 * opens the comments it was made from. New comments do not refetch it (a model call may be
 * expensive); the section says how many arrived since and offers a refresh. All AI text is
 * rendered as text.
 *
 * It sits between the form and the list and closes to one line (title and confidence), so it never
 * pushes the form down and costs the list little: closed on phones, and closed for a summary of one
 * or two comments; open on wider screens otherwise, until the member chooses.
 */
export function CommentSummarySection({ componentId, componentTitle }: { componentId: string; componentTitle: string }) {
  // The panel's own comment list (same query, no request of its own): what the summary is compared with.
  const comments = useQuery(commentsQueryOptions(componentId));
  const list = comments.data;
  const hasComments = list !== undefined && list.length > 0;
  const summary = useCommentSummary(componentId, componentTitle, hasComments);
  // The panel's decision section reads them too: this shares its answer.
  const decisions = useDecisions(componentId, { refetchOnMount: false });
  const [choice, setChoice] = useState(memberChoice);
  const [wide] = useState(() => window.matchMedia('(min-width: 640px)').matches);
  const ids = useId();
  const headingId = `${ids}-heading`;
  const bodyId = `${ids}-body`;

  if (!hasComments) return null;
  const data = summary.data;
  const opensFor = (commentCount: number) => choice ?? (wide && commentCount >= OPEN_FROM_COMMENTS);
  // Follows the summary, not the live list: a teammate's comment never opens or closes it.
  const expanded = opensFor(data?.commentIds.length ?? 0);
  // A summary that will open closed loads within its one line: the comments below must not jump
  // under the member's pointer (onto another button) when it arrives.
  const loadsClosed = !opensFor(list.length);
  const refresh = () => {
    if (summary.isFetching) return;
    void summary.refetch();
  };

  return (
    <section aria-labelledby={headingId} aria-busy={summary.isFetching} className="rounded-xl border border-brand-100 bg-brand-50/60 p-3">
      <div className="flex items-center gap-2">
        <h3 id={headingId} className="min-w-0 flex-1 text-sm font-semibold text-slate-900">
          <button
            type="button"
            aria-expanded={expanded}
            // The details exist once the summary is here.
            aria-controls={data === undefined ? undefined : bodyId}
            onClick={() => {
              memberChoice = !expanded;
              setChoice(!expanded);
            }}
            className="-m-1 flex items-center gap-1.5 rounded-md p-1 text-left hover:text-brand-700"
          >
            <ChevronRight className={clsx('h-4 w-4 shrink-0 text-slate-500 transition-transform motion-reduce:transition-none', expanded && 'rotate-90')} aria-hidden="true" />
            <Sparkles className="h-4 w-4 shrink-0 text-brand-600" aria-hidden="true" />
            AI summary
          </button>
        </h3>
        {data !== undefined && summary.isFetching && (
          <RefreshCw className="h-3.5 w-3.5 shrink-0 animate-spin text-slate-500 motion-reduce:animate-none" aria-hidden="true" />
        )}
        {data !== undefined && <ConfidenceBadge confidence={data.confidence} />}
        {data === undefined && summary.isPending && loadsClosed && (
          <span role="status" className="shrink-0">
            <span className="sr-only">Loading the AI summary…</span>
            {/* The confidence badge's size, so the line keeps its height. */}
            <Skeleton className="h-[1.375rem] w-28 rounded-full" />
          </span>
        )}
      </div>

      {data === undefined && summary.isPending && !loadsClosed && (
        <div role="status" className="mt-3 space-y-2">
          <span className="sr-only">Loading the AI summary…</span>
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      )}

      {data === undefined && summary.isError && (
        <InlineError title="Could not load the AI summary" error={summary.error} onRetry={refresh} retrying={summary.isFetching} className="mt-3 rounded-lg" />
      )}

      {data !== undefined && (
        <SummaryContent
          summary={data}
          comments={list}
          decision={decisions.data === undefined ? undefined : (decisions.data[0] ?? null)}
          expanded={expanded}
          bodyId={bodyId}
          refreshing={summary.isFetching}
          refreshError={summary.isError ? describeError(summary.error, 'Check your connection and try again.') : undefined}
          onRefresh={refresh}
        />
      )}
    </section>
  );
}

interface SummaryContentProps {
  summary: CommentSummary;
  comments: readonly Comment[];
  /** The component's current decision: null for none, undefined while not known. */
  decision: Decision | null | undefined;
  expanded: boolean;
  bodyId: string;
  refreshing: boolean;
  refreshError: string | undefined;
  onRefresh: () => void;
}

function SummaryContent({ summary, comments, decision, expanded, bodyId, refreshing, refreshError, onRefresh }: SummaryContentProps) {
  const now = useNow();
  const summarized = new Set(summary.commentIds);
  const newComments = comments.filter((comment) => !summarized.has(comment.id)).length;
  const settledSince = outcomeChangedSince(summary, comments, decision);
  const staleBecause = newComments > 0 ? `${plural(newComments, 'new comment')} since this summary` : settledSince ? 'Points were resolved, reopened or decided since this summary' : undefined;
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  // Settled comments (resolved, or a basis of the decision) are listed but not read.
  const madeFrom = summary.commentIds.length - summary.outcome.settledIds.length;
  const { provider, model, generatedAt } = summary.generatedBy;
  const themesId = useId();

  return (
    <>
      {/* Announced when it changes: a teammate's comment made the summary older than the list. */}
      <div role="status">
        {refreshing ? (
          staleBecause !== undefined && <span className="sr-only">Updating the summary…</span>
        ) : (
          staleBecause !== undefined && (
            <div className="mt-2 rounded-lg border border-amber-300 bg-amber-50 px-2.5 py-2">
              <p className="text-sm font-medium text-amber-900">{staleBecause}</p>
              <Button variant="outline" size="sm" className="mt-1.5" onClick={onRefresh}>
                <RefreshCw className="h-4 w-4" aria-hidden="true" /> Refresh summary
              </Button>
            </div>
          )
        )}
      </div>
      {refreshError !== undefined && !refreshing && (
        <p role="alert" className="mt-2 flex items-start gap-1.5 text-sm text-red-800">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Could not refresh the summary: {refreshError}{' '}
            <button type="button" onClick={onRefresh} className="font-semibold underline underline-offset-2 hover:text-red-900">
              Try again
            </button>
          </span>
        </p>
      )}

      <div id={bodyId} hidden={!expanded}>
        {/* With every comment settled there is nothing to be unsure of: the outcome box says so. */}
        {summary.confidence < LOW_CONFIDENCE && madeFrom > 0 && (
          <p className="mt-2 flex items-start gap-1.5 text-xs text-slate-600">
            <Info className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            {madeFrom <= 2
              ? `Low confidence: made from only ${plural(madeFrom, 'comment')}. Read it as a first impression.`
              : 'Low confidence: the comments share little. Check it against them.'}
          </p>
        )}
        {summary.fallback && summary.notice !== undefined && summary.notice !== '' && (
          <p className="mt-2 flex items-start gap-1.5 rounded-lg border border-amber-300 bg-amber-50 px-2.5 py-2 text-xs text-amber-900">
            <AlertTriangle className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">{summary.notice}</span>
          </p>
        )}
        <SummaryOutcome outcome={summary.outcome} now={now} />
        <p className="mt-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">{summary.understanding}</p>
        {summary.keyThemes.length > 0 && (
          <>
            <h4 id={themesId} className="mt-3 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              Key themes
            </h4>
            <ul aria-labelledby={themesId} className="mt-1.5 space-y-1.5">
              {summary.keyThemes.map((theme, index) => (
                <ThemeItem key={`${index}-${theme}`} theme={theme} sources={summary.sources.keyThemes[index] ?? []} byId={byId} />
              ))}
            </ul>
          </>
        )}
        <ChangeSection title="Content changes" text={summary.contentChanges} sources={summary.sources.contentChanges} byId={byId} />
        <ChangeSection title="Structural changes" text={summary.structuralChanges} sources={summary.sources.structuralChanges} byId={byId} />
        <SetAsideSection setAside={summary.setAside} byId={byId} />
        {/* A very large discussion is read as a sample: the summary says so. */}
        {summary.sample !== undefined && <p className="mt-3 text-xs break-words text-slate-600">{describeSample(summary.sample)}</p>}
        <p className="mt-3 text-xs break-words text-slate-600">
          Made by {provider}/{model} from {plural(madeFrom, 'comment')},{' '}
          <time dateTime={generatedAt} title={formatDateTime(generatedAt)}>
            {formatRelativeTime(generatedAt, now)}
          </time>
          . AI can be wrong: check it against the comments.
        </p>
      </div>
    </>
  );
}

function ConfidenceBadge({ confidence }: { confidence: number }) {
  const percent = Math.round(confidence * 100);
  return (
    <span
      className={clsx(
        'shrink-0 rounded-full border px-2 py-0.5 text-xs font-semibold tabular-nums',
        confidence >= 0.7 ? 'border-emerald-300 bg-emerald-50 text-emerald-800' : confidence >= LOW_CONFIDENCE ? 'border-sky-300 bg-sky-50 text-sky-800' : 'border-amber-300 bg-amber-50 text-amber-900',
      )}
    >
      {percent}% confidence
    </span>
  );
}

/** A button that shows and hides the list of comments a claim cites: its state and the button's attributes. */
function useSourcesToggle() {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const toggle = {
    type: 'button',
    'aria-expanded': open,
    'aria-controls': listId,
    onClick: () => {
      setOpen(!open);
    },
  } as const;
  return { open, listId, toggle };
}

/** A theme and, on request, the comments it came from. */
function ThemeItem({ theme, sources, byId }: { theme: string; sources: readonly number[]; byId: ReadonlyMap<number, Comment> }) {
  const { open, listId, toggle } = useSourcesToggle();
  return (
    <li>
      <button
        {...toggle}
        className={clsx(
          'flex w-full items-start gap-2 rounded-lg border px-2.5 py-1.5 text-left text-sm transition-colors',
          open ? 'border-brand-500 bg-white' : 'border-slate-200 bg-white hover:border-brand-500',
        )}
      >
        <ChevronRight className={clsx('mt-0.5 h-4 w-4 shrink-0 text-slate-500 transition-transform motion-reduce:transition-none', open && 'rotate-90')} aria-hidden="true" />
        <span className="min-w-0 flex-1 font-medium break-words text-slate-900">{theme}</span>
        <span className="mt-0.5 shrink-0 text-xs whitespace-nowrap text-slate-600">{plural(sources.length, 'comment')}</span>
      </button>
      <CitedComments id={listId} hidden={!open} sources={sources} byId={byId} />
    </li>
  );
}

/** A change the comments ask for, when there is one, with the comments it came from. */
function ChangeSection({ title, text, sources, byId }: { title: string; text: string; sources: readonly number[]; byId: ReadonlyMap<number, Comment> }) {
  const { open, listId, toggle } = useSourcesToggle();
  if (text.trim() === '') return null;
  return (
    <>
      <h4 className="mt-3 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h4>
      <p className="mt-1 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">{text}</p>
      {sources.length > 0 && (
        <>
          <button
            {...toggle}
            className="mt-1 inline-flex min-h-6 items-center gap-1 rounded-md text-xs font-medium text-brand-700 hover:underline"
          >
            <ChevronRight className={clsx('h-3.5 w-3.5 transition-transform motion-reduce:transition-none', open && 'rotate-90')} aria-hidden="true" />
            {`From ${plural(sources.length, 'comment')}`}
          </button>
          <CitedComments id={listId} hidden={!open} sources={sources} byId={byId} />
        </>
      )}
    </>
  );
}

/** The comments a claim cites, as the panel knows them now; a cited comment deleted since is said to be gone. */
function CitedComments({ id, hidden, sources, byId }: { id: string; hidden: boolean; sources: readonly number[]; byId: ReadonlyMap<number, Comment> }) {
  const cited = sources.flatMap((source) => {
    const comment = byId.get(source);
    return comment === undefined ? [] : [comment];
  });
  const gone = sources.length - cited.length;
  return (
    <ul id={id} hidden={hidden} aria-label="Cited comments" className="mt-1.5 ml-3 space-y-1.5 border-l-2 border-brand-100 pl-3">
      {cited.map((comment) => {
        const up = comment.votes.filter((vote) => vote.voteType === 'thumbs_up').length;
        const down = comment.votes.length - up;
        return (
          <li key={comment.id} className="rounded-lg border border-slate-200 bg-white p-2">
            <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
              <span className="font-semibold break-words text-slate-900">{comment.memberName}</span>
              {comment.kind === 'proposal' && <span className="font-semibold text-amber-900">Change proposal</span>}
              <span className="ml-auto inline-flex items-center gap-2 tabular-nums">
                <span className="inline-flex items-center gap-0.5">
                  <ThumbsUp className="h-3 w-3" aria-hidden="true" />
                  {up}
                  <span className="sr-only"> up,</span>
                </span>
                <span className="inline-flex items-center gap-0.5">
                  <ThumbsDown className="h-3 w-3" aria-hidden="true" />
                  {down}
                  <span className="sr-only"> down</span>
                </span>
              </span>
            </p>
            <p className="mt-1 line-clamp-4 text-sm break-words whitespace-pre-wrap text-slate-800">{comment.content}</p>
          </li>
        );
      })}
      {gone > 0 && <li className="text-xs text-slate-600 italic">{`${plural(gone, 'cited comment')} ${gone === 1 ? 'has' : 'have'} been deleted since.`}</li>}
    </ul>
  );
}

/** How much of a comment the list of those left out shows: enough to recognise it. */
const START_OF_TEXT = 120;

/** The beginning of a text on one line, cut at a word where it can be. */
function startOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= START_OF_TEXT) return line;
  const cut = line.slice(0, START_OF_TEXT);
  const space = cut.lastIndexOf(' ');
  return `${space > START_OF_TEXT / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The comments the AI did not read (written to it rather than to the team, or about something
 * else), said in one line and listed on request: who wrote each, how it starts, and why it was left
 * out. The panel's own comments give the author and text; one deleted since is said to be gone.
 */
function SetAsideSection({ setAside, byId }: { setAside: readonly SetAside[]; byId: ReadonlyMap<number, Comment> }) {
  const { open, listId, toggle } = useSourcesToggle();
  if (setAside.length === 0) return null;
  return (
    <>
      <button {...toggle} className="mt-3 inline-flex items-center gap-1 rounded-md text-left text-xs text-slate-600 hover:text-brand-700">
        <ChevronRight className={clsx('h-3.5 w-3.5 shrink-0 transition-transform motion-reduce:transition-none', open && 'rotate-90')} aria-hidden="true" />
        <span>{`${plural(setAside.length, 'comment')} left out of this summary`}</span>
        {/* The state is aria-expanded's to say; the word is for the eye. */}
        <span aria-hidden="true">·</span>
        <span aria-hidden="true" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          {open ? 'Hide' : 'Show'}
        </span>
      </button>
      <ul id={listId} hidden={!open} aria-label="Comments left out" className="mt-1.5 ml-3 space-y-1.5 border-l-2 border-slate-200 pl-3">
        {setAside.map(({ id, reason }) => {
          const comment = byId.get(id);
          return (
            <li key={id} className="rounded-lg border border-slate-200 bg-white p-2">
              {comment === undefined ? (
                <p className="text-xs text-slate-600 italic">A comment deleted since.</p>
              ) : (
                <>
                  <p className="text-xs font-semibold break-words text-slate-900">{comment.memberName}</p>
                  <p className="mt-0.5 text-sm break-words text-slate-800">{startOf(comment.content)}</p>
                </>
              )}
              <p className="mt-1 text-xs break-words text-slate-600">{reason}</p>
            </li>
          );
        })}
      </ul>
    </>
  );
}
