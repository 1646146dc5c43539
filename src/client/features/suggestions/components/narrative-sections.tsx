import clsx from 'clsx';
import { ChevronDown } from 'lucide-react';
import { Collapsible } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import type { NarrativeSummary } from '../../../../common/contract/ai';
import { PriorityBadge } from './badges';
import { NarrativeSources } from './sources-dialog';

/** The themes, actions and conflicts, each a collapsible section, closed at first. */
export function NarrativeSections({ narrative }: { narrative: NarrativeSummary }) {
  return (
    <div className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      <Section title="Key themes" count={narrative.keyThemes.length} empty="No themes stand out yet.">
        {narrative.keyThemes.map((theme, index) => (
          <RankedItem key={`${index}-${theme.theme}`} kind="theme" title={theme.theme} priority={theme.priority} description={theme.description} sources={theme.sources} netVotes={theme.netVotes} />
        ))}
      </Section>
      <Section title="Action items" count={narrative.actionItems.length} empty="No actions are proposed yet.">
        {narrative.actionItems.map((item, index) => (
          <RankedItem key={`${index}-${item.action}`} kind="action" title={item.action} priority={item.priority} description={item.reasoning} sources={item.sources} />
        ))}
      </Section>
      <Section title="Conflicts" count={narrative.conflicts.length} empty="No conflicts: where the team voted, it pulled the same way.">
        {narrative.conflicts.map((conflict, index) => (
          <ConflictItem key={`${index}-${conflict.topic}`} conflict={conflict} />
        ))}
      </Section>
    </div>
  );
}

export function NetVotes({ value }: { value: number }) {
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return (
    <span className="text-xs font-medium text-slate-600 tabular-nums" title="Thumbs up minus thumbs down on its suggestions">
      {sign}
      {Math.abs(value)} net {Math.abs(value) === 1 ? 'vote' : 'votes'}
    </span>
  );
}

/** A theme or an action: its title and priority (a theme also its net votes), why, and its sources. */
function RankedItem(props: { kind: 'theme' | 'action'; title: string; priority: NarrativeSummary['actionItems'][number]['priority']; description: string; sources: number[]; netVotes?: number }) {
  // An action's text may run to several lines: its badge stays top right beside it.
  const long = props.kind === 'action';
  return (
    <Item description={props.description} sources={<NarrativeSources kind={props.kind} text={props.title} suggestionIds={props.sources} />}>
      <div className={clsx('flex flex-wrap gap-2', long ? 'items-start' : 'items-center')}>
        <h4 className={clsx('font-semibold break-words text-slate-900', long && 'min-w-0 flex-1 whitespace-pre-wrap')}>{props.title}</h4>
        <PriorityBadge priority={props.priority} />
        {props.netVotes === undefined ? null : <NetVotes value={props.netVotes} />}
      </div>
    </Item>
  );
}

function ConflictItem({ conflict }: { conflict: NarrativeSummary['conflicts'][number] }) {
  const resolution =
    conflict.suggestedResolution === '' ? null : (
      <p className="mt-2 rounded-md bg-emerald-50 px-3 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap text-emerald-900">
        <span className="font-semibold">Suggested resolution: </span>
        {conflict.suggestedResolution}
      </p>
    );
  return (
    <Item description={conflict.description} after={resolution} sources={<NarrativeSources kind="conflict" text={conflict.topic} suggestionIds={conflict.sources} />}>
      <h4 className="font-semibold break-words text-slate-900">{conflict.topic}</h4>
    </Item>
  );
}

/** A theme, action or conflict: its heading line (the children), its explanation when it has one, anything more, then its sources. */
function Item({ description, after, sources, children }: { description: string; after?: ReactNode; sources: ReactNode; children: ReactNode }) {
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      {children}
      {description !== '' && <p className="mt-1 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-700">{description}</p>}
      {after}
      {sources}
    </li>
  );
}

function Section({ title, count, empty, children }: { title: string; count: number; empty: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen}>
      <h3>
        <Collapsible.Trigger className="flex w-full items-center justify-between gap-3 px-4 py-3 text-left text-sm font-semibold text-slate-900 hover:bg-slate-50">
          <span>
            {title} <span className="font-normal text-slate-600">({count})</span>
          </span>
          <ChevronDown className={open ? 'h-4 w-4 rotate-180 text-slate-600 transition-transform' : 'h-4 w-4 text-slate-600 transition-transform'} aria-hidden="true" />
        </Collapsible.Trigger>
      </h3>
      <Collapsible.Content className="px-4 pb-4">
        {count === 0 ? <p className="text-sm text-slate-600">{empty}</p> : <ul className="divide-y divide-slate-100">{children}</ul>}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
