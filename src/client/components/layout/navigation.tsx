import { BarChart3, BookOpen, Home, Lightbulb, Shield, Sparkles } from 'lucide-react';
import { ASSISTANT_NAME } from '../../../common/product';
import { ROUTES } from '../../../common/routes';
import type { ReactNode } from 'react';

export interface HeaderLink {
  label: string;
  to: string;
  icon: ReactNode;
  /** Shown only to members with the admin role (decided by the server). */
  adminOnly?: boolean;
}

const icon = 'h-4 w-4';

/** The header destinations, named once. */
const NAV = {
  home: { label: 'Home', to: ROUTES.home, icon: <Home className={icon} aria-hidden="true" /> },
  capabilities: { label: `${ASSISTANT_NAME} Capabilities`, to: ROUTES.capabilities, icon: <Sparkles className={icon} aria-hidden="true" /> },
  principles: { label: 'Design Principles', to: ROUTES.principles, icon: <BookOpen className={icon} aria-hidden="true" /> },
  analytics: { label: 'Analytics', to: ROUTES.analytics, icon: <BarChart3 className={icon} aria-hidden="true" /> },
  suggestions: { label: 'Feedback & Recommendations', to: ROUTES.suggestions, icon: <Lightbulb className={icon} aria-hidden="true" /> },
  admin: { label: 'Admin', to: ROUTES.admin, icon: <Shield className={icon} aria-hidden="true" />, adminOnly: true },
} as const satisfies Record<string, HeaderLink>;

/** Every signed-in page's header shows the same destinations, in this order, the current one marked. */
export const NAV_LINKS: readonly HeaderLink[] = [NAV.home, NAV.capabilities, NAV.principles, NAV.suggestions, NAV.analytics, NAV.admin];
