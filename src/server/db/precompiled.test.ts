import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.js';
import { openDatabase } from './connection.js';
import { migrateToLatest } from './migrate.js';
import { precompile } from './precompiled.js';

describe('precompile', () => {
  it('runs one compiled query with new values in place of its placeholders, on the real database', async () => {
    const testDatabase = await createTestDatabase();
    const handle = openDatabase(testDatabase);
    try {
      await migrateToLatest(handle);
      const { db } = handle;
      await db
        .insertInto('members')
        .values(['Ada Lovelace', 'Alan Turing'].map((full_name, index) => ({ full_name, name_key: full_name.toLowerCase(), first_name: full_name.split(' ')[0] ?? '', last_name: full_name.split(' ')[1] ?? '', role: 'member', active: index === 0 ? 1 : 0, created_at: 1000 + index })))
        .execute();
      const placeholders = { name: '\u0000name', active: -1.5 } as const;
      const compiled = db.selectFrom('members').select('full_name').where('name_key', '=', placeholders.name).where('active', '=', placeholders.active).compile();
      const query = precompile(compiled, placeholders);

      expect((await db.executeQuery(query({ name: 'ada lovelace', active: 1 }))).rows).toEqual([{ full_name: 'Ada Lovelace' }]);
      expect((await db.executeQuery(query({ name: 'alan turing', active: 1 }))).rows).toEqual([]);
      expect((await db.executeQuery(query({ name: 'alan turing', active: 0 }))).rows).toEqual([{ full_name: 'Alan Turing' }]);
      // The compiled original is untouched.
      expect(compiled.parameters).toEqual(['\u0000name', -1.5]);
    } finally {
      await handle.close();
      await testDatabase.drop();
    }
  });

  it('refuses placeholders that the query does not hold exactly once', async () => {
    const testDatabase = await createTestDatabase();
    const handle = openDatabase(testDatabase);
    try {
      const { db } = handle;
      const once = db.selectFrom('members').select('id').where('id', '=', -7).compile();
      expect(() => precompile(once, { id: -7, missing: -8 })).toThrow('placeholder missing appears 0 times');
      const twice = db.selectFrom('members').select('id').where('id', '=', -7).where('created_at', '=', -7).compile();
      expect(() => precompile(twice, { id: -7 })).toThrow('placeholder id appears 2 times');
    } finally {
      await handle.close();
      await testDatabase.drop();
    }
  });
});
