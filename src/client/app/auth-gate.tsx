import { lazy, Suspense, type ReactNode } from 'react';
import { LoadingScreen } from '../components/ui/spinner';
import { useCurrentUser } from '../lib/auth';
import { SignedInActivity } from '../lib/use-activity-tracking';

// Signed-in members never download the sign-in screen, and visitors never download a page first.
const SignInScreen = lazy(() => import('../features/auth/sign-in-screen'));

/**
 * 'Loading...' while the sign-in state is unknown, the sign-in screen instead of
 * any route when signed out, the routes (and the activity tracker) when signed in. The URL stays
 * as it was, so a deep link opens its page right after signing in.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <LoadingScreen />;
  if (user === null) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <SignInScreen />
      </Suspense>
    );
  }
  return (
    <>
      <SignedInActivity memberName={user.name} />
      {children}
    </>
  );
}
