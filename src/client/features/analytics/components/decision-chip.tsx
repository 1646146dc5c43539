import clsx from 'clsx';
import { CircleDashed } from 'lucide-react';
import type { DecisionOutcome } from '../../../../common/api/decisions';
import { DecisionChip as SharedDecisionChip } from '../../../components/ui/decision-chip';

/**
 * A component's current decision: the review page's chip, or 'Not decided', muted and without a
 * chip, so that the decided ones stand out in a long list. Screen readers hear 'Decision:' first
 * either way. Kept on one line: the matrix's row header wraps the title, never the decision.
 */
export function DecisionChip({ outcome, className }: { outcome: DecisionOutcome | null; className?: string }) {
  if (outcome !== null) return <SharedDecisionChip outcome={outcome} className={clsx('whitespace-nowrap', className)} />;
  return (
    <span data-decision="none" className={clsx('inline-flex w-fit items-center gap-1 border border-transparent px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-600', className)}>
      <CircleDashed className="h-3.5 w-3.5" aria-hidden="true" />
      <span className="sr-only">Decision: </span>
      Not decided
    </span>
  );
}
