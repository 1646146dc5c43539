import { Copy, Link2 } from 'lucide-react';
import { useId } from 'react';
import type { EnrollmentLinkResult } from '../../../../common/contract/admin';
import { Button } from '../../../components/ui/button';
import { inputClasses } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { DateTime } from '../../../components/ui/time-text';

async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Copied', description: 'The enrollment link is on the clipboard.' });
  } catch {
    // No clipboard (an insecure origin, a refused permission): the field stays selectable.
    toast({ title: 'Copy failed', description: 'Select the link and copy it by hand.', variant: 'destructive' });
  }
}

/**
 * The enrollment link the last action issued. The server keeps only its hash, so this is the one
 * time it can be read: it stays until the admin closes it and lives in memory only.
 */
export function EnrollmentLinkPanel({ link, onDone }: { link: EnrollmentLinkResult; onDone: () => void }) {
  const headingId = useId();
  const fieldId = useId();
  const hintId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-4 rounded-xl border border-emerald-300 bg-emerald-50 p-5 shadow-sm">
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-emerald-900">
        <Link2 className="h-5 w-5" aria-hidden="true" /> Enrollment link for {link.memberName}
      </h2>
      <label htmlFor={fieldId} className="mt-3 block text-sm font-medium text-slate-900">
        Enrollment link
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          id={fieldId}
          readOnly
          value={link.enrollmentLink.url}
          aria-describedby={hintId}
          className={inputClasses('font-mono text-sm')}
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
        <Button
          variant="outline"
          className="h-11 shrink-0"
          onClick={() => {
            void copyLink(link.enrollmentLink.url);
          }}
        >
          <Copy className="h-4 w-4" aria-hidden="true" /> Copy
        </Button>
      </div>
      <div id={hintId} className="mt-3 space-y-1 text-sm text-emerald-950">
        <p>
          Expires <DateTime iso={link.enrollmentLink.expiresAt} />.
        </p>
        <p>
          It works once: hand it to {link.memberName} privately (in person or a direct message), never in a shared channel. It is shown only
          now; once closed, issue a new one if needed.
        </p>
      </div>
      <Button variant="secondary" size="sm" className="mt-4" onClick={onDone}>
        Done, close the link
      </Button>
    </section>
  );
}
