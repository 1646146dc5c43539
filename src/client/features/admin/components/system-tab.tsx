import { KeyRound, Server, ShieldCheck } from 'lucide-react';
import type { SystemStatus } from '../../../../common/contract/admin';
import { LoadError } from '../../../components/ui/load-error';
import { useSystemStatus } from '../api/system';
import { ListSkeleton, Panel } from '../../../components/ui/panel';
import { ToneBadge } from './tone-badge';

const DATABASE_NAMES: Record<SystemStatus['database'], string> = { sqlite: 'SQLite (embedded)', postgres: 'PostgreSQL' };

/** What the server runs on, the rules it enforces, and where each secret came from. The answer holds no secret value. */
export function SystemTab() {
  const system = useSystemStatus();
  const status = system.data;
  if (system.isPending) {
    return (
      <Panel title="System" icon={<Server className="h-5 w-5 text-brand-600" aria-hidden="true" />}>
        <ListSkeleton label="Loading the system status…" />
      </Panel>
    );
  }
  if (status === undefined) return <LoadError title="The system status could not be loaded" query={system} />;
  const facts: [string, string][] = [
    ['Version', status.version],
    ['Database', DATABASE_NAMES[status.database]],
    ['AI provider', status.aiProvider],
    ['Admin', status.adminName ?? 'Not set (ADMIN_NAME)'],
    ['QA test user', status.qaUserName],
  ];
  return (
    <div className="space-y-6">
      <Panel title="System" icon={<Server className="h-5 w-5 text-brand-600" aria-hidden="true" />}>
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</dt>
              <dd className="mt-0.5 break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <Panel title="Security Model" icon={<ShieldCheck className="h-5 w-5 text-brand-600" aria-hidden="true" />}>
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-slate-800">
          {status.securityModel.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      </Panel>
      <Panel
        title="Secrets"
        icon={<KeyRound className="h-5 w-5 text-brand-600" aria-hidden="true" />}
        description="Where each secret comes from. Their values never leave the server."
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Secrets and their source</caption>
          <thead className="border-b border-slate-200 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Secret
              </th>
              <th scope="col" className="py-2">
                Source
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {status.secrets.map((secret) => (
              <tr key={secret.name}>
                <th scope="row" className="py-2 pr-3 font-medium text-slate-900">
                  {secret.label}
                </th>
                <td className="py-2">
                  <ToneBadge tone={secret.source === 'environment' ? 'blue' : 'gray'}>
                    {secret.source === 'environment' ? 'Set in the environment' : 'Generated on first start'}
                  </ToneBadge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
    </div>
  );
}
