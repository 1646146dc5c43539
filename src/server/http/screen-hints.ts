import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { analyticsRoutes } from '../../common/api/activity.js';
import { adminRoutes } from '../../common/api/admin.js';
import { architectureRoutes } from '../../common/api/architecture.js';
import { commentRoutes } from '../../common/api/comments.js';
import type { Route } from '../../common/api/route.js';
import { suggestionRoutes } from '../../common/api/suggestions.js';
import { ROUTES } from '../../common/routes.js';
import { SCREEN_PAGE_MODULES, SIGN_IN_MODULE, type ScreenPath } from '../../common/screens.js';

/** Who asks for a screen, as far as its first render goes. */
export type Viewer = 'signed out' | 'member' | 'admin';

interface FirstCalls {
  /** Who sees the screen's content: a member at the admin screen gets 'Access Denied' and makes none of its calls. */
  audience: 'member' | 'admin';
  calls: readonly Route<'GET'>[];
}

/**
 * The GET calls each screen makes as it first renders, with neither params nor a query, so the
 * preloaded URL is the one the page asks for. A call named here that the page does not make
 * leaves Chromium warning of an unused preload; the browser test of the hints holds both lists
 * together.
 */
const FIRST_CALLS: Readonly<Record<ScreenPath, FirstCalls>> = {
  [ROUTES.home]: { audience: 'member', calls: [architectureRoutes.get, commentRoutes.counts] },
  [ROUTES.capabilities]: { audience: 'member', calls: [] },
  [ROUTES.principles]: { audience: 'member', calls: [] },
  [ROUTES.analytics]: { audience: 'member', calls: [analyticsRoutes.daily, analyticsRoutes.users] },
  [ROUTES.suggestions]: { audience: 'member', calls: [suggestionRoutes.withVotes, commentRoutes.counts, architectureRoutes.get] },
  [ROUTES.admin]: { audience: 'admin', calls: [adminRoutes.members] },
};

/** The part of Vite's build manifest (`.vite/manifest.json`) the hints read. */
const manifestSchema = z.record(
  z.string(),
  z.object({ file: z.string(), isEntry: z.boolean().optional(), imports: z.array(z.string()).optional(), css: z.array(z.string()).optional() }),
);
type Manifest = z.infer<typeof manifestSchema>;

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The chunk of a page module and every chunk it imports statically (the entry excepted: the
 * document loads it anyway), with their style sheets: what the browser would otherwise discover
 * one round trip at a time, after the app's script has run.
 */
function chunksOf(manifest: Manifest, key: string): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (at: string) => {
    const chunk = manifest[at];
    if (chunk === undefined || chunk.isEntry === true || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const sheet of chunk.css ?? []) styles.add(sheet);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return { scripts: [...scripts], styles: [...styles] };
}

function hintTags(manifest: Manifest, moduleFile: string, calls: readonly Route<'GET'>[]): string {
  const { scripts, styles } = chunksOf(manifest, `src/client/features/${moduleFile}`);
  return [
    // Low priority: nothing runs before the app's own script, which has the connection first.
    ...scripts.map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${attribute(file)}" />`),
    ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="/${attribute(file)}" />`),
    // The same request the page's fetch makes (credentials included), so the browser hands it the preloaded answer.
    ...calls.map((call) => `<link rel="preload" href="${attribute(call.path)}" as="fetch" crossorigin="use-credentials" />`),
  ].join('\n    ');
}

/**
 * Each screen's index.html for each kind of viewer, with the hints that let the browser fetch the
 * page's code and its first answers beside the app's script: signed in, the screen's page chunks
 * and first calls (the admin's calls for the admin only); signed out, the sign-in screen's chunks.
 * Without a build manifest (a hand-made client folder) every screen gets the plain index.html.
 */
export function screenDocuments(clientDir: string, indexHtml: string): (screen: ScreenPath, viewer: Viewer) => string {
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return () => indexHtml;
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8')));
  const withHints = (tags: string) => (tags === '' ? indexHtml : indexHtml.replace('</head>', `  ${tags}\n  </head>`));
  const signedOut = withHints(hintTags(manifest, SIGN_IN_MODULE, []));
  const documents = new Map<string, string>();
  for (const screen of Object.values(ROUTES)) {
    const moduleFile = SCREEN_PAGE_MODULES[screen];
    const first = FIRST_CALLS[screen];
    documents.set(`${screen} member`, withHints(hintTags(manifest, moduleFile, first.audience === 'member' ? first.calls : [])));
    documents.set(`${screen} admin`, withHints(hintTags(manifest, moduleFile, first.calls)));
  }
  return (screen, viewer) => (viewer === 'signed out' ? signedOut : (documents.get(`${screen} ${viewer}`) ?? indexHtml));
}
