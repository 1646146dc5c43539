import clsx from 'clsx';
import { forwardRef, type InputHTMLAttributes } from 'react';

/**
 * The edge is slate-500, 4.7:1 on white (WCAG 1.4.11 asks 3:1 for a field's boundary); 16 px text
 * keeps phones from zooming into the field; the focus ring is the global :focus-visible outline.
 */
export function inputClasses(className?: string) {
  return clsx(
    'block h-11 w-full rounded-lg border border-slate-500 bg-white px-3 text-base text-slate-900 shadow-xs transition-colors',
    'hover:border-slate-600 focus:border-brand-600 aria-[invalid=true]:border-red-600',
    'disabled:cursor-not-allowed disabled:bg-slate-100 read-only:bg-slate-50',
    className,
  );
}

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, type = 'text', ...props }, ref) {
  return <input ref={ref} type={type} className={inputClasses(className)} {...props} />;
});
