import { DropdownMenu } from 'radix-ui';
import { Settings, User as UserIcon } from 'lucide-react';
import type { CurrentUser } from '../../../common/contract/user';
import { UserAvatar } from './user-avatar';

const itemClasses =
  'flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 outline-none data-[highlighted]:bg-slate-100';

/** The avatar menu itself; loaded on first use (see user-menu.tsx). Profile and Settings are inert by spec. */
export default function UserMenuDropdown({ user, label, defaultOpen }: { user: CurrentUser | null; label: string; defaultOpen: boolean }) {
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen} modal={false}>
      <DropdownMenu.Trigger className="rounded-full">
        <UserAvatar user={user} />
        <span className="sr-only">{label}</span>
      </DropdownMenu.Trigger>
      {/* Not portalled: inside the page's banner, the menu is in a landmark like the rest of the page. */}
      <DropdownMenu.Content align="end" sideOffset={8} className="z-50 min-w-56 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg">
        <DropdownMenu.Label className="px-2 py-2">
          <p className="font-medium text-slate-900">{user?.name ?? 'Guest'}</p>
          <p className="text-xs text-slate-600">{user?.email ?? 'No e-mail on file'}</p>
        </DropdownMenu.Label>
        <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
        <DropdownMenu.Item className={itemClasses}>
          <UserIcon className="h-4 w-4" aria-hidden="true" /> Profile
        </DropdownMenu.Item>
        <DropdownMenu.Item className={itemClasses}>
          <Settings className="h-4 w-4" aria-hidden="true" /> Settings
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
