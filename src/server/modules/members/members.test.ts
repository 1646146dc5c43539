import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUserSchema } from '../../../common/contract/user.js';
import { nameKey } from '../../../common/names.js';
import { buildApp } from '../../app.js';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { App } from '../../http/types.js';
import { TEST_SECRETS, createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { openEnrollmentLink } from '../../test/sign-in.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { findMemberByKey, listActiveMemberNames } from './repo.js';
import { addMember, ensureAdmin } from './service.js';

/** The members table and the ADMIN_NAME bootstrap. */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

describe('members', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('stores the normalized full name with first and last name derived from it', async () => {
    const db = testApp.app.database.db;
    expect(await addMember(db, '  Ada   King  Lovelace ', { email: 'ada@example.org' })).toEqual({ created: true, fullName: 'Ada King Lovelace' });
    expect(await findMemberByKey(db, nameKey('ada king lovelace'))).toMatchObject({
      full_name: 'Ada King Lovelace',
      name_key: 'ada king lovelace',
      first_name: 'Ada',
      last_name: 'King Lovelace',
      email: 'ada@example.org',
      role: 'member',
      pin_hash: null,
      active: 1,
    });
    await addMember(db, 'Cher');
    expect(await findMemberByKey(db, nameKey('Cher'))).toMatchObject({ first_name: 'Cher', last_name: '' });
  });

  it('keeps full names unique case-insensitively', async () => {
    const db = testApp.app.database.db;
    expect((await addMember(db, 'Grace Hopper')).created).toBe(true);
    expect((await addMember(db, 'grace hopper')).created).toBe(false);
    expect((await addMember(db, ' GRACE   HOPPER ')).created).toBe(false);
    const rows = await db.selectFrom('members').select('full_name').where('name_key', '=', nameKey('Grace Hopper')).execute();
    expect(rows).toEqual([{ full_name: 'Grace Hopper' }]);
    expect((await listActiveMemberNames(db)).filter((name) => name.toLowerCase() === 'grace hopper')).toEqual(['Grace Hopper']);
  });

  it('refuses names that are not 1 to 100 letters, spaces, apostrophes, dots or hyphens', async () => {
    const db = testApp.app.database.db;
    for (const name of ['', '   ', 'R2 D2', '<script>', 'Robert; drop table members', 'A'.repeat(101), '-Leading Hyphen']) {
      await expect(addMember(db, name), JSON.stringify(name)).rejects.toSatisfy((error) => error instanceof AppError && error.statusCode === 400);
    }
    for (const name of ["Miles O'Brien", 'Jean-Luc Picard', 'J. R. Hartley', 'Zoë Çelik', 'A'.repeat(100)]) {
      expect((await addMember(db, name)).created, name).toBe(true);
    }
  });

  it('makes the ADMIN_NAME member exist with role admin after start, without a PIN', async () => {
    const admin = await findMemberByKey(testApp.app.database.db, nameKey('Avery Admin'));
    expect(admin).toMatchObject({ full_name: 'Avery Admin', first_name: 'Avery', last_name: 'Admin', role: 'admin', pin_hash: null, active: 1 });
  });

  it('bootstraps idempotently', async () => {
    const db = testApp.app.database.db;
    await ensureAdmin(db, 'avery ADMIN', 'http://review.test');
    await ensureAdmin(db, 'Avery Admin', 'http://review.test');
    const rows = await db.selectFrom('members').select(['full_name', 'role']).where('name_key', '=', nameKey('Avery Admin')).execute();
    expect(rows).toEqual([{ full_name: 'Avery Admin', role: 'admin' }]);
  });
});

describe('ADMIN_NAME across restarts', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  async function withApp<T>(overrides: Partial<AppConfig>, run: (app: App) => Promise<T>): Promise<T> {
    const app = await buildApp(testConfig(database, overrides), { collectProcessMetrics: false });
    try {
      return await run(app);
    } finally {
      // Closes the app; the database stays for the next start.
      await app.close();
    }
  }

  const roleOf = async (app: App, session: string) => {
    const response = await app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: session } });
    expect(response.statusCode, response.body).toBe(200);
    return currentUserSchema.parse(response.json()).role;
  };

  it('creates no admin without ADMIN_NAME, creates one with it, and promotes an existing member on restart', async () => {
    const session = await withApp({ adminName: undefined }, async (app) => {
      expect(await app.database.db.selectFrom('members').select('id').where('role', '=', 'admin').execute()).toEqual([]);
      await addMember(app.database.db, 'Mia Member');
      const { cookies } = await openEnrollmentLink(app, 'Mia Member');
      const setup = await app.inject({
        method: 'POST',
        url: '/api/setup-pin',
        headers: JSON_HEADERS,
        cookies,
        payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: 'Mia Member', pin: '3816' }),
      });
      expect(setup.statusCode, setup.body).toBe(200);
      const cookie = setup.cookies.find((entry) => entry.name === 'biggy_session');
      if (cookie === undefined) throw new Error('no session cookie');
      expect(await roleOf(app, cookie.value)).toBe('member');
      return cookie.value;
    });

    await withApp({ adminName: '  mia   MEMBER ' }, async (app) => {
      const rows = await app.database.db.selectFrom('members').select(['full_name', 'role', 'pin_hash']).where('name_key', '=', nameKey('Mia Member')).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ full_name: 'Mia Member', role: 'admin' });
      // Promotion keeps the PIN, and the session from before the restart now carries the role.
      expect(rows[0]?.pin_hash).not.toBeNull();
      expect(await roleOf(app, session)).toBe('admin');
    });

    await withApp({ adminName: 'Avery Admin' }, async (app) => {
      const roles = await app.database.db.selectFrom('members').select(['full_name', 'role']).orderBy('full_name').execute();
      // A new ADMIN_NAME adds an admin; it never demotes the earlier one.
      expect(roles).toEqual([
        { full_name: 'Avery Admin', role: 'admin' },
        { full_name: 'Mia Member', role: 'admin' },
      ]);
    });
  });
});
