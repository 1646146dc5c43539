import type { ComponentType } from 'react';

// Every screen's page and the sign-in screen, each its own chunk; the paths under features/ are
// named once, in src/common/screens.ts, which the server reads too.
const PAGE_MODULES = import.meta.glob<{ default: ComponentType }>(['../features/*/*-page.tsx', '../features/auth/sign-in-screen.tsx']);

/** The loader of a page module named by its path under src/client/features/. */
export function pageModuleLoader(file: string): () => Promise<{ default: ComponentType }> {
  const load = PAGE_MODULES[`../features/${file}`];
  if (load === undefined) throw new Error(`No page module at features/${file}`);
  return load;
}
