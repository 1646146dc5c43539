import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { ROUTES } from '../../common/routes';
import { LoadingScreen } from '../components/ui/spinner';
import { NotFoundPage } from './not-found-page';

// Every screen is its own chunk: the first paint loads only the shell and the page asked for.
const PrinciplesPage = lazy(() => import('../features/principles/principles-page'));
const CapabilitiesPage = lazy(() => import('../features/capabilities/capabilities-page'));
const ReviewHomePage = lazy(() => import('../features/review/review-home-page'));
const SuggestionsPage = lazy(() => import('../features/suggestions/suggestions-page'));
const AdminPage = lazy(() => import('../features/admin/admin-page'));
const AnalyticsPage = lazy(() => import('../features/analytics/analytics-page'));

export function AppRouter() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Switch>
        <Route path={ROUTES.home} component={ReviewHomePage} />
        <Route path={ROUTES.capabilities} component={CapabilitiesPage} />
        <Route path={ROUTES.principles} component={PrinciplesPage} />
        <Route path={ROUTES.analytics} component={AnalyticsPage} />
        <Route path={ROUTES.suggestions} component={SuggestionsPage} />
        <Route path={ROUTES.admin} component={AdminPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
