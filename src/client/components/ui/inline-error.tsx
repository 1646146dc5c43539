import clsx from 'clsx';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { describeError } from '../../lib/api-client';
import { Button } from './button';

interface InlineErrorProps {
  /** What could not be done, e.g. 'Could not load the comments'. */
  title: string;
  error: unknown;
  onRetry: () => void;
  /** While the retry runs the button spins and stays focusable (aria-disabled, not disabled). */
  retrying?: boolean;
  /** The roomier padding of a card body; panels and dialogs use the compact one. */
  roomy?: boolean;
  /** Placement and corners, which follow the surroundings. */
  className: string;
}

/** A part of a page could not load: said in place, with the server's reason and a retry. */
export function InlineError({ title, error, onRetry, retrying, roomy = false, className }: InlineErrorProps) {
  return (
    <div role="alert" className={clsx('border border-red-200 bg-red-50 text-sm text-red-800', roomy ? 'p-4' : 'p-3', className)}>
      <p className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" /> {title}
      </p>
      <p className="mt-1">{describeError(error, 'Check your connection and try again.')}</p>
      <Button variant="outline" size="sm" className={roomy ? 'mt-3' : 'mt-2'} onClick={onRetry} aria-disabled={retrying}>
        <RefreshCw className={clsx('h-4 w-4', retrying === true && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" /> Try again
      </Button>
    </div>
  );
}
