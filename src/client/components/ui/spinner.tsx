/**
 * The whole-screen wait before any page shows: a main landmark with a heading, like every page, so
 * a screen reader landing here hears where it is.
 */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 text-slate-600">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
      <div role="status" aria-live="polite">
        <h1 className="text-sm font-medium">{label}</h1>
      </div>
    </main>
  );
}
