import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { insertComment } from '../comments/repo.js';
import { findMemberByKey } from '../members/repo.js';
import { addMember } from '../members/service.js';
import { checkIntegrity } from './integrity.js';

/**
 * The Data Integrity suite's report finds what it looks for: rows planted past the foreign keys and
 * values the application never writes, on either engine.
 */
describe('the integrity report', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const report = () => checkIntegrity(app.database.db, app.database.dialect);

  it('is clean on data the app wrote, and counts every orphan and unknown value planted behind its back', async () => {
    const { db, dialect } = app.database;
    await addMember(db, 'Ingrid Integrity');
    const member = await findMemberByKey(db, nameKey('Ingrid Integrity'));
    if (member === undefined) throw new Error('the member was not created');
    const comment = await insertComment(db, { componentId: 'agentic-triage', kind: 'comment', content: 'A sound comment', memberId: member.id, memberName: member.full_name });
    await db.insertInto('comment_votes').values({ comment_id: comment.id, member_id: member.id, member_name: member.full_name, vote_type: 'thumbs_up', created_at: Date.now() }).execute();

    const clean = await report();
    expect(Object.values(clean.orphans).every((count) => count === 0), JSON.stringify(clean.orphans)).toBe(true);
    expect(clean.unknownValues).toEqual({ voteTypes: 0, commentKinds: 0, roles: 0 });
    expect(clean.structural).toEqual([]);
    expect(clean.foreignKeys).toEqual([]);

    // Values no code path writes, and a vote whose comment does not exist, inserted with the foreign keys off.
    await sql`update comment_votes set vote_type = 'meh' where comment_id = ${comment.id}`.execute(db);
    await sql`update comments set kind = 'rant' where id = ${comment.id}`.execute(db);
    await sql`update members set role = 'owner' where id = ${member.id}`.execute(db);
    const orphan = { comment_id: comment.id + 1_000_000, member_id: member.id, member_name: member.full_name, vote_type: 'thumbs_up' as const, created_at: Date.now() };
    if (dialect === 'sqlite') {
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.insertInto('comment_votes').values(orphan).execute();
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    } else {
      await db.transaction().execute(async (trx) => {
        // Replication mode skips the foreign-key triggers for this transaction only.
        await sql`set local session_replication_role = replica`.execute(trx);
        await trx.insertInto('comment_votes').values(orphan).execute();
      });
    }

    const planted = await report();
    expect(planted.orphans.commentVotesWithoutComment).toBe(1);
    expect(planted.unknownValues).toEqual({ voteTypes: 1, commentKinds: 1, roles: 1 });
    if (dialect === 'sqlite') expect(planted.foreignKeys).toHaveLength(1);
  });
});
