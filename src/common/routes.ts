import { ASSISTANT_NAME } from './product.js';

/** toLowerCase keeping the literal type, so each screen path below stays a literal. */
function lowercase<Text extends string>(text: Text): Lowercase<Text> {
  return text.toLowerCase() as Lowercase<Text>;
}

/**
 * Every screen path of the product (docs/product.md, 'Screens'). The client router and the server's SPA fallback both read
 * this list, so a deep link to a real screen gets 200 and anything else gets a 404 status while
 * the SPA still renders its 'Page Not Found' screen.
 */
export const ROUTES = {
  home: '/',
  capabilities: `/${lowercase(ASSISTANT_NAME)}-capabilities`,
  principles: '/development-principles',
  analytics: '/analytics',
  suggestions: '/suggestions',
  admin: '/admin',
} as const;

const screenPaths: ReadonlySet<string> = new Set(Object.values(ROUTES));

export function isScreenPath(pathname: string): boolean {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return screenPaths.has(trimmed);
}
