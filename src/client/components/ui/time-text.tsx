import { formatDateTime, formatRelativeTime } from '../../lib/relative-time';

/** A past moment as "5 minutes ago", the full date and time on hover. */
export function TimeAgo({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}

/** A moment to come (an expiry, the end of a lock), as its date and time: relative wording covers only the past. */
export function DateTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}
