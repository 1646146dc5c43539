import clsx from 'clsx';
import { BadgeCheck, Clock, PencilRuler, Wrench } from 'lucide-react';
import { DECISION_LABELS, type DecisionOutcome } from '../../../common/api/decisions';

const STYLE: Readonly<Record<DecisionOutcome, { chip: string; Icon: typeof BadgeCheck }>> = {
  accepted: { chip: 'border-emerald-300 bg-emerald-50 text-emerald-900', Icon: BadgeCheck },
  accepted_with_changes: { chip: 'border-sky-300 bg-sky-50 text-sky-900', Icon: PencilRuler },
  needs_rework: { chip: 'border-rose-300 bg-rose-50 text-rose-900', Icon: Wrench },
  deferred: { chip: 'border-slate-300 bg-slate-100 text-slate-800', Icon: Clock },
};

/** A component's current decision, in words, with its icon. */
export function DecisionChip({ outcome, className }: { outcome: DecisionOutcome; className?: string }) {
  const { chip, Icon } = STYLE[outcome];
  return (
    <span data-decision={outcome} className={clsx('inline-flex w-fit items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold', chip, className)}>
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      <span className="sr-only">Decision: </span>
      {DECISION_LABELS[outcome]}
    </span>
  );
}

/** The same on a diagram box, where only an icon fits: its words are its title and for screen readers. */
export function DecisionIcon({ outcome, className }: { outcome: DecisionOutcome; className?: string }) {
  const { chip, Icon } = STYLE[outcome];
  const label = `Decision: ${DECISION_LABELS[outcome]}`;
  return (
    <span data-decision={outcome} title={label} className={clsx('inline-flex shrink-0 items-center rounded-full border p-px', chip, className)}>
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
