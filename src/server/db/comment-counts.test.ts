import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_TEST_COMPONENT_ID } from '../../common/api/architecture.js';
import { countCommentsByComponent } from '../modules/comments/repo.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { openDatabase, type DatabaseHandle } from './connection.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;

const countsMigration = migrations.findIndex((migration) => migration.name === '0012-comment-counts');

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  handle = openDatabase(testDatabase);
  // Comments written before the counts existed are counted when they arrive.
  await migrateToLatest(handle, migrations.slice(0, countsMigration));
  const early = await addMember('Early Bird');
  await addComments(early, 'alert-ingestion', 3);
  await migrateToLatest(handle);
});
afterAll(async () => {
  await handle.close();
  await testDatabase.drop();
});

async function addMember(name: string): Promise<number> {
  const row = await handle.db
    .insertInto('members')
    .values({ full_name: name, name_key: name.toLowerCase(), first_name: name.split(' ')[0] ?? '', last_name: name.split(' ')[1] ?? '', role: 'member', active: 1, created_at: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function addComments(memberId: number, componentId: string, count: number): Promise<number[]> {
  const rows = await handle.db
    .insertInto('comments')
    .values(Array.from({ length: count }, (_, index) => ({ component_id: componentId, kind: 'comment', content: `point ${index}`, member_id: memberId, member_name: 'someone', created_at: 10 + index })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** What the counts must equal: a count over the comments themselves. */
async function countedFromComments(): Promise<Record<string, { open: number; resolved: number }>> {
  const rows = await handle.db
    .selectFrom('comments')
    .select(['component_id', (eb) => eb.fn.countAll<number | string>().as('count'), (eb) => eb.fn.count<number | string>('resolved_at').as('resolved')])
    .where('component_id', '!=', QA_TEST_COMPONENT_ID)
    .groupBy('component_id')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.component_id, { open: Number(row.count) - Number(row.resolved), resolved: Number(row.resolved) }]));
}

/** Open comments only. */
const open = (count: number) => ({ open: count, resolved: 0 });

describe('comment counts kept by the database', () => {
  it('start from the comments written before them', async () => {
    expect(await countCommentsByComponent(handle.db)).toEqual({ 'alert-ingestion': open(3) });
    await handle.db.deleteFrom('comments').execute();
    expect(await countCommentsByComponent(handle.db)).toEqual({});
  });

  it('follow inserts, deletes, moves and a member deletion that cascades to their comments', async () => {
    const grace = await addMember('Grace Hopper');
    const linus = await addMember('Linus Pauling');
    const graceIds = await addComments(grace, 'alert-ingestion', 5);
    await addComments(linus, 'alert-ingestion', 2);
    await addComments(linus, 'event-correlation', 3);
    await addComments(linus, QA_TEST_COMPONENT_ID, 4);
    expect(await countCommentsByComponent(handle.db)).toEqual({ 'alert-ingestion': open(7), 'event-correlation': open(3) });

    await handle.db.deleteFrom('comments').where('id', 'in', graceIds.slice(0, 2)).execute();
    await handle.db.updateTable('comments').set({ component_id: 'event-correlation' }).where('id', '=', graceIds[2] ?? -1).execute();
    expect(await countCommentsByComponent(handle.db)).toEqual({ 'alert-ingestion': open(4), 'event-correlation': open(4) });

    // The foreign key's cascade removes Linus's comments without any statement naming them.
    await handle.db.deleteFrom('members').where('id', '=', linus).execute();
    const after = await countCommentsByComponent(handle.db);
    expect(after).toEqual({ 'alert-ingestion': open(2), 'event-correlation': open(1) });
    expect(after).toEqual(await countedFromComments());
  });

  it('leaves out components whose comments are all gone', async () => {
    const ada = await addMember('Ada Byron');
    const ids = await addComments(ada, 'runbook-automation', 2);
    expect((await countCommentsByComponent(handle.db))['runbook-automation']).toEqual(open(2));
    await handle.db.deleteFrom('comments').where('id', 'in', ids).execute();
    expect(await countCommentsByComponent(handle.db)).not.toHaveProperty('runbook-automation');
    expect(await countCommentsByComponent(handle.db)).toEqual(await countedFromComments());
  });

  it('count resolved comments apart, through resolving, reopening, moving and deleting them', async () => {
    const ines = await addMember('Ines Duarte');
    const ids = await addComments(ines, 'change-risk', 4);
    const resolve = (id: number | undefined, at: number | null) =>
      handle.db.updateTable('comments').set({ resolved_at: at, resolved_by_name: at === null ? null : 'Ines Duarte' }).where('id', '=', id ?? -1).execute();
    await resolve(ids[0], 100);
    await resolve(ids[1], 100);
    expect((await countCommentsByComponent(handle.db))['change-risk']).toEqual({ open: 2, resolved: 2 });
    // Resolving again, or changing only the note, counts nothing twice.
    await resolve(ids[1], 200);
    await handle.db.updateTable('comments').set({ resolution_note: 'done' }).where('id', '=', ids[0] ?? -1).execute();
    expect((await countCommentsByComponent(handle.db))['change-risk']).toEqual({ open: 2, resolved: 2 });
    await resolve(ids[1], null);
    expect((await countCommentsByComponent(handle.db))['change-risk']).toEqual({ open: 3, resolved: 1 });
    await handle.db.updateTable('comments').set({ component_id: 'incident-review' }).where('id', '=', ids[0] ?? -1).execute();
    await handle.db.deleteFrom('comments').where('id', '=', ids[2] ?? -1).execute();
    const counts = await countCommentsByComponent(handle.db);
    expect(counts['change-risk']).toEqual({ open: 2, resolved: 0 });
    expect(counts['incident-review']).toEqual({ open: 0, resolved: 1 });
    expect(counts).toEqual(await countedFromComments());
  });
});
