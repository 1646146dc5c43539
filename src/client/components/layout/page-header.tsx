import { LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_VERSION } from '../../../common/product';
import { isAdmin, useCurrentUser, useLogout } from '../../lib/auth';
import { ImageWithFallback } from '../image-with-fallback';
import { Badge } from '../ui/badge';
import { buttonClasses } from '../ui/button';
import { UserMenu } from './user-menu';

export interface HeaderLink {
  label: string;
  to: string;
  icon: ReactNode;
  /** Shown only to members with the admin role (decided by the server). */
  adminOnly?: boolean;
}

interface PageHeaderProps {
  title: string;
  subtitle: string;
  links: readonly HeaderLink[];
}

/** The header of the signed-in pages: brand, navigation, version, logout and the avatar menu. */
export function PageHeader({ title, subtitle, links }: PageHeaderProps) {
  const { user } = useCurrentUser();
  const logout = useLogout();
  const visible = links.filter((link) => link.adminOnly !== true || isAdmin(user));
  // Four or more labelled links beside the title, Logout and the avatar need about 1,340 px: below
  // that, labels would push the navigation onto a second row, so such headers show icons until 2xl.
  const labelsFromWide = visible.length >= 4;
  return (
    <header className="border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <div className="flex items-center gap-3">
          <ImageWithFallback src="/biggy-logo.svg" alt="Biggy logo" className="h-10 w-10 rounded-lg" fallbackEmoji="🤖" />
          <div>
            <h1 className="text-lg leading-tight font-bold text-slate-900">{title}</h1>
            <p className="text-sm text-slate-600">{subtitle}</p>
          </div>
        </div>
        <nav aria-label="Main" className="ml-auto flex flex-wrap items-center justify-end gap-1">
          {visible.map((link) => (
            // Below 1024 px (1536 px for long link lists) only the icons show; the accessible name and tooltip keep the label.
            <Link
              key={link.to}
              href={link.to}
              aria-label={link.label}
              title={link.label}
              className={buttonClasses('ghost', 'sm', labelsFromWide ? 'px-2 2xl:px-3' : 'px-2 lg:px-3')}
            >
              {link.icon}
              <span className={labelsFromWide ? 'hidden 2xl:inline' : 'hidden lg:inline'}>{link.label}</span>
            </Link>
          ))}
          {user !== null && (
            <button
              type="button"
              className={buttonClasses('outline', 'sm')}
              disabled={logout.isPending}
              aria-label={logout.isPending ? 'Logging out...' : 'Logout'}
              onClick={() => {
                logout.mutate();
              }}
            >
              <LogOut className="h-4 w-4" aria-hidden="true" />
              <span className="hidden sm:inline">{logout.isPending ? 'Logging out...' : 'Logout'}</span>
            </button>
          )}
          <Badge className="ml-1 border-brand-100 bg-brand-50 text-brand-700" title="Version">
            v{PRODUCT_VERSION}
          </Badge>
          <UserMenu user={user} />
        </nav>
      </div>
    </header>
  );
}
