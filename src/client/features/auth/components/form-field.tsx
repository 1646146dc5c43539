import clsx from 'clsx';
import type { ReactNode } from 'react';

export type HintTone = 'muted' | 'error';

/** The id of a field's hint, for `aria-describedby`. */
export const hintIdOf = (fieldId: string) => `${fieldId}-hint`;

/** A label above its control and an optional hint below it, tied together by ids. */
export function FormField({
  id,
  label,
  hint,
  hintTone = 'muted',
  hintLive = false,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  hintTone?: HintTone;
  /** Announce hint changes (the names-fetch status changes while the member types). */
  hintLive?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {(hint !== undefined || hintLive) && (
        <p
          id={hintIdOf(id)}
          aria-live={hintLive ? 'polite' : undefined}
          className={clsx('min-h-5 text-sm', hintTone === 'error' ? 'font-medium text-red-700' : 'text-slate-600')}
        >
          {hint}
        </p>
      )}
    </div>
  );
}
