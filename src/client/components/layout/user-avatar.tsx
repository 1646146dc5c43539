import type { CurrentUser } from '../../../common/contract/user';
import { initialsOf } from '../../../common/names';
import { ImageWithFallback } from '../image-with-fallback';

export function UserAvatar({ user }: { user: CurrentUser | null }) {
  return (
    <span className="inline-flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-700">
      {user?.profileImageUrl != null ? (
        <ImageWithFallback src={user.profileImageUrl} alt="" className="h-full w-full object-cover" fallbackEmoji="🙂" />
      ) : (
        initialsOf(user?.name)
      )}
    </span>
  );
}
