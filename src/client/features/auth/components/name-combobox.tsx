import clsx from 'clsx';
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { nameKey, rankNameSuggestions } from '../../../../common/names';
import { inputClasses } from '../../../components/ui/input';
import { FormField, hintIdOf } from './form-field';
import type { SharedFields } from './shared-fields';

interface NameComboboxProps {
  id: string;
  label: string;
  /** The name it edits, the team's names, and the team password typed so far (the proof the names call needs). */
  fields: SharedFields;
  autoFocus?: boolean;
  disabled?: boolean;
  /** The hint while no password is known; the Reset PIN form, which asks none, says something else. */
  noPasswordHint?: string;
}

/**
 * The name field with the ranked autocomplete of the team's names, as an ARIA 1.2 combobox: the
 * input keeps focus, arrows move the highlighted option (aria-activedescendant), Tab or Enter
 * completes the highlighted option or else the first, Escape closes the list, a click picks.
 */
export function NameCombobox({
  id,
  label,
  fields,
  autoFocus,
  disabled,
  noPasswordHint = 'Enter the team password first to get name suggestions.',
}: NameComboboxProps) {
  const { name: value, setName: onChange, teamNames, password } = fields;
  const listboxId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const suggestions = useMemo(() => rankNameSuggestions(value, teamNames.names), [value, teamNames.names]);
  // Once the field holds a full name exactly, offering that same name again is noise.
  const onlyEcho = suggestions.length === 1 && suggestions[0] !== undefined && nameKey(suggestions[0]) === nameKey(value);
  const expanded = open && suggestions.length > 0 && !onlyEcho;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const complete = (name: string) => {
    onChange(name);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
        if (count === 0) return;
        event.preventDefault();
        setOpen(true);
        setActive((current) => (!expanded || current >= count - 1 ? 0 : current + 1));
        return;
      case 'ArrowUp':
        if (count === 0) return;
        event.preventDefault();
        setOpen(true);
        setActive((current) => (!expanded || current <= 0 ? count - 1 : current - 1));
        return;
      case 'Enter':
      case 'Tab': {
        if (!expanded || (event.key === 'Tab' && event.shiftKey)) return;
        const choice = suggestions[active >= 0 ? active : 0];
        if (choice === undefined) return;
        // Enter completes instead of submitting; Tab completes and still moves on to the next field.
        if (event.key === 'Enter') event.preventDefault();
        complete(choice);
        return;
      }
      case 'Escape':
        if (!expanded) return;
        event.preventDefault();
        setOpen(false);
        setActive(-1);
        return;
      default:
        return;
    }
  };

  let hint: ReactNode;
  let hintTone: 'muted' | 'error' = 'muted';
  switch (teamNames.status) {
    case 'no-password':
      hint = noPasswordHint;
      break;
    case 'wrong-password':
      hint = 'Name suggestions appear after a correct team password.';
      break;
    case 'failed':
      hint = 'Failed to fetch team member names';
      hintTone = 'error';
      break;
    case 'loading':
      hint = 'Loading team member names…';
      break;
    case 'ready':
      hint = expanded
        ? `${suggestions.length} ${suggestions.length === 1 ? 'suggestion' : 'suggestions'}: arrow keys to choose, Tab or Enter to complete.`
        : 'Type part of your name to see suggestions.';
      break;
  }

  return (
    <FormField id={id} label={label} hint={hint} hintTone={hintTone} hintLive>
      <div className="relative">
        <input
          id={id}
          name={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={hintIdOf(id)}
          autoComplete="off"
          autoCapitalize="words"
          spellCheck={false}
          autoFocus={autoFocus}
          disabled={disabled}
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            teamNames.request(password);
          }}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          className={inputClasses()}
        />
        <ul
          id={listboxId}
          role="listbox"
          aria-label={`${label} suggestions`}
          hidden={!expanded}
          // Keeps focus in the input while an option is clicked.
          onMouseDown={(event) => {
            event.preventDefault();
          }}
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-slate-300 bg-white py-1 shadow-lg"
        >
          {expanded &&
            suggestions.map((name, index) => (
              <li
                key={name}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                onClick={() => {
                  complete(name);
                }}
                onMouseMove={() => {
                  if (index !== active) setActive(index);
                }}
                className={clsx(
                  'cursor-pointer px-3 py-2 text-base text-slate-900',
                  index === active ? 'bg-brand-600 text-white' : 'hover:bg-slate-100',
                )}
              >
                <HighlightedMatch name={name} query={value} />
              </li>
            ))}
        </ul>
      </div>
    </FormField>
  );
}

/**
 * The typed part in bold where the ranking found it: at the start of the name or of a word when
 * it matched there (so 'ale' marks 'Alexis' in 'Valerie Alexis'), else its first occurrence.
 */
function HighlightedMatch({ name, query }: { name: string; query: string }) {
  const needle = query.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
  const haystack = name.toLocaleLowerCase('en');
  let at = -1;
  if (needle !== '') {
    const wordStart = haystack.indexOf(` ${needle}`);
    at = haystack.startsWith(needle) ? 0 : wordStart >= 0 ? wordStart + 1 : haystack.indexOf(needle);
  }
  if (at < 0) return <>{name}</>;
  return (
    <>
      {name.slice(0, at)}
      <strong className="font-semibold">{name.slice(at, at + needle.length)}</strong>
      {name.slice(at + needle.length)}
    </>
  );
}
