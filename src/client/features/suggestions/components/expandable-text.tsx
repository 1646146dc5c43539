import { useId, useState } from 'react';
import { cutText } from '../text';

interface ExpandableTextProps {
  text: string;
  /** Characters shown before 'Show more'. */
  max: number;
  /** Finishes the button's accessible name, e.g. 'of the overall consensus'. */
  context: string;
  className?: string;
}

/**
 * AI text cut at `max` characters with a button to read all of it. Rendered as a
 * React text node: whatever the text holds, it is never markup.
 */
export function ExpandableText({ text, max, context, className }: ExpandableTextProps) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const { shown, cut } = cutText(text, max);
  return (
    <div className={className}>
      <p id={id} className="break-words whitespace-pre-wrap">
        {expanded || !cut ? text : `${shown}…`}
      </p>
      {cut && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => {
            setExpanded((value) => !value);
          }}
          className="mt-1 inline-flex min-h-6 items-center rounded text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          {expanded ? 'Show less' : 'Show more'}
          <span className="sr-only"> {context}</span>
        </button>
      )}
    </div>
  );
}
