import { FlaskConical } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { isFilled, maskPassword } from '../admin-password';
import { useInitQaUser } from '../api/members';
import { Panel } from '../../../components/ui/panel';

/** Creates the QA test member the built-in self-test signs in as. Its PIN stays on the server. */
export function QaUserCard({ adminPassword }: { adminPassword: string }) {
  const initQa = useInitQaUser();
  const hasPassword = isFilled(adminPassword);
  return (
    <Panel
      title="QA Test User"
      icon={<FlaskConical className="h-5 w-5 text-brand-600" aria-hidden="true" />}
      description="Create the QA test user the built-in self-test (QA Testing) signs in as. Its PIN is configured on the server and never shown here."
    >
      <div className="flex flex-wrap items-center gap-3">
        <Button
          disabled={!hasPassword || initQa.isPending}
          onClick={() => {
            initQa.mutate(adminPassword);
          }}
        >
          {initQa.isPending ? 'Initializing...' : 'Initialize QA User'}
        </Button>
        <p className="text-sm text-slate-600">
          {hasPassword ? (
            <>
              Using admin password: <span className="font-mono">{maskPassword(adminPassword)}</span>
            </>
          ) : (
            'Enter the admin password above first.'
          )}
        </p>
      </div>
    </Panel>
  );
}
