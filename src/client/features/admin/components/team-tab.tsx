import type { EnrollmentLinkResult } from '../../../../common/contract/admin';
import { AddMemberForm } from './add-member-form';
import { MemberTable } from './member-table';

interface TeamTabProps {
  adminPassword: string;
  onAdminPasswordChange: (password: string) => void;
  onLinkIssued: (link: EnrollmentLinkResult) => void;
}

export function TeamTab({ adminPassword, onAdminPasswordChange, onLinkIssued }: TeamTabProps) {
  return (
    <div className="space-y-6">
      <AddMemberForm adminPassword={adminPassword} onAdminPasswordChange={onAdminPasswordChange} onLinkIssued={onLinkIssued} />
      <MemberTable adminPassword={adminPassword} onLinkIssued={onLinkIssued} />
    </div>
  );
}
