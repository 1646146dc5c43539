import { ROUTES } from './routes.js';

export type ScreenPath = (typeof ROUTES)[keyof typeof ROUTES];

/**
 * Each screen's page module, by its path, under `src/client/features/`; each is its own chunk in the build.
 * The client's router loads a screen's page from here, and the server names the same module (and
 * the chunks it imports) in that screen's HTML, so a phone fetches the page's code beside the
 * app's script instead of one round trip after it has run.
 */
export const SCREEN_PAGE_MODULES: Readonly<Record<ScreenPath, string>> = {
  [ROUTES.home]: 'review/review-home-page.tsx',
  [ROUTES.capabilities]: 'capabilities/capabilities-page.tsx',
  [ROUTES.principles]: 'principles/principles-page.tsx',
  [ROUTES.analytics]: 'analytics/analytics-page.tsx',
  [ROUTES.suggestions]: 'suggestions/suggestions-page.tsx',
  [ROUTES.admin]: 'admin/admin-page.tsx',
};

/** The module a signed-out visitor sees at every path. */
export const SIGN_IN_MODULE = 'auth/sign-in-screen.tsx';
