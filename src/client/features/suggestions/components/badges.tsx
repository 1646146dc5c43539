import clsx from 'clsx';
import type { Priority } from '../../../../common/contract/ai';
import type { RecommendationType, Significance } from '../../../../common/significance';
import { Badge } from '../../../components/ui/badge';

const PRIORITY_CLASSES: Record<Priority, string> = {
  high: 'border-red-200 bg-red-50 text-red-800',
  medium: 'border-amber-200 bg-amber-50 text-amber-900',
  low: 'border-slate-200 bg-slate-50 text-slate-700',
};

export function PriorityBadge({ priority }: { priority: Priority }) {
  return <Badge className={PRIORITY_CLASSES[priority]}>{priority === 'high' ? 'High' : priority === 'medium' ? 'Medium' : 'Low'} priority</Badge>;
}

const SIGNIFICANCE_CLASSES: Record<Significance, string> = {
  major: 'border-red-200 bg-red-50 text-red-800',
  moderate: 'border-amber-200 bg-amber-50 text-amber-900',
  minor: 'border-slate-200 bg-slate-50 text-slate-700',
};

const SIGNIFICANCE_HINTS: Record<Significance, string> = {
  major: 'Removes, replaces, renames, reorders or redesigns part of the architecture',
  moderate: 'Changes, improves, clarifies or defines part of the architecture',
  minor: 'A smaller addition or remark',
};

/** Major, moderate or minor, from the suggestion's keywords (the server's rules, shared). */
export function SignificanceBadge({ significance }: { significance: Significance }) {
  return (
    <Badge className={clsx('capitalize', SIGNIFICANCE_CLASSES[significance])} title={SIGNIFICANCE_HINTS[significance]}>
      {significance}
    </Badge>
  );
}

export function RecommendationTypeBadge({ type }: { type: RecommendationType }) {
  return (
    <Badge className={type === 'structural' ? 'border-violet-200 bg-violet-50 text-violet-800' : 'border-sky-200 bg-sky-50 text-sky-800'}>
      {type === 'structural' ? 'Structural' : 'Content'}
    </Badge>
  );
}
