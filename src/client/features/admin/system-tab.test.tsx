import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import type { SystemStatus } from '../../../common/contract/admin';
import { mockFetch } from '../../test/mock-fetch';
import { renderWithApp } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, openAdminAt, preloadAdminTabs } from './test-fixtures';

beforeAll(preloadAdminTabs, 60_000);

/**
 * The answer carries no secret value; this one smuggles a `value` into each secret anyway, as a
 * server bug might, to show the tab prints only what it is meant to (label and source).
 */
function statusWithLeakedValues(): SystemStatus {
  const team = { name: 'team', label: 'Team password', source: 'generated' as const, value: 'leaked-team-password' };
  const admin = { name: 'admin', label: 'Admin password', source: 'environment' as const, value: 'leaked-admin-password' };
  return {
    version: '0.66.0',
    database: 'postgres',
    aiProvider: 'openai (gpt-4o-mini)',
    adminName: 'Avery Admin',
    qaUserName: 'QA Test User',
    securityModel: ['Sessions end after 30 idle minutes.', 'Admin actions need the admin password.'],
    secrets: [team, admin],
  };
}

describe('system', () => {
  test('shows the version, database, AI provider, admin, QA user, security model and secret sources, never a secret', async () => {
    mockFetch().on(routes.auth.user, { body: ADMIN }).on(routes.admin.system, { body: statusWithLeakedValues() });
    openAdminAt('system');
    renderWithApp(<AdminPage />);

    await screen.findByText('0.66.0');
    const facts = Object.fromEntries(Array.from(document.querySelectorAll('dt')).map((term) => [term.textContent, term.nextElementSibling?.textContent]));
    expect(facts).toEqual({ Version: '0.66.0', Database: 'PostgreSQL', 'AI provider': 'openai (gpt-4o-mini)', Admin: 'Avery Admin', 'QA test user': 'QA Test User' });

    const model = screen.getByRole('region', { name: 'Security Model' });
    expect(within(model).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Sessions end after 30 idle minutes.', 'Admin actions need the admin password.']);

    const secrets = screen.getByRole('table', { name: 'Secrets and their source' });
    const rows = within(secrets).getAllByRole('row').slice(1).map((row) => row.textContent);
    expect(rows).toEqual(['Team passwordGenerated on first start', 'Admin passwordSet in the environment']);
    expect(document.body.textContent).not.toMatch(/leaked-/);
  });

  test('without ADMIN_NAME it says the admin is not set', async () => {
    mockFetch()
      .on(routes.auth.user, { body: ADMIN })
      .on(routes.admin.system, { body: { ...statusWithLeakedValues(), adminName: null, database: 'sqlite', secrets: [] } });
    openAdminAt('system');
    renderWithApp(<AdminPage />);
    expect(await screen.findByText('Not set (ADMIN_NAME)')).toBeTruthy();
    expect(screen.getByText('SQLite (embedded)')).toBeTruthy();
  });
});
