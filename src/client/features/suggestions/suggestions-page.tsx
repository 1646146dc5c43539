import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Inbox, Loader2, MessageSquarePlus, Sparkles } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { Suggestion } from '../../../common/contract/ai';
import type { CommentCounts } from '../../../common/contract/comments';
import { ROUTES } from '../../../common/routes';
import { PageHeader } from '../../components/layout/page-header';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadError } from '../../components/ui/load-error';
import { useLiveQueryUpdates } from '../../lib/live-events';
import { formatDateTime, formatRelativeTime } from '../../lib/relative-time';
import { useArchitecture } from '../../lib/queries/architecture';
import { commentCountsQueryOptions } from '../../lib/queries/comment-counts';
import { useNow } from '../../lib/use-now';
import { useGenerateSuggestions } from './api/generate-suggestions';
import { useNarrativeSummary } from './api/get-narrative-summary';
import { useSuggestions } from '../../lib/queries/suggestions';
import { AiSummaryCard } from './components/ai-summary-card';
import { SkeletonBars } from './components/skeleton-bars';
import { MyActions } from './components/my-actions';
import { StatusFilter, visibleSuggestions, type StatusChoice, type SuggestionOrder } from './components/status-filter';
import { SuggestionsTable } from './components/suggestions-table';
import { SuggestionLookupProvider } from './suggestion-lookup';
import { plural } from '../../lib/plural';

function totalOf(counts: CommentCounts | undefined): number | undefined {
  return counts === undefined ? undefined : Object.values(counts.components).reduce((sum, count) => sum + count.open + count.resolved, 0);
}

/**
 * The suggestions page: the AI Summary card over the team's
 * suggestions, the suggestions table with votes, and the action that generates them from the
 * comments. Teammates' generations, votes and comments arrive live.
 */
export default function SuggestionsPage() {
  // Teammates' generations and votes; comments coming and going change what there is to analyse
  // (the counts), and the lists the source dialogs show.
  useLiveQueryUpdates();
  const suggestions = useSuggestions();
  const counts = useQuery({ ...commentCountsQueryOptions(), refetchOnMount: 'always' });
  const architecture = useArchitecture();
  const generate = useGenerateSuggestions();
  // Rendered from a deferred copy: React then renders the page's body (the table, the actions,
  // the summary card) in a transition, in short slices, not in the one long task the answer's
  // arrival would start on a phone.
  const list = useDeferredValue(suggestions.data ?? null, null) ?? undefined;
  const hasSuggestions = list !== undefined && list.length > 0;
  // Asked for beside the list rather than after it, unless the list is known to be empty: the
  // card then fills in with the table instead of pushing it down a moment later.
  const narrative = useNarrativeSummary(list === undefined || list.length > 0);
  const commentTotal = totalOf(counts.data);
  const tableHeadingId = useId();
  const [statusChoice, setStatusChoice] = useState<StatusChoice>('all');
  const [order, setOrder] = useState<SuggestionOrder>('generated');
  const shown = useMemo(() => visibleSuggestions(list ?? [], statusChoice, order), [list, statusChoice, order]);

  const loading = (list === undefined && !suggestions.isError) || (counts.isPending && !hasSuggestions);
  const noData = !hasSuggestions && commentTotal === 0;

  return (
    <div className="min-h-screen">
      <PageHeader title="Feedback and Recommendations" subtitle="AI-Driven Operations Management" />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        <Link href={ROUTES.home} className={buttonClasses('outline', 'sm')}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Main
        </Link>
        <p className="mt-4 max-w-3xl text-slate-700">
          What the team&rsquo;s comments add up to: recommendations generated from every comment, and an AI reading of where the team agrees, what to do
          first and where it pulls apart. Every theme, action and suggestion links to the comments it came from.
        </p>

        {loading && <PageSkeleton />}

        {!loading && suggestions.isError && (
          <LoadError className="mt-6" title="Feedback and recommendations could not be loaded" query={suggestions} />
        )}

        {!loading && list !== undefined && noData && <NoDataState />}

        {!loading && list !== undefined && !noData && (
          <SuggestionLookupProvider suggestions={list} architecture={architecture.data}>
            {/* One place for the action in both states, so the button keeps focus when the first generation fills the page. */}
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <AnalysisStatus suggestions={list} commentTotal={commentTotal} />
              <GenerateControl
                commentTotal={commentTotal}
                running={generate.isPending}
                label="Generate suggestions"
                onGenerate={() => {
                  if (!generate.isPending) generate.mutate();
                }}
              />
            </div>
            {!hasSuggestions && <EmptyState />}
            {hasSuggestions && (
              <>
                <MyActions suggestions={list} />
                <div className="mt-4">
                  <AiSummaryCard narrative={narrative} />
                </div>
                <section aria-labelledby={tableHeadingId} className="mt-10">
                  <h2 id={tableHeadingId} className="text-xl font-semibold text-slate-900">
                    Suggestions <span className="font-normal text-slate-600">({list.length})</span>
                  </h2>
                  <p className="mt-1 mb-4 text-sm text-slate-600">Vote on what the team should act on. Your own vote is highlighted; select it again to take it back.</p>
                  <div className="mb-4">
                    <StatusFilter suggestions={list} status={statusChoice} order={order} onStatus={setStatusChoice} onOrder={setOrder} />
                  </div>
                  {shown.length === 0 ? (
                    <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">No suggestion has this status.</p>
                  ) : (
                    <SuggestionsTable suggestions={shown} captionId={tableHeadingId} />
                  )}
                </section>
              </>
            )}
          </SuggestionLookupProvider>
        )}
      </main>
    </div>
  );
}

/**
 * The generate action. While it runs the button keeps focus (aria-disabled rather than disabled)
 * and names the real number of comments being read; the status line announces it.
 */
function GenerateControl({ commentTotal, running, onGenerate, label }: { commentTotal: number | undefined; running: boolean; onGenerate: () => void; label: string }) {
  const progress = commentTotal === undefined ? 'Analysing team comments…' : `Analysing ${plural(commentTotal, 'team comment')}…`;
  return (
    <div className="shrink-0">
      <Button aria-disabled={running} onClick={onGenerate} className="aria-disabled:cursor-wait aria-disabled:opacity-80">
        {running ? <Loader2 className="h-4 w-4 animate-spin motion-reduce:animate-none" aria-hidden="true" /> : <Sparkles className="h-4 w-4" aria-hidden="true" />}
        {running ? progress : label}
      </Button>
      {/* The button shows the progress; this live region says it to screen readers. */}
      <p role="status" className="sr-only">
        {running ? progress : ''}
      </p>
    </div>
  );
}

/** What the suggestions stand on: when they were last generated, and how many comments there are to read. */
function AnalysisStatus({ suggestions, commentTotal }: { suggestions: readonly Suggestion[]; commentTotal: number | undefined }) {
  const now = useNow();
  const latest = suggestions.reduce((last, suggestion) => (suggestion.updatedAt > last ? suggestion.updatedAt : last), '');
  const ready = commentTotal === undefined ? null : `${plural(commentTotal, 'team comment')} to analyse`;
  return (
    <p className="text-sm text-slate-600">
      {latest === '' ? (
        ready
      ) : (
        <>
          Last generated{' '}
          <time dateTime={latest} title={formatDateTime(latest)}>
            {formatRelativeTime(latest, now)}
          </time>
          {ready !== null && <> &middot; {ready}</>}
        </>
      )}
    </p>
  );
}

function EmptyState() {
  return (
    <Card className="mt-4 flex flex-col items-center px-6 py-12 text-center">
      <Inbox className="h-10 w-10 text-brand-600" aria-hidden="true" />
      <h2 className="mt-4 text-xl font-semibold text-slate-900">No feedback and recommendations have been generated yet</h2>
      <p className="mt-2 max-w-xl text-slate-600">
        Generate suggestions to turn the team&rsquo;s comments into recommendations everyone can vote on, with an AI summary of where the team
        agrees and where it does not.
      </p>
    </Card>
  );
}

function NoDataState() {
  return (
    <Card className="mt-6 flex flex-col items-center px-6 py-12 text-center">
      <MessageSquarePlus className="h-10 w-10 text-slate-400" aria-hidden="true" />
      <h2 className="mt-4 text-xl font-semibold text-slate-900">No feedback and recommendations available for analysis</h2>
      <p className="mt-2 max-w-xl text-slate-600">
        Nobody has commented on the architecture yet. Comments and change proposals on the main page are what suggestions are generated from.
      </p>
      <Link href={ROUTES.home} className={buttonClasses('primary', 'md', 'mt-6')}>
        Comment on the architecture
      </Link>
    </Card>
  );
}

function PageSkeleton() {
  return (
    <div className="mt-6 space-y-6" role="status">
      <span className="sr-only">Loading feedback and recommendations…</span>
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <SkeletonBars bars={['h-6 w-40', 'mt-4 h-4 w-full', 'mt-2 h-4 w-4/5']} />
        <div className="mt-5 grid gap-4 md:grid-cols-2">
          <SkeletonBars bars={['h-24 w-full', 'h-24 w-full']} />
        </div>
      </div>
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="flex items-center gap-4 py-3">
            <SkeletonBars bars={['h-4 flex-1', 'h-5 w-16', 'h-5 w-24', 'h-8 w-28']} />
          </div>
        ))}
      </div>
    </div>
  );
}
