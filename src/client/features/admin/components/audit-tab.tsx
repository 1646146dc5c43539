import { ChevronLeft, ChevronRight, ScrollText } from 'lucide-react';
import { useId, useState } from 'react';
import { AUDIT_EVENTS, AUDIT_PAGE_SIZE, type AuditEventName } from '../../../../common/api/admin';
import type { AuditEntry } from '../../../../common/contract/admin';
import { Button } from '../../../components/ui/button';
import { Input, inputClasses } from '../../../components/ui/input';
import { LoadError } from '../../../components/ui/load-error';
import { useNow } from '../../../lib/use-now';
import { useAuditPage, type AuditFilter } from '../api/audit';
import { auditEventLabel } from '../labels';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { TimeAgo } from '../../../components/ui/time-text';
import { ToneBadge, type Tone } from './tone-badge';

const OUTCOME_TONES: Record<AuditEntry['outcome'], Tone> = { success: 'green', failure: 'red', locked: 'amber', info: 'blue' };

function parseEvent(value: string): AuditEventName | undefined {
  return AUDIT_EVENTS.find((event) => event === value);
}

export function AuditTab() {
  const memberId = useId();
  const eventId = useId();
  const qaId = useId();
  const [memberDraft, setMemberDraft] = useState('');
  // A self-test run writes dozens of rows; they would bury the members' and admins' own.
  const [filter, setFilter] = useState<AuditFilter>({ qa: 'hide', page: 1 });
  const audit = useAuditPage(filter);
  const now = useNow();
  const page = audit.data;
  const pageSize = page?.pageSize ?? AUDIT_PAGE_SIZE;
  const pages = page === undefined ? 1 : Math.max(1, Math.ceil(page.total / pageSize));

  return (
    <Panel title="Audit Trail" icon={<ScrollText className="h-5 w-5 text-brand-600" aria-hidden="true" />} description="Sign-ins, lockouts and admin actions, newest first. What the QA self-test's own requests wrote is left out unless you show it.">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const member = memberDraft.trim();
          setFilter({ ...filter, member: member === '' ? undefined : member, page: 1 });
        }}
      >
        <div className="w-full sm:w-64">
          <label htmlFor={memberId} className="block text-sm font-medium text-slate-900">
            Member
          </label>
          <Input
            id={memberId}
            value={memberDraft}
            placeholder="Full name"
            className="mt-1"
            onChange={(event) => {
              setMemberDraft(event.target.value);
            }}
          />
        </div>
        <div className="w-full sm:w-56">
          <label htmlFor={eventId} className="block text-sm font-medium text-slate-900">
            Event type
          </label>
          <select
            id={eventId}
            value={filter.event ?? ''}
            className={inputClasses('mt-1')}
            onChange={(event) => {
              setFilter({ ...filter, event: parseEvent(event.target.value), page: 1 });
            }}
          >
            <option value="">All events</option>
            {AUDIT_EVENTS.map((name) => (
              <option key={name} value={name}>
                {auditEventLabel(name)}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="outline" className="h-11">
          Apply
        </Button>
        <div className="flex h-11 items-center gap-2">
          <input
            id={qaId}
            type="checkbox"
            checked={filter.qa === 'show'}
            className="h-6 w-6 accent-brand-600"
            onChange={(event) => {
              setFilter({ ...filter, qa: event.target.checked ? 'show' : 'hide', page: 1 });
            }}
          />
          <label htmlFor={qaId} className="text-sm font-medium text-slate-900">
            Show QA self-test entries
          </label>
        </div>
      </form>

      <div className="mt-5" aria-busy={audit.isFetching}>
        {audit.isPending && <ListSkeleton label="Loading the audit trail…" rows={5} />}
        {audit.isError && <LoadError title="The audit trail could not be loaded" query={audit} />}
        {page?.entries.length === 0 && !audit.isError && <EmptyState>No audit entries match.</EmptyState>}
        {page !== undefined && page.entries.length > 0 && !audit.isError && (
          <ScrollRegion label="Audit trail table, scrolls sideways" className="-mx-5 overflow-x-auto focus-visible:-outline-offset-2 sm:-mx-6">
            <table className="w-full min-w-[48rem] text-left text-sm">
              <caption className="sr-only">Audit trail, page {filter.page}</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                <tr>
                  {['Time', 'Event', 'Outcome', 'Member', 'IP', 'Detail'].map((heading) => (
                    <th key={heading} scope="col" className="px-3 py-2 first:pl-5 sm:first:pl-6">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {page.entries.map((entry) => (
                  <tr key={entry.id} className="align-top">
                    <td className="px-3 py-2 pl-5 whitespace-nowrap text-slate-700 sm:pl-6">
                      <TimeAgo iso={entry.createdAt} now={now} />
                    </td>
                    <td className="px-3 py-2 font-medium text-slate-900">{auditEventLabel(entry.event)}</td>
                    <td className="px-3 py-2">
                      <ToneBadge tone={OUTCOME_TONES[entry.outcome]}>{entry.outcome}</ToneBadge>
                    </td>
                    <td className="px-3 py-2 text-slate-800">{entry.actorName ?? '—'}</td>
                    <td className="px-3 py-2 font-mono text-xs text-slate-700">{entry.ip ?? '—'}</td>
                    <td className="px-3 py-2 break-words text-slate-700">{entry.detail ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </div>

      <nav aria-label="Audit trail pages" className="mt-4 flex items-center justify-between gap-3">
        <Button
          variant="outline"
          size="sm"
          disabled={filter.page <= 1}
          onClick={() => {
            setFilter({ ...filter, page: filter.page - 1 });
          }}
        >
          <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
        </Button>
        <p className="text-sm text-slate-700" aria-live="polite">
          Page {filter.page} of {pages}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={filter.page >= pages}
          onClick={() => {
            setFilter({ ...filter, page: filter.page + 1 });
          }}
        >
          Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </Button>
      </nav>
    </Panel>
  );
}
