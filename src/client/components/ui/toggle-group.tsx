import clsx from 'clsx';
import type { ReactNode } from 'react';

export interface ToggleOption<Value extends string> {
  value: Value;
  label: string;
  icon?: ReactNode;
}

interface ToggleGroupProps<Value extends string> {
  /** Names the group for assistive technology, e.g. 'Diagram display'. */
  label: string;
  options: readonly ToggleOption<Value>[];
  value: Value;
  onChange: (value: Value) => void;
  className?: string;
}

/**
 * A segmented choice of one option: a group of toggle buttons, each announcing whether it is
 * pressed (aria-pressed). Plain buttons keep Tab and Enter/Space working everywhere; pressing the
 * current option again changes nothing.
 */
export function ToggleGroup<Value extends string>({ label, options, value, onChange, className }: ToggleGroupProps<Value>) {
  return (
    <div role="group" aria-label={label} className={clsx('inline-flex rounded-lg border border-slate-300 bg-slate-100 p-1', className)}>
      {options.map((option) => {
        const pressed = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => {
              if (!pressed) onChange(option.value);
            }}
            className={clsx(
              'inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors',
              pressed ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-300' : 'text-slate-700 hover:bg-white/70 hover:text-slate-900',
            )}
          >
            {option.icon}
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
