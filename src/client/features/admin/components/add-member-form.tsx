import { Info, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import type { EnrollmentLinkResult } from '../../../../common/contract/admin';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useAdminUnlock } from '../admin-unlock';
import { useAddMember } from '../api/members';
import { Panel } from '../../../components/ui/panel';
import { Note } from './note';

/** Adds a member by full name; the admin password comes from the panel's unlock, asked for here if needed. */
export function AddMemberForm({ onLinkIssued }: { onLinkIssued: (link: EnrollmentLinkResult) => void }) {
  const nameId = useId();
  const [name, setName] = useState('');
  const addMember = useAddMember();
  const { withPassword } = useAdminUnlock();
  const ready = name.trim() !== '' && !addMember.isPending;

  return (
    <Panel title="Add Team Member" icon={<UserPlus className="h-5 w-5 text-brand-600" aria-hidden="true" />} description="New members get a one-time enrollment link to create their PIN.">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          const memberName = name.trim();
          withPassword((adminPassword) => {
            addMember.mutate(
              { adminPassword, memberName },
              {
                onSuccess: (result) => {
                  setName('');
                  onLinkIssued(result);
                },
              },
            );
          });
        }}
      >
        <div>
          <label htmlFor={nameId} className="block text-sm font-medium text-slate-900">
            Member full name
          </label>
          <div className="mt-1 flex max-w-xl flex-col gap-2 sm:flex-row">
            <Input
              id={nameId}
              autoComplete="off"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
              }}
            />
            <Button type="submit" className="h-11 shrink-0" disabled={!ready}>
              <UserPlus className="h-4 w-4" aria-hidden="true" />
              {addMember.isPending ? 'Adding...' : 'Add Member'}
            </Button>
          </div>
        </div>
      </form>
      <Note className="mt-5 flex items-start gap-2">
        <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <p>
          <strong className="font-semibold">PIN resets:</strong> members who forget their PIN use &lsquo;Forgot PIN&rsquo; on the sign-in screen. Their
          request appears under PIN Resets. &lsquo;Reset PIN&rsquo; in the list below resets anyone&rsquo;s PIN without a request; either way you get a
          new enrollment link to send them.
        </p>
      </Note>
    </Panel>
  );
}
