import clsx from 'clsx';
import { BadgeCheck, CircleDashed, Clock, PencilRuler, Wrench } from 'lucide-react';
import { DECISION_LABELS, type DecisionOutcome } from '../../../../common/api/decisions';

// The review page's DecisionChip (features/review/components/decision-chip.tsx) in the same tones
// and icons: a feature may not import another feature (eslint boundaries), and moving it to
// components/ui is a change to the review feature. The words come from the one shared source.
const STYLE: Readonly<Record<DecisionOutcome, { chip: string; Icon: typeof BadgeCheck }>> = {
  accepted: { chip: 'border-emerald-300 bg-emerald-50 text-emerald-900', Icon: BadgeCheck },
  accepted_with_changes: { chip: 'border-sky-300 bg-sky-50 text-sky-900', Icon: PencilRuler },
  needs_rework: { chip: 'border-rose-300 bg-rose-50 text-rose-900', Icon: Wrench },
  deferred: { chip: 'border-slate-300 bg-slate-100 text-slate-800', Icon: Clock },
};

const CHIP = 'inline-flex w-fit items-center gap-1 rounded-full border px-2 py-0.5 text-xs whitespace-nowrap';

/**
 * A component's current decision in words, with its icon; 'Not decided', muted and without a chip,
 * when there is none, so that the decided ones stand out in a long list. Screen readers hear
 * 'Decision:' first, as on the review page.
 */
export function DecisionChip({ outcome, className }: { outcome: DecisionOutcome | null; className?: string }) {
  if (outcome === null) {
    return (
      <span data-decision="none" className={clsx(CHIP, 'border-transparent font-medium text-slate-600', className)}>
        <CircleDashed className="h-3.5 w-3.5" aria-hidden="true" />
        <span className="sr-only">Decision: </span>
        Not decided
      </span>
    );
  }
  const { chip, Icon } = STYLE[outcome];
  return (
    <span data-decision={outcome} className={clsx(CHIP, 'font-semibold', chip, className)}>
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      <span className="sr-only">Decision: </span>
      {DECISION_LABELS[outcome]}
    </span>
  );
}
