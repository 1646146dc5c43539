import { AlertTriangle, RefreshCw } from 'lucide-react';
import { describeError } from '../../lib/api-client';
import { Button } from './button';

/** The query whose data a page could not load (a TanStack Query result fits). */
interface FailedQuery {
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

/** A page's data could not be loaded: what failed, the server's message, and a retry. */
export function LoadError({ title, query, className }: { title: string; query: FailedQuery; className?: string }) {
  const retrying = query.isFetching;
  return (
    <div role="alert" className={`rounded-xl border border-red-200 bg-white p-6 shadow-sm ${className ?? ''}`}>
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-red-600" aria-hidden="true" />
        <div>
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <p className="mt-1 text-sm text-slate-600">{describeError(query.error, 'The server did not answer.')}</p>
          <Button
            variant="outline"
            size="sm"
            className="mt-4"
            disabled={retrying}
            onClick={() => {
              void query.refetch();
            }}
          >
            <RefreshCw className={retrying ? 'h-4 w-4 animate-spin motion-reduce:animate-none' : 'h-4 w-4'} aria-hidden="true" />
            {retrying ? 'Retrying...' : 'Try again'}
          </Button>
        </div>
      </div>
    </div>
  );
}
