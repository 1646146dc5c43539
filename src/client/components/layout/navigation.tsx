import { BarChart3, BookOpen, Home, Lightbulb, Shield, Sparkles } from 'lucide-react';
import { ASSISTANT_NAME } from '../../../common/product';
import { ROUTES } from '../../../common/routes';
import type { HeaderLink } from './page-header';

const icon = 'h-4 w-4';

/** The header destinations, named once; each page picks the ones it shows. */
export const NAV = {
  home: { label: 'Home', to: ROUTES.home, icon: <Home className={icon} aria-hidden="true" /> },
  capabilities: { label: `${ASSISTANT_NAME} Capabilities`, to: ROUTES.capabilities, icon: <Sparkles className={icon} aria-hidden="true" /> },
  principles: { label: 'Design Principles', to: ROUTES.principles, icon: <BookOpen className={icon} aria-hidden="true" /> },
  analytics: { label: 'Analytics', to: ROUTES.analytics, icon: <BarChart3 className={icon} aria-hidden="true" /> },
  suggestions: { label: 'Feedback & Recommendations', to: ROUTES.suggestions, icon: <Lightbulb className={icon} aria-hidden="true" /> },
  admin: { label: 'Admin', to: ROUTES.admin, icon: <Shield className={icon} aria-hidden="true" />, adminOnly: true },
} as const satisfies Record<string, HeaderLink>;
