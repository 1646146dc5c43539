import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time';

/** A past moment as "5 minutes ago", the full date and time on hover. */
export function TimeAgo({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}
