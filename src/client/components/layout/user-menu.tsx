import { lazy, Suspense, useState } from 'react';
import type { CurrentUser } from '../../../common/contract/user';
import { UserAvatar } from './user-avatar';

const loadDropdown = () => import('./user-menu-dropdown');
const UserMenuDropdown = lazy(loadDropdown);

/**
 * The menu machinery (focus trap, scroll lock, roving focus) is ~15 KiB gzip that no page needs for
 * its first paint, so the avatar starts as a plain button; hovering or focusing it prefetches the
 * menu, and the first activation swaps in the real menu, already open.
 */
export function UserMenu({ user }: { user: CurrentUser | null }) {
  const [activated, setActivated] = useState(false);
  const label = `Account menu for ${user?.name ?? 'Guest'}`;
  const placeholder = (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      className="rounded-full"
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={() => {
        setActivated(true);
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown') setActivated(true);
      }}
    >
      <UserAvatar user={user} />
      <span className="sr-only">{label}</span>
    </button>
  );
  if (!activated) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <UserMenuDropdown user={user} label={label} defaultOpen />
    </Suspense>
  );
}
