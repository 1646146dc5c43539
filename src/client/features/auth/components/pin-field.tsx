import { Eye, EyeOff } from 'lucide-react';
import { useState, type Ref } from 'react';
import { inputClasses } from '../../../components/ui/input';
import { keepPinDigits } from '../../../../common/pin-rules';
import { FormField, hintIdOf } from './form-field';
import { tip } from '../../../components/ui/tooltip';

interface PinFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (pin: string) => void;
  hint: string;
  /** Shown instead of the hint, as an error (a PIN the server would refuse). */
  error?: string | undefined;
  autoFocus?: boolean;
  disabled?: boolean;
  /** A show/hide switch, for choosing a new PIN: a typo there would lock the member out. */
  revealable?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * Digits only, at most four. A password field (masked, never echoed by screen
 * readers) with the numeric keypad on phones; browser autofill stays off so the team password
 * a password manager saved is never offered here.
 */
export function PinField({ id, label, value, onChange, hint, error, autoFocus, disabled, revealable = false, inputRef }: PinFieldProps) {
  const [revealed, setRevealed] = useState(false);
  return (
    <FormField id={id} label={label} hint={error ?? hint} hintTone={error === undefined ? 'muted' : 'error'} hintLive={revealable}>
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          name={id}
          type={revealed ? 'text' : 'password'}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
          disabled={disabled}
          aria-describedby={hintIdOf(id)}
          aria-invalid={error !== undefined}
          value={value}
          onChange={(event) => {
            onChange(keepPinDigits(event.target.value));
          }}
          className={inputClasses(revealable ? 'pr-12 tracking-[0.3em]' : 'tracking-[0.3em]')}
        />
        {revealable && (
          <button
            type="button"
            {...tip(revealed ? 'Hide PIN' : 'Show PIN')}
            aria-controls={id}
            aria-pressed={revealed}
            aria-label="Show PIN"
            onClick={() => {
              setRevealed((shown) => !shown);
            }}
            className="absolute inset-y-1 right-1 inline-flex w-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
          >
            {revealed ? <EyeOff className="h-5 w-5" aria-hidden="true" /> : <Eye className="h-5 w-5" aria-hidden="true" />}
          </button>
        )}
      </div>
    </FormField>
  );
}
