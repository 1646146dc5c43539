import { AlertTriangle, RefreshCw } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../components/ui/button';
import { reportClientError } from '../lib/error-reporting';

interface State {
  error: Error | null;
}

interface Props {
  children: ReactNode;
  /**
   * Runs before 'Try Again' renders the children again: a render that failed on the data it was
   * given would fail again on the same data, so the caller drops what it had cached.
   */
  onReset: () => void;
}

/** The app's fallback: catches render failures, logs them, and offers Try Again or Reload. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    const withComponents = new Error(error.message);
    withComponents.stack = `${error.stack ?? ''}\nComponent stack:${info.componentStack ?? ''}`;
    reportClientError('component_error', withComponents, 'high');
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
        <div role="alert" className="w-full max-w-lg rounded-xl border border-red-200 bg-white p-8 text-center shadow-sm">
          <AlertTriangle className="mx-auto h-12 w-12 text-red-500" aria-hidden="true" />
          <h1 className="mt-4 text-2xl font-bold text-slate-900">Something went wrong</h1>
          <p className="mt-2 text-slate-600">An unexpected error occurred. This has been logged for investigation.</p>
          <pre className="mt-4 max-h-40 overflow-auto rounded-md bg-slate-100 p-3 text-left text-sm whitespace-pre-wrap text-red-700">
            {error.message}
          </pre>
          <div className="mt-6 flex justify-center gap-3">
            <Button
              onClick={() => {
                this.props.onReset();
                this.setState({ error: null });
              }}
            >
              Try Again
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                window.location.reload();
              }}
            >
              <RefreshCw className="h-4 w-4" aria-hidden="true" />
              Reload Page
            </Button>
          </div>
        </div>
      </main>
    );
  }
}
