import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { adminMemberSchema } from '../../../common/contract/admin.js';
import { nameKey } from '../../../common/names.js';
import { buildApp } from '../../app.js';
import type { App } from '../../http/types.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS, createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { findMemberByKey } from '../members/repo.js';
import { addMember } from '../members/service.js';
import type { SessionLookupRow } from './repo.js';
import { hashToken } from './secrets.js';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.js';
import { SessionStore } from './sessions.js';

/**
 * The in-process session cache: a second's worth of lookups answered from memory, dropped on every
 * instance by the events that end sessions or change members, and never longer than a second for a
 * revocation nobody announced.
 */

const HOUR = 3_600_000;
const T0 = 1_800_000_000_000;

function lookupRow(memberId: number, overrides: Partial<SessionLookupRow> = {}): SessionLookupRow {
  return {
    id: memberId,
    full_name: `Member ${memberId}`,
    name_key: `member ${memberId}`,
    first_name: 'Member',
    last_name: String(memberId),
    email: null,
    role: 'member',
    pin_hash: null,
    active: 1,
    is_qa: 0,
    created_at: T0,
    pin_set_at: null,
    last_sign_in_at: T0,
    login_count: 1,
    last_seen_at: T0,
    session_created_at: T0,
    session_expires_at: T0 + HOUR,
    ...overrides,
  };
}

/** A load the test resolves when it chooses. */
function deferredLoad(row: SessionLookupRow | undefined) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const load = vi.fn(async () => {
    await gate;
    return row;
  });
  return {
    load,
    release: () => {
      release();
    },
  };
}

const found = (row: SessionLookupRow) => () => Promise.resolve(row);

describe('SessionCache', () => {
  it('answers a row for less than its lifetime, then forgets it', async () => {
    const cache = new SessionCache(1000);
    await cache.lookUp('a', T0, found(lookupRow(1)));
    expect(cache.get('a', T0 + 999)?.id).toBe(1);
    expect(cache.get('a', T0 + 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('shares one read among concurrent lookups of a token', async () => {
    const cache = new SessionCache(1000);
    const { load, release } = deferredLoad(lookupRow(1));
    const lookups = [cache.lookUp('a', T0, load), cache.lookUp('a', T0, load), cache.lookUp('a', T0, load)];
    release();
    expect((await Promise.all(lookups)).map((row) => row?.id)).toEqual([1, 1, 1]);
    expect(load).toHaveBeenCalledTimes(1);
    // Settled: the next miss reads again.
    cache.clear();
    await cache.lookUp('a', T0, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('neither keeps nor shares a read that started before a session ended (the read may predate the end)', async () => {
    const cache = new SessionCache(1000);
    const before = deferredLoad(lookupRow(1));
    const first = cache.lookUp('a', T0, before.load);
    cache.drop({ tokenHash: 'a' });
    const after = deferredLoad(undefined);
    const second = cache.lookUp('a', T0, after.load);
    before.release();
    after.release();
    expect((await first)?.id).toBe(1);
    expect(await second, 'a lookup after the end reads again').toBeUndefined();
    expect(cache.get('a', T0)).toBeUndefined();
  });

  it('drops one session by its hash, every session of a member, or everything', async () => {
    const cache = new SessionCache(1000);
    for (const [hash, member] of [['a', 1], ['b', 1], ['c', 2], ['d', 3]] as const) await cache.lookUp(hash, T0, found(lookupRow(member)));
    cache.drop({ tokenHash: 'd' });
    expect(cache.get('d', T0)).toBeUndefined();
    cache.drop({ memberId: 1 });
    expect([cache.get('a', T0), cache.get('b', T0), cache.get('c', T0)?.id]).toEqual([undefined, undefined, 2]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('serves and keeps nothing while revocations may go unheard, or when its lifetime is 0', async () => {
    let trusted = true;
    const cache = new SessionCache(1000, () => trusted);
    await cache.lookUp('a', T0, found(lookupRow(1)));
    trusted = false;
    expect(cache.get('a', T0)).toBeUndefined();
    await cache.lookUp('a', T0, found(lookupRow(1)));
    trusted = true;
    expect(cache.get('a', T0)).toBeUndefined();

    const off = new SessionCache(0);
    const { load, release } = deferredLoad(lookupRow(1));
    const lookups = [off.lookUp('a', T0, load), off.lookUp('a', T0, load)];
    release();
    await Promise.all(lookups);
    expect(load, 'no read is shared either').toHaveBeenCalledTimes(2);
    expect(off.size).toBe(0);
  });

  it('forgets a row stored in the future of the clock (the clock went back)', async () => {
    const cache = new SessionCache(1000);
    await cache.lookUp('a', T0, found(lookupRow(1)));
    expect(cache.get('a', T0 - 1)).toBeUndefined();
  });
});

describe('SessionStore with the cache', () => {
  let testApp: TestApp;
  let cache: SessionCache;
  let store: SessionStore;
  let memberId: number;
  beforeAll(async () => {
    testApp = await createTestApp();
    const { db } = testApp.app.database;
    cache = new SessionCache(SESSION_CACHE_TTL_MS);
    store = new SessionStore(db, { idleMs: 30 * 60_000, absoluteMs: 12 * HOUR }, undefined, cache);
    await addMember(db, 'Cora Cached');
    memberId = (await findMemberByKey(db, nameKey('Cora Cached')))?.id ?? 0;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const deleteRow = (token: string) => testApp.app.database.db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();

  it('refuses a session deleted behind its back within one second, with nobody telling it', async () => {
    const now = Date.now();
    const token = await store.createSession(memberId, { ip: '127.0.0.1', userAgent: undefined }, now);
    expect(await store.findSession(token, now)).toBeDefined();
    await deleteRow(token);
    expect(await store.findSession(token, now + SESSION_CACHE_TTL_MS - 1), 'answered from memory').toBeDefined();
    expect(await store.findSession(token, now + SESSION_CACHE_TTL_MS)).toBeUndefined();
  });

  it('refuses a session it ended itself at once', async () => {
    const now = Date.now();
    const token = await store.createSession(memberId, { ip: '127.0.0.1', userAgent: undefined }, now);
    expect(await store.findSession(token, now)).toBeDefined();
    // The app's store hears its own notice through the event bus; this one drops it by hand, as the bus would.
    await store.endSession(token);
    cache.drop({ tokenHash: hashToken(token) });
    expect(await store.findSession(token, now + 1)).toBeUndefined();
  });

  it('checks a cached session against the absolute limit', async () => {
    const now = Date.now();
    const shortLived = new SessionStore(testApp.app.database.db, { idleMs: 30 * 60_000, absoluteMs: 500 }, undefined, cache);
    const token = await shortLived.createSession(memberId, { ip: '127.0.0.1', userAgent: undefined }, now);
    expect(await shortLived.findSession(token, now)).toBeDefined();
    expect(await shortLived.findSession(token, now + 500)).toBeUndefined();
  });

  it('writes the last-seen time once a minute from cached hits too', async () => {
    const now = Date.now();
    const token = await store.createSession(memberId, { ip: '127.0.0.1', userAgent: undefined }, now);
    const lastSeen = async () => (await testApp.app.database.db.selectFrom('sessions').select('last_seen_at').where('token_hash', '=', hashToken(token)).executeTakeFirst())?.last_seen_at;
    // A fresh cache entry at now, then hits at now + 60 s (within the entry's second only by a clock that jumps, as here).
    const jumping = new SessionCache(120_000);
    const jumpingStore = new SessionStore(testApp.app.database.db, { idleMs: 30 * 60_000, absoluteMs: 12 * HOUR }, undefined, jumping);
    expect(await jumpingStore.findSession(token, now)).toBeDefined();
    expect(await jumpingStore.findSession(token, now + 30_000)).toBeDefined();
    expect(await lastSeen()).toBe(now);
    expect(await jumpingStore.findSession(token, now + 60_000)).toBeDefined();
    expect(await lastSeen()).toBe(now + 60_000);
    expect(await jumpingStore.findSession(token, now + 61_000)).toBeDefined();
    expect(await lastSeen()).toBe(now + 60_000);
  });
});

describe('the app with the cache on', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('applies a role given on the command line within one second, with nothing announced', async () => {
    const admin = await signInAs(app, 'Avery Admin');
    const member = await signInAs(app, 'Cass Commandline');
    expectApiError(await apiCall(app, 'GET', routes.admin.members.path, member), 403, 'ADMIN_ONLY');
    await app.database.db.updateTable('members').set({ role: 'admin' }).where('name_key', '=', nameKey('Cass Commandline')).execute();
    await expectWithin(SESSION_CACHE_TTL_MS + 500, async () => (await apiCall(app, 'GET', routes.admin.members.path, member)).statusCode === 200);
    expect((await apiCall(app, 'GET', routes.auth.user.path, admin)).statusCode).toBe(200);
  });
});

/** Polls until `condition` holds, failing after `ms` (the bound under test), not waiting for a time. */
async function expectWithin(ms: number, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const onPostgres = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';

describe.skipIf(!onPostgres)('two instances on PostgreSQL', () => {
  let database: TestDatabase;
  let instanceA: App;
  let instanceB: App;
  let admin: SessionCookies;
  beforeAll(async () => {
    database = await createTestDatabase();
    instanceA = await buildApp(testConfig(database, { signInLimitPerMinute: 1_000 }), { collectProcessMetrics: false });
    instanceB = await buildApp(testConfig(database, { signInLimitPerMinute: 1_000 }), { collectProcessMetrics: false });
    admin = await signInAs(instanceA, 'Avery Admin');
  });
  afterAll(async () => {
    await instanceA.close();
    await instanceB.close();
    await database.drop();
  });

  const userStatus = async (instance: App, cookies: SessionCookies) => (await apiCall(instance, 'GET', routes.auth.user.path, cookies)).statusCode;
  const memberId = async (name: string) => {
    const listed = adminMemberSchema.array().parse((await apiCall(instanceA, 'GET', routes.admin.members.path, admin)).json());
    const found = listed.find((entry) => entry.name === name);
    if (found === undefined) throw new Error(`${name} is not listed`);
    return found.id;
  };

  it('refuses on instance B, within 1 s, a session logged out on instance A', async () => {
    const helen = await signInAs(instanceA, 'Helen Across');
    expect(await userStatus(instanceB, helen), 'B has the session in its cache').toBe(200);
    expect((await apiCall(instanceA, 'POST', routes.auth.logout.path, helen)).statusCode).toBe(200);
    await expectWithin(1000, async () => (await userStatus(instanceB, helen)) === 401);
  });

  it('refuses on instance B, within 1 s, the session of a member deactivated on instance A', async () => {
    const lou = await signInAs(instanceA, 'Lou Leaving');
    expect(await userStatus(instanceB, lou)).toBe(200);
    const deactivate = buildPath(routes.admin.setActive.path, { id: await memberId('Lou Leaving') });
    expect((await apiCall(instanceA, 'POST', deactivate, admin, { adminPassword: TEST_SECRETS.adminPassword, active: false })).statusCode).toBe(200);
    await expectWithin(1000, async () => (await userStatus(instanceB, lou)) === 401);
  });

  it('applies on instance B, within 1 s, a role taken away on instance A', async () => {
    const dana = await signInAs(instanceA, 'Dana Deputy');
    const setRole = buildPath(routes.admin.setRole.path, { id: await memberId('Dana Deputy') });
    expect((await apiCall(instanceA, 'POST', setRole, admin, { adminPassword: TEST_SECRETS.adminPassword, role: 'admin' })).statusCode).toBe(200);
    await expectWithin(1000, async () => (await apiCall(instanceB, 'GET', routes.admin.members.path, dana)).statusCode === 200);
    expect((await apiCall(instanceA, 'POST', setRole, admin, { adminPassword: TEST_SECRETS.adminPassword, role: 'member' })).statusCode).toBe(200);
    await expectWithin(1000, async () => (await apiCall(instanceB, 'GET', routes.admin.members.path, dana)).statusCode === 403);
  });
});
