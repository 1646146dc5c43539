import clsx from 'clsx';
import { AlertOctagon, CheckCircle2, ScrollText } from 'lucide-react';
import { ALL_ERRORS_SHOWN, UNRESOLVED_ERRORS_SHOWN } from '../../../../common/api/error-reports';
import type { ErrorLogEntry } from '../../../../common/contract/error-reports';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { useNow } from '../../../lib/use-now';
import { useErrorLogs, useResolveError, useUnresolvedErrors } from '../api/error-logs';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { TimeAgo } from '../../../components/ui/time-text';
import { ToneBadge, type Tone } from './tone-badge';
import { ScrollArea } from '../../../components/ui/scroll-area';
import { errorTypeLabel } from '../labels';

/** Severity colours; the severity is also written out, so colour is never the only signal. */
const SEVERITY_DOTS: Readonly<Record<string, string>> = { critical: 'bg-red-600', high: 'bg-orange-500', medium: 'bg-yellow-400', low: 'bg-blue-500' };
const SEVERITY_TONES: Readonly<Record<string, Tone>> = { critical: 'red', high: 'orange', medium: 'yellow', low: 'blue' };

function SeverityDot({ severity }: { severity: string }) {
  return <span aria-hidden="true" className={clsx('mt-1.5 inline-block h-2.5 w-2.5 shrink-0 rounded-full', SEVERITY_DOTS[severity] ?? 'bg-slate-400')} />;
}

/** The stack on demand: stored text, shown as text. */
function Stack({ stack }: { stack: string | null }) {
  if (stack === null || stack === '') return null;
  return (
    <details className="mt-2 text-xs">
      <summary className="cursor-pointer rounded py-1 font-medium text-brand-700">Stack trace</summary>
      {/* Whole and wrapped, never a box of its own to scroll: opened on demand, it reads with the page. */}
      <pre className="mt-1 rounded bg-slate-900 p-3 break-all whitespace-pre-wrap text-slate-100">{stack}</pre>
    </details>
  );
}

/** The page the report came from: its path on this site, the address as sent otherwise. */
function pageOf(url: string | null): string | null {
  if (url === null || url.trim() === '') return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.origin === window.location.origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : url;
  } catch {
    return url;
  }
}

/** Where the error happened and how often: identical reports are one entry with a count. */
function PageAndCount({ entry }: { entry: ErrorLogEntry }) {
  const page = pageOf(entry.url);
  return (
    <p className="mt-1 text-xs text-slate-700">
      {page === null ? 'Page not reported' : <>Page <span className="font-mono break-all">{page}</span></>} &middot;{' '}
      <span className="font-medium">{entry.occurrences === 1 ? 'Reported once' : `Reported ${entry.occurrences} times`}</span>
    </p>
  );
}

export function ErrorLogsTab() {
  return (
    <div className="space-y-6">
      <UnresolvedErrors />
      <AllErrors />
    </div>
  );
}

function UnresolvedErrors() {
  const errors = useUnresolvedErrors();
  const now = useNow();
  const shown = errors.data?.slice(0, UNRESOLVED_ERRORS_SHOWN);
  return (
    <Panel
      title="Unresolved Errors"
      icon={<AlertOctagon className="h-5 w-5 text-red-600" aria-hidden="true" />}
      description={`The ${UNRESOLVED_ERRORS_SHOWN} most recently seen errors nobody has resolved yet, as members' browsers reported them.`}
    >
      {errors.isPending && <ListSkeleton label="Loading unresolved errors…" />}
      {errors.isError && shown === undefined && <LoadError title="Unresolved errors could not be loaded" query={errors} />}
      {shown?.length === 0 && (
        <p className="flex items-center justify-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-6 text-sm font-medium text-emerald-800">
          ✓ No unresolved errors. System running smoothly!
        </p>
      )}
      {shown !== undefined && shown.length > 0 && (
        <ul className="space-y-3" aria-label="Unresolved errors">
          {shown.map((entry) => (
            <UnresolvedError key={entry.id} entry={entry} now={now} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function UnresolvedError({ entry, now }: { entry: ErrorLogEntry; now: number }) {
  const resolve = useResolveError(entry.id);
  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 gap-2">
          <SeverityDot severity={entry.severity} />
          <div className="min-w-0">
            <p className="text-sm font-semibold text-slate-900">
              {errorTypeLabel(entry.errorType)} <span className="font-normal text-slate-600">({entry.severity})</span>
            </p>
            <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800">{entry.message}</p>
            <PageAndCount entry={entry} />
            <p className="mt-1 text-xs text-slate-600">
              {entry.source} &middot; {entry.memberName ?? 'Unknown'} &middot; <TimeAgo iso={entry.lastSeenAt} now={now} />
            </p>
            <Stack stack={entry.stack} />
          </div>
        </div>
        <Button
          variant="outline"
          size="sm"
          aria-disabled={resolve.isPending}
          onClick={() => {
            if (!resolve.isPending) resolve.mutate();
          }}
        >
          <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
          Mark Resolved
        </Button>
      </div>
    </li>
  );
}

function AllErrors() {
  const errors = useErrorLogs();
  const now = useNow();
  const shown = errors.data?.slice(0, ALL_ERRORS_SHOWN);
  return (
    <Panel
      title="All Error Logs"
      icon={<ScrollText className="h-5 w-5 text-brand-600" aria-hidden="true" />}
      description={`The ${ALL_ERRORS_SHOWN} most recently seen, resolved or not.`}
    >
      {errors.isPending && <ListSkeleton label="Loading error logs…" />}
      {errors.isError && shown === undefined && <LoadError title="Error logs could not be loaded" query={errors} />}
      {shown?.length === 0 && <EmptyState>No error logs found. System is clean!</EmptyState>}
      {shown !== undefined && shown.length > 0 && (
        // A focusable region, so the box scrolls from the keyboard too; named apart from its card, so the two landmarks differ.
        <ScrollArea label="Error log entries" className="rounded-lg border border-slate-200" viewportClassName="max-h-[28rem]">
          <ul className="divide-y divide-slate-200">
            {shown.map((entry) => (
              <li key={entry.id} className="px-4 py-3">
                <p className="flex flex-wrap items-center gap-2">
                  <ToneBadge tone={entry.resolved ? 'green' : 'amber'}>{entry.resolved ? 'Resolved' : 'Open'}</ToneBadge>
                  <ToneBadge tone={SEVERITY_TONES[entry.severity] ?? 'gray'}>{entry.severity}</ToneBadge>
                </p>
                <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800">{entry.message}</p>
                <PageAndCount entry={entry} />
                <p className="mt-1 text-xs text-slate-600">
                  {errorTypeLabel(entry.errorType)} &middot; <TimeAgo iso={entry.lastSeenAt} now={now} />
                </p>
                <Stack stack={entry.stack} />
              </li>
            ))}
          </ul>
        </ScrollArea>
      )}
    </Panel>
  );
}
