import type { CurrentUser } from '../../../common/contract/user';
import { initialsOf } from '../../../common/names';
import { ImageWithFallback } from '../image-with-fallback';

/** Decoration: the control around it carries the name (label in name: no visible text is left out of it). */
export function UserAvatar({ user }: { user: CurrentUser | null }) {
  return (
    <span aria-hidden="true" className="inline-flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
      {user?.profileImageUrl != null ? (
        <ImageWithFallback src={user.profileImageUrl} alt="" className="h-full w-full object-cover" fallbackEmoji="🙂" />
      ) : (
        initialsOf(user?.name)
      )}
    </span>
  );
}
