import { Info, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import type { EnrollmentLinkResult } from '../../../../common/contract/admin';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { isFilled } from '../admin-password';
import { useAddMember } from '../api/members';
import { Panel } from '../../../components/ui/panel';
import { Note } from './note';

interface AddMemberFormProps {
  adminPassword: string;
  onAdminPasswordChange: (password: string) => void;
  onLinkIssued: (link: EnrollmentLinkResult) => void;
}

/**
 * The admin password (typed once, used by every tab's actions) and the add-member form. The
 * password is page state only: never stored, gone with the page.
 */
export function AddMemberForm({ adminPassword, onAdminPasswordChange, onLinkIssued }: AddMemberFormProps) {
  const passwordId = useId();
  const passwordHintId = useId();
  const nameId = useId();
  const [name, setName] = useState('');
  const addMember = useAddMember();
  const ready = isFilled(adminPassword) && isFilled(name) && !addMember.isPending;

  return (
    <Panel title="Add Team Member" icon={<UserPlus className="h-5 w-5 text-brand-600" aria-hidden="true" />} description="New members get a one-time enrollment link to create their PIN.">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          addMember.mutate(
            { adminPassword, memberName: name.trim() },
            {
              onSuccess: (result) => {
                setName('');
                onLinkIssued(result);
              },
            },
          );
        }}
      >
        <div>
          <label htmlFor={passwordId} className="block text-sm font-medium text-slate-900">
            Admin Password
          </label>
          <Input
            id={passwordId}
            type="password"
            autoComplete="off"
            value={adminPassword}
            aria-describedby={passwordHintId}
            className="mt-1 max-w-md"
            onChange={(event) => {
              onAdminPasswordChange(event.target.value);
            }}
          />
          <p id={passwordHintId} className="mt-1 text-xs text-slate-600">
            Every admin action on this page uses it. It is kept only while this page is open.
          </p>
        </div>
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
          request appears under PIN Resets, where resetting it gives you a new enrollment link to send them.
        </p>
      </Note>
    </Panel>
  );
}
