import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { SIGN_IN_MODULE } from '../../common/screens';
import { LoadingScreen } from '../components/ui/spinner';
import { useCurrentUser } from '../lib/auth';
import { wasSignedIn } from '../lib/signed-in-hint';
import { SignedInActivity } from '../lib/use-activity-tracking';
import { pageModuleLoader } from './page-modules';
import { preloadPage } from './router';

// Signed-in members never download the sign-in screen, and visitors never download a page first.
const SignInScreen = lazy(pageModuleLoader(SIGN_IN_MODULE));

// A member coming back (signed in last time) fetches the page asked for at once, beside the
// sign-in check (index.html preloads /api/user with the document), rather than one round trip after it.
if (wasSignedIn()) void preloadPage(window.location.pathname);

/**
 * 'Loading...' while the sign-in state is unknown, the sign-in screen instead of
 * any route when signed out, the routes (and the activity tracker) when signed in. The URL stays
 * as it was, so a deep link opens its page right after signing in.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const pageReady = useFirstPageChunk(!isLoading && user !== null);
  if (isLoading) return <LoadingScreen />;
  if (user === null) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <SignInScreen />
      </Suspense>
    );
  }
  // The same 'Loading...' until the first page's chunk is here, so the page renders in one go
  // rather than suspending (see pageChunk in router.tsx).
  if (!pageReady) return <LoadingScreen />;
  return (
    <>
      <SignedInActivity memberName={user.name} />
      {children}
    </>
  );
}

/** Whether the chunk of the page first shown to a signed-in member has arrived (or failed: the page reports it). */
function useFirstPageChunk(signedIn: boolean): boolean {
  const [location] = useLocation();
  const [firstPath] = useState(location);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!signedIn || ready) return undefined;
    let live = true;
    void preloadPage(firstPath).then(() => {
      // In a transition: React renders the page in short slices while 'Loading...' stays, rather
      // than in one long task a phone could not answer input during.
      if (!live) return;
      startTransition(() => {
        setReady(true);
      });
    });
    return () => {
      live = false;
    };
  }, [signedIn, ready, firstPath]);
  return ready;
}
