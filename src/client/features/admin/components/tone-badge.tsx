import clsx from 'clsx';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';

/** Badge colours of the panel; each text colour reads at 4.5:1 or more on its background. A badge never wraps (a squeezed table column would break 'PIN set' in two). */
const TONES = {
  green: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  red: 'border-red-200 bg-red-50 text-red-800',
  amber: 'border-amber-200 bg-amber-50 text-amber-900',
  yellow: 'border-yellow-300 bg-yellow-50 text-yellow-900',
  orange: 'border-orange-200 bg-orange-50 text-orange-900',
  blue: 'border-sky-200 bg-sky-50 text-sky-800',
  violet: 'border-violet-200 bg-violet-50 text-violet-800',
  brand: 'border-brand-100 bg-brand-50 text-brand-700',
  gray: 'border-slate-200 bg-slate-100 text-slate-700',
} as const;

export type Tone = keyof typeof TONES;

export function ToneBadge({ tone, children, className, title }: { tone: Tone; children: ReactNode; className?: string; title?: string }) {
  return (
    <Badge className={clsx('whitespace-nowrap', TONES[tone], className)} title={title}>
      {children}
    </Badge>
  );
}
