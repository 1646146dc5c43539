import clsx from 'clsx';
import { useId } from 'react';

interface SelectFieldProps<Value extends string> {
  label: string;
  value: Value | '';
  /** Each option's value and words; the value chosen is handed back only when it is one of them. */
  options: ReadonlyArray<{ value: Value | ''; label: string }>;
  onChange: (value: Value | '') => void;
  /** 'form': a full-width field in a dialog; 'compact': a filter above a list. */
  size?: 'form' | 'compact';
}

/** A labelled native select: the keyboard, screen readers and phones all know it. */
export function SelectField<Value extends string>({ label, value, options, onChange, size = 'form' }: SelectFieldProps<Value>) {
  const id = useId();
  const compact = size === 'compact';
  return (
    <div>
      <label htmlFor={id} className={compact ? 'text-xs font-semibold tracking-wide text-slate-600 uppercase' : 'text-sm font-medium text-slate-900'}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen !== undefined) onChange(chosen.value);
        }}
        className={clsx('mt-1 block rounded-lg border border-slate-500 bg-white px-3', compact ? 'h-10 text-sm' : 'h-11 w-full text-base')}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
