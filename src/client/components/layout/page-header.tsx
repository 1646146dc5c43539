import clsx from 'clsx';
import { LogOut, Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { PRODUCT_VERSION } from '../../../common/product';
import { canAdminister, useCurrentUser, useLogout } from '../../lib/auth';
import { ImageWithFallback } from '../image-with-fallback';
import { Badge } from '../ui/badge';
import { buttonClasses } from '../ui/button';
import { NAV_LINKS, type HeaderLink } from './navigation';
import { UserMenu } from './user-menu';

interface PageHeaderProps {
  title: string;
  subtitle: string;
  /** A page whose own content opens with its h1 (a hero) names itself in the header as plain text. */
  titleIsHeading?: boolean;
}

/**
 * The one header of every signed-in page: brand and page title, the same navigation everywhere with
 * the current page marked, version, logout and the avatar menu. From 1024 px the destinations are a
 * row of labelled tabs under the title; below, one row holds the title and a Menu button that opens
 * them as a list, so a phone's header stays a single row.
 */
export function PageHeader({ title, subtitle, titleIsHeading = true }: PageHeaderProps) {
  const Title = titleIsHeading ? 'h1' : 'p';
  const { user } = useCurrentUser();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const links = NAV_LINKS.filter((link) => link.adminOnly !== true || canAdminister(user));

  // Escape closes the menu and gives focus back to its button.
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [menuOpen]);

  // Above the page: the account menu opens inside the header and overlaps what follows it.
  return (
    <header className="relative z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="flex min-h-14 items-center gap-3 py-2 lg:py-3">
          <ImageWithFallback src="/biggy-logo.svg" alt="Biggy logo" className="h-8 w-8 shrink-0 rounded-lg lg:h-10 lg:w-10" fallbackEmoji="🤖" />
          <div className="min-w-0 flex-1">
            <Title className="truncate text-base leading-tight font-bold text-slate-900 lg:text-lg">{title}</Title>
            <p className="hidden truncate text-sm text-slate-600 sm:block">{subtitle}</p>
          </div>
          <div className="ml-auto flex shrink-0 items-center gap-2">
            {/* Wrappers carry the breakpoints: a control's own display class would override 'hidden'. */}
            <span className="hidden sm:block">
              <Badge className="border-brand-100 bg-brand-50 text-brand-700" title="Version">
                v{PRODUCT_VERSION}
              </Badge>
            </span>
            {user !== null && (
              <span className="hidden lg:block">
                <LogoutButton className={buttonClasses('outline', 'sm')} />
              </span>
            )}
            <UserMenu user={user} />
            <span className="lg:hidden">
              <button
                ref={menuButton}
                type="button"
                className={buttonClasses('outline', 'sm')}
                aria-expanded={menuOpen}
                aria-controls={menuId}
                onClick={() => {
                  setMenuOpen((open) => !open);
                }}
              >
                {menuOpen ? <X className="h-4 w-4" aria-hidden="true" /> : <Menu className="h-4 w-4" aria-hidden="true" />}
                Menu
              </button>
            </span>
          </div>
        </div>
        <nav aria-label="Main" className="-mb-px hidden gap-1 overflow-x-auto lg:flex">
          {links.map((link) => (
            <NavLink key={link.to} link={link} current={isCurrent(link, location)} variant="tab" />
          ))}
        </nav>
      </div>
      {menuOpen && (
        <nav id={menuId} aria-label="Main" className="border-t border-slate-200 bg-white px-4 py-2 sm:px-6 lg:hidden">
          <ul className="flex flex-col gap-1">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  link={link}
                  current={isCurrent(link, location)}
                  variant="row"
                  onNavigate={() => {
                    setMenuOpen(false);
                  }}
                />
              </li>
            ))}
          </ul>
          <div className="mt-2 flex items-center justify-between border-t border-slate-100 pt-2">
            {user !== null && (
              <LogoutButton className={buttonClasses('ghost', 'sm', '-ml-3')} />
            )}
            <span className="text-xs text-slate-500 sm:hidden">Version {PRODUCT_VERSION}</span>
          </div>
        </nav>
      )}
    </header>
  );
}

/** Logout, in the header's row from 1024 px and in the phone menu below. */
function LogoutButton({ className }: { className: string }) {
  const logout = useLogout();
  return (
    <button
      type="button"
      className={className}
      disabled={logout.isPending}
      onClick={() => {
        logout.mutate();
      }}
    >
      <LogOut className="h-4 w-4" aria-hidden="true" />
      {logout.isPending ? 'Logging out...' : 'Logout'}
    </button>
  );
}

function isCurrent(link: HeaderLink, location: string): boolean {
  const path = location.length > 1 && location.endsWith('/') ? location.slice(0, -1) : location;
  return path === link.to;
}

function NavLink({ link, current, variant, onNavigate }: { link: HeaderLink; current: boolean; variant: 'tab' | 'row'; onNavigate?: () => void }) {
  return (
    <Link
      href={link.to}
      aria-current={current ? 'page' : undefined}
      onClick={onNavigate}
      className={clsx(
        'inline-flex items-center gap-2 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600',
        variant === 'tab'
          ? clsx('border-b-2 px-3 py-2.5', current ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900')
          : clsx('w-full rounded-md px-3 py-2.5', current ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'),
      )}
    >
      {link.icon}
      {link.label}
    </Link>
  );
}
