import { lazy, Suspense, useState, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { SCREEN_PAGE_MODULES } from '../../common/screens';
import { LoadingScreen } from '../components/ui/spinner';
import { NotFoundPage } from './not-found-page';
import { pageModuleLoader } from './page-modules';

interface PageChunk {
  /** Starts loading the page's chunk (once); resolves when it has arrived. */
  preload: () => Promise<unknown>;
  Page: ComponentType;
}

/**
 * A page in its own chunk that can be fetched before it renders. Once the chunk has arrived the
 * page renders at once; only a page not loaded yet suspends. That matters beyond the wait itself:
 * React holds back revealing a Suspense boundary's content until 300 ms after its fallback showed,
 * so a page that suspends for 20 ms still appears 300 ms later.
 */
function pageChunk(load: () => Promise<{ default: ComponentType }>): PageChunk {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed fetch is tried again by the next preload or render.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  function Page() {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount the page.
    const [Loaded] = useState(() => loaded);
    return Loaded === undefined ? <Lazy /> : <Loaded />;
  }
  return { preload, Page };
}

// Every screen is its own chunk: the first paint loads only the shell and the page asked for.
const PAGES: Readonly<Record<string, PageChunk>> = Object.fromEntries(
  Object.entries(SCREEN_PAGE_MODULES).map(([path, file]) => [path, pageChunk(pageModuleLoader(file))]),
);

/**
 * Fetches the chunk of the page at `path` (nothing for an unknown path); resolves when it has
 * arrived or failed (the page's own render reports a failure).
 */
export function preloadPage(path: string): Promise<void> {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const page = Object.entries(PAGES).find(([route]) => route === trimmed)?.[1];
  return page === undefined
    ? Promise.resolve()
    : page.preload().then(
        () => undefined,
        () => undefined,
      );
}

export function AppRouter() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Switch>
        {Object.entries(PAGES).map(([route, { Page }]) => (
          <Route key={route} path={route} component={Page} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
