import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentableComponentIds, loadArchitecture } from '../content/validate.js';
import { openDatabase, type DatabaseHandle } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { votersOf } from '../modules/comments/analysis-input.js';
import { DEMO_MEMBERS } from './demo-members.js';
import { describeEnrollmentLinks, describeSeed, issueDemoEnrollmentLinks, seedDemo, type DemoSeedResult } from './demo-seed.js';
import { memberOfEnrollment } from '../modules/enrollment/service.js';

const NOW = Date.UTC(2025, 5, 20, 12, 0, 0);
const DAY_MS = 24 * 3_600_000;

describe('demo data seed', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let first: DemoSeedResult;
  let second: DemoSeedResult;

  const count = async (table: 'members' | 'comments' | 'comment_votes') => {
    const row = await handle.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl, poolSize: 2 });
    await migrateToLatest(handle);
    first = await seedDemo(handle.db, { now: NOW });
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it('adds a dozen members without PINs', async () => {
    expect(first).toMatchObject({ skipped: false, members: 12, membersAdded: 12 });
    expect(await count('members')).toBeGreaterThanOrEqual(12);
    const members = await handle.db.selectFrom('members').select(['full_name', 'pin_hash', 'role']).execute();
    expect(members.map((member) => member.full_name).sort()).toEqual(Object.values(DEMO_MEMBERS).map((member) => member.name).sort());
    expect(members.every((member) => member.pin_hash === null && member.role === 'member')).toBe(true);
  });

  it('adds a few hundred comments and proposals by every member, over at least 15 real components', async () => {
    const comments = await handle.db.selectFrom('comments').select(['component_id', 'kind', 'member_name', 'content', 'created_at']).execute();
    expect(comments.length).toBeGreaterThanOrEqual(200);
    expect(comments.length).toBe(first.comments);
    const components = new Set(comments.map((comment) => comment.component_id));
    expect(components.size).toBeGreaterThanOrEqual(15);
    expect(first.components).toBe(components.size);
    const commentable = commentableComponentIds(loadArchitecture());
    expect([...components].filter((id) => !commentable.has(id))).toEqual([]);

    const proposals = comments.filter((comment) => comment.kind === 'proposal');
    expect(proposals.length).toBe(first.proposals);
    expect(proposals.length).toBeGreaterThanOrEqual(30);
    expect(proposals.length).toBeLessThan(comments.length / 2);
    for (const word of ['Replace', 'Rename', 'Clarify', 'Add']) {
      expect(proposals.some((proposal) => proposal.content.startsWith(word)), word).toBe(true);
    }
    expect(new Set(comments.map((comment) => comment.member_name)).size).toBe(12);
    expect(new Set(comments.map((comment) => comment.content)).size).toBe(comments.length);
    expect(comments.every((comment) => comment.content.trim() === comment.content && comment.content.length <= 5000)).toBe(true);
  });

  it('dates them over the last three weeks', async () => {
    const comments = await handle.db.selectFrom('comments').select('created_at').execute();
    const times = comments.map((comment) => comment.created_at);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW - 21 * DAY_MS);
    expect(Math.max(...times)).toBeLessThan(NOW);
    // Spread, not bunched: every week of the three has comments.
    for (let week = 0; week < 3; week += 1) {
      const start = NOW - (3 - week) * 7 * DAY_MS;
      expect(times.some((time) => time >= start && time < start + 7 * DAY_MS), `week ${week + 1}`).toBe(true);
    }
  });

  it('adds votes: most comments get a few, the disagreements both up and down, nobody votes twice or on their own comment', async () => {
    expect(await count('comment_votes')).toBeGreaterThanOrEqual(300);
    expect(await count('comment_votes')).toBe(first.votes);
    const votes = await handle.db
      .selectFrom('comment_votes')
      .innerJoin('comments', 'comments.id', 'comment_votes.comment_id')
      .select(['comment_votes.comment_id', 'comment_votes.member_id', 'comment_votes.vote_type', 'comment_votes.created_at', 'comments.member_id as author_id', 'comments.created_at as commented_at'])
      .execute();
    expect(votes.filter((vote) => vote.member_id === vote.author_id)).toEqual([]);
    expect(new Set(votes.map((vote) => `${vote.comment_id}:${vote.member_id}`)).size).toBe(votes.length);
    expect(votes.every((vote) => vote.created_at >= vote.commented_at && vote.created_at <= NOW)).toBe(true);

    const perComment = votersOf(votes);
    expect(perComment.size).toBeGreaterThan(first.comments * 0.8);
    const controversial = [...perComment.values()].filter((voters) => voters.up.length >= 2 && voters.down.length >= 2);
    expect(controversial.length).toBeGreaterThanOrEqual(20);
    const downs = votes.filter((vote) => vote.vote_type === 'thumbs_down').length;
    expect(downs).toBeGreaterThan(votes.length * 0.1);
    expect(downs).toBeLessThan(votes.length * 0.4);
  });

  it('issues one working enrollment link per demo member without a PIN, and prints them', async () => {
    const links = await issueDemoEnrollmentLinks(handle.db, 'http://review.test/', NOW);
    expect(links.map((link) => link.name)).toEqual(Object.values(DEMO_MEMBERS).map((member) => member.name).sort((a, b) => a.localeCompare(b)));
    for (const link of links) {
      expect(link.url).toMatch(/^http:\/\/review\.test\/enroll\/[A-Za-z0-9_-]{43}$/);
      const member = await memberOfEnrollment(handle.db, link.url.split('/').at(-1), NOW);
      expect(member?.full_name).toBe(link.name);
    }
    const printed = describeEnrollmentLinks(links).split('\n');
    expect(printed[0]).toMatch(/^Enrollment links, one per member \(each works once, until 2025-06-23T12:00:00\.000Z\)/);
    expect(printed.slice(1, -1)).toEqual(links.map((link) => `  ${link.name}: ${link.url}`));
    expect(printed.at(-1)).toBe('A new link for a member: npm run admin -- enrollment-link "Full Name"');
    expect(describeEnrollmentLinks(undefined)).toContain('npm run admin -- enrollment-link "Full Name"');
    expect(describeEnrollmentLinks([])).toBe('Every demo member has a PIN already.');
  });

  it('adds nothing when run again, and says so', async () => {
    const before = { members: await count('members'), comments: await count('comments'), votes: await count('comment_votes') };
    second = await seedDemo(handle.db, { now: NOW + DAY_MS });
    expect(second).toMatchObject({ skipped: true, membersAdded: 0, votes: 0, comments: before.comments });
    expect({ members: await count('members'), comments: await count('comments'), votes: await count('comment_votes') }).toEqual(before);
    expect(describeSeed(second, 'the test database')).toMatch(/already .*nothing was added/);
    expect(describeSeed(first, 'the test database')).toMatch(/^Demo data added to the test database: 12 team members, \d+ comments \(\d+ of them change proposals\) and \d+ votes over \d+ components, dated 2025-05-\d\d to 2025-06-\d\d\./);
  });

  it('is deterministic: the same seed writes the same review', async () => {
    const other = await createTestDatabase();
    const otherHandle = openDatabase({ dataDir: other.dataDir, databaseUrl: other.databaseUrl, poolSize: 2 });
    try {
      await migrateToLatest(otherHandle);
      await seedDemo(otherHandle.db, { now: NOW });
      const snapshot = (db: DatabaseHandle['db']) =>
        db
          .selectFrom('comments')
          .leftJoin('comment_votes', 'comment_votes.comment_id', 'comments.id')
          .select(['comments.component_id', 'comments.member_name', 'comments.created_at', 'comment_votes.member_name as voter', 'comment_votes.vote_type'])
          .orderBy('comments.created_at')
          .orderBy('comments.id')
          .orderBy('comment_votes.member_name')
          .execute();
      expect(await snapshot(otherHandle.db)).toEqual(await snapshot(handle.db));
    } finally {
      await otherHandle.close();
      await other.drop();
    }
  });
});

describe('npm run seed:demo', () => {
  it('seeds the database of DATA_DIR / DATABASE_URL, prints a summary, and adds nothing the second time', async () => {
    const database = await createTestDatabase();
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', path.resolve('src/server/seed/demo.ts')], {
        env: { PATH: process.env.PATH, DATA_DIR: database.dataDir, ...(database.databaseUrl === undefined ? {} : { DATABASE_URL: database.databaseUrl }) },
        timeout: 30_000,
      });
    try {
      const firstRun = await run();
      expect(firstRun.stdout).toMatch(/^Demo data added to the (SQLite database in .+|PostgreSQL database of DATABASE_URL): 12 team members, \d{3} comments/);
      expect(firstRun.stdout).toContain('No PINs are set: each member creates one by opening their enrollment link');
      expect(firstRun.stdout).not.toContain('postgres://');
      // One link per member, on this machine's address without PUBLIC_URL.
      const links = firstRun.stdout.split('\n').filter((line) => /^ {2}.+: http:\/\/localhost:\d+\/enroll\/[A-Za-z0-9_-]{43}$/.test(line));
      expect(links).toHaveLength(12);
      const secondRun = await run();
      expect(secondRun.stdout).toMatch(
        /^Demo data is already in .*: the 12 demo members have \d{3} comments, so nothing was added\.\nA demo member without a PIN creates one with an enrollment link; print one with: npm run admin -- enrollment-link "Full Name"\n$/,
      );
    } finally {
      await database.drop();
    }
  });
});
