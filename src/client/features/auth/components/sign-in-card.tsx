import { ArrowLeft } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

interface SignInCardProps {
  title: string;
  description: ReactNode;
  /** 'Back' to the standard login; absent on the standard login itself. */
  onBack?: () => void;
  backDisabled?: boolean;
  onSubmit: () => void;
  /** The form's fields and its submit button. */
  children: ReactNode;
  /** Links under the form (Forgot PIN, Use Different Account). */
  footer?: ReactNode;
}

/** One sign-in variant: its heading names the form, the fields, and the actions under it. */
export function SignInCard({ title, description, onBack, backDisabled, onSubmit, children, footer }: SignInCardProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-8">
      {onBack !== undefined && (
        <Button variant="ghost" size="sm" className="-ml-3 mb-2 text-slate-700" onClick={onBack} disabled={backDisabled}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back
        </Button>
      )}
      <h1 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900">
        {title}
      </h1>
      <div className="mt-1.5 text-sm text-slate-600">{description}</div>
      <form
        aria-labelledby={headingId}
        noValidate
        className="mt-6 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {footer !== undefined && <div className="mt-5 flex flex-wrap items-center justify-between gap-2 text-sm">{footer}</div>}
    </section>
  );
}

/** The submit button: full width, with the pending label while the call runs. */
export function SubmitButton({ label, pendingLabel, pending, disabled }: { label: string; pendingLabel: string; pending: boolean; disabled: boolean }) {
  return (
    <Button type="submit" className="h-11 w-full text-base" disabled={disabled || pending}>
      {pending && <span className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" aria-hidden="true" />}
      {pending ? pendingLabel : label}
    </Button>
  );
}

/** A text-style action under the form. */
export function LinkButton({ children, onClick, disabled }: { children: ReactNode; onClick: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="inline-flex min-h-6 items-center rounded font-medium text-brand-700 underline-offset-4 hover:text-brand-900 hover:underline disabled:opacity-50"
    >
      {children}
    </button>
  );
}
