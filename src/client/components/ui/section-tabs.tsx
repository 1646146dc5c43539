import type { LucideIcon } from 'lucide-react';
import { Tabs } from 'radix-ui';
import clsx from 'clsx';
import { useSearchParams } from 'wouter';

export interface SectionTab<Id extends string> {
  id: Id;
  label: string;
}

/** The tab a `?tab=` value names; anything else (missing, misspelt, stale link) opens the first one. */
export function parseSectionTab<Id extends string>(tabs: readonly [SectionTab<Id>, ...SectionTab<Id>[]], value: string | null): Id {
  return tabs.find((tab) => tab.id === value)?.id ?? tabs[0].id;
}

/**
 * The selected tab of a page, kept in the URL's query so that a tab can be linked and survives a
 * reload. Switching replaces the history entry: Back leaves the page instead of stepping through
 * every tab that was looked at.
 */
export function useSectionTab<Id extends string>(tabs: readonly [SectionTab<Id>, ...SectionTab<Id>[]]): [Id, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const select = (value: string) => {
    const tab = parseSectionTab(tabs, value);
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
  };
  return [parseSectionTab(tabs, params.get('tab')), select];
}

const triggerClasses =
  'inline-flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-700 transition-colors hover:bg-white/70 hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm data-[state=active]:ring-1 data-[state=active]:ring-slate-300';

/** The row of a page's tabs (Radix: arrow keys move between them); `iconsFromSm` hides the icons on a phone. */
export function SectionTabList<Id extends string>({
  label,
  tabs,
  icons,
  iconsFromSm = false,
}: {
  label: string;
  tabs: readonly SectionTab<Id>[];
  icons: Readonly<Record<Id, LucideIcon>>;
  iconsFromSm?: boolean;
}) {
  return (
    <Tabs.List aria-label={label} className="flex gap-1 overflow-x-auto rounded-lg border border-slate-200 bg-slate-100 p-1">
      {tabs.map(({ id, label: tabLabel }) => {
        const Icon: LucideIcon = icons[id];
        return (
          <Tabs.Trigger key={id} value={id} className={triggerClasses}>
            <Icon className={clsx('h-4 w-4', iconsFromSm && 'hidden sm:block')} aria-hidden="true" />
            {tabLabel}
          </Tabs.Trigger>
        );
      })}
    </Tabs.List>
  );
}
