import { useQueries } from '@tanstack/react-query';
import { FileText, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import type { Suggestion } from '../../../../common/contract/ai';
import type { Comment } from '../../../../common/contract/comments';
import { InlineError } from '../../../components/ui/inline-error';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';
import { commentsQueryOptions } from '../../../lib/queries/comments';
import { useEscapeCloses } from '../../../lib/use-escape-closes';
import { useNow } from '../../../lib/use-now';
import { useSuggestionLookup } from '../suggestion-lookup';
import { plural } from '../../../lib/plural';
import { cutText } from '../text';
import { SkeletonBars } from './skeleton-bars';
import { ScrollArea } from '../../../components/ui/scroll-area';

const triggerClasses =
  'inline-flex min-h-6 items-center gap-1 rounded text-sm font-medium text-brand-700 underline decoration-brand-700/40 underline-offset-2 hover:decoration-brand-700';

/**
 * The sources line under a theme, action or conflict of the narrative: its sources are suggestions,
 * and theirs are comments.
 */
export function NarrativeSources({ kind, text, suggestionIds }: { kind: 'theme' | 'action' | 'conflict'; text: string; suggestionIds: readonly number[] }) {
  const label = cutText(text, 60);
  return (
    <div className="mt-1.5">
      {suggestionIds.length === 0 ? (
        <span className="text-sm text-slate-600">No sources cited</span>
      ) : (
        <SourcesDialog
          trigger={
            <>
              <FileText className="h-3.5 w-3.5" aria-hidden="true" />
              View {plural(suggestionIds.length, 'source')}
              <span className="sr-only">
                {' '}
                of the {kind} “{label.cut ? `${label.shown}…` : label.shown}”
              </span>
            </>
          }
          title={`Sources of this ${kind}`}
          description={text}
        >
          <CitedSuggestions suggestionIds={suggestionIds} />
        </SourcesDialog>
      )}
    </div>
  );
}

/** A suggestion's sources: the team comments it follows from. */
export function SuggestionSourcesButton({ suggestion }: { suggestion: Suggestion }) {
  return (
    <SourcesDialog
      trigger={
        <>
          <FileText className="h-3.5 w-3.5" aria-hidden="true" />
          {plural(suggestion.sources.length, 'source comment')}
        </>
      }
      title="Comments behind this suggestion"
      description={suggestion.suggestion}
    >
      <CitedComments suggestion={suggestion} heading="h3" />
    </SourcesDialog>
  );
}

/**
 * A modal Radix dialog: focus moves in and stays, Escape closes it and focus goes back to the
 * button. Its body (and the comment requests) exist only while it is open.
 */
function SourcesDialog({ trigger, title, description, children }: { trigger: ReactNode; title: string; description: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);

  useEscapeCloses(open, setOpen);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className={triggerClasses}>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[85vh] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-slate-200 bg-white shadow-2xl outline-none">
          <header className="flex items-start gap-3 border-b border-slate-200 px-5 py-4">
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-lg leading-snug font-semibold text-slate-900">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-700">{description}</Dialog.Description>
            </div>
            <Dialog.Close className="-mr-2 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label="Close sources">
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </header>
          <ScrollArea className="min-h-0 flex-1" viewportClassName="px-5 py-4">
            {children}
          </ScrollArea>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The suggestions a narrative item cites, each with the comments behind it. */
function CitedSuggestions({ suggestionIds }: { suggestionIds: readonly number[] }) {
  const { suggestionById, titleOf } = useSuggestionLookup();
  const cited = suggestionIds.flatMap((id) => suggestionById.get(id) ?? []);
  const gone = suggestionIds.length - cited.length;
  return (
    <div className="space-y-4">
      {cited.length > 0 && (
        <h3 className="text-sm font-semibold text-slate-900">
          {cited.length === 1 ? 'The suggestion it comes from' : `The ${cited.length} suggestions it comes from`}
        </h3>
      )}
      <ol className="space-y-4">
        {cited.map((suggestion) => (
          <li key={suggestion.id} data-cited-suggestion={suggestion.id} className="rounded-xl border border-slate-200 bg-slate-50 p-4">
            <p className="text-sm font-medium break-words whitespace-pre-wrap text-slate-900">{suggestion.suggestion}</p>
            <p className="mt-1 text-xs text-slate-600">On {suggestion.components.map(titleOf).join(', ')}</p>
            <div className="mt-3">
              <CitedComments suggestion={suggestion} heading="h4" />
            </div>
          </li>
        ))}
      </ol>
      {gone > 0 && (
        <p className="text-sm text-slate-600">
          {gone === 1 ? '1 cited suggestion is' : `${gone} cited suggestions are`} no longer active (archived by a newer generation).
        </p>
      )}
    </div>
  );
}

/**
 * The comments a suggestion cites, read from its components' comment lists (the review's own
 * queries). Headed one level under where it sits: straight under the dialog's title, or under a
 * cited suggestion's heading.
 */
function CitedComments({ suggestion, heading: Heading }: { suggestion: Suggestion; heading: 'h3' | 'h4' }) {
  const { titleOf } = useSuggestionLookup();
  const now = useNow();
  const lists = useQueries({ queries: suggestion.components.map((componentId) => commentsQueryOptions(componentId)) });
  const failed = lists.find((list) => list.isError);
  const loading = lists.some((list) => list.isPending && !list.isError);
  const wanted = new Set(suggestion.sources);
  const cited: Comment[] = lists
    .flatMap((list) => list.data ?? [])
    .filter((comment) => wanted.has(comment.id))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  const gone = suggestion.sources.length - cited.length;

  if (failed !== undefined) {
    return (
      <InlineError
        title="Could not load the comments"
        error={failed.error}
        onRetry={() => {
          for (const list of lists) if (list.isError) void list.refetch();
        }}
        className="rounded-lg"
      />
    );
  }
  if (loading) {
    return (
      <div role="status" className="space-y-2">
        <span className="sr-only">Loading the comments…</span>
        <SkeletonBars bars={['h-4 w-40', 'h-4 w-full', 'h-4 w-2/3']} />
      </div>
    );
  }
  return (
    <div>
      {cited.length > 0 && <Heading className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{plural(cited.length, 'team comment')}</Heading>}
      <ul className="space-y-2">
        {cited.map((comment) => (
          <li key={comment.id}>
            <article aria-label={`Comment by ${comment.memberName}`} className="rounded-lg border border-slate-200 bg-white p-3">
              <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-xs text-slate-600">
                <span className="text-sm font-semibold text-slate-900">{comment.memberName}</span>
                <span>on {titleOf(comment.componentId)}</span>
                <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt)}>
                  {formatRelativeTime(comment.createdAt, now)}
                </time>
                {comment.kind === 'proposal' && <span className="rounded-full border border-amber-400 bg-amber-100 px-2 py-px font-semibold text-amber-900">Change proposal</span>}
              </p>
              <p className="mt-1.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">{comment.content}</p>
            </article>
          </li>
        ))}
      </ul>
      {gone > 0 && (
        <p className="mt-2 text-sm text-slate-600">{gone === 1 ? '1 cited comment has' : `${gone} cited comments have`} since been deleted.</p>
      )}
    </div>
  );
}
