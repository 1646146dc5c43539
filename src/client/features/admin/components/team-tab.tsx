import type { EnrollmentLinkResult } from '../../../../common/contract/admin';
import { AddMemberForm } from './add-member-form';
import { MemberTable } from './member-table';

export function TeamTab({ onLinkIssued }: { onLinkIssued: (link: EnrollmentLinkResult) => void }) {
  return (
    <div className="space-y-6">
      <AddMemberForm onLinkIssued={onLinkIssued} />
      <MemberTable onLinkIssued={onLinkIssued} />
    </div>
  );
}
