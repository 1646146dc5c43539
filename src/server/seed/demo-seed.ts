import type { Kysely } from 'kysely';
import type { VoteType } from '../../common/contract/comments.js';
import { nameKey } from '../../common/names.js';
import { commentableComponentIds, loadArchitecture } from '../content/validate.js';
import type { Database } from '../db/schema.js';
import { addMember } from '../modules/members/service.js';
import { countCommentsBy, insertComment, insertCommentVotes } from '../modules/comments/repo.js';
import { findMembersByKeys } from '../modules/members/repo.js';
import { issueEnrollmentLink } from '../modules/enrollment/service.js';
import { DEMO_THREADS, type DemoEntry } from './demo-comments.js';
import { DEMO_MEMBERS, type DemoMemberKey } from './demo-members.js';
import { prng } from './random.js';

export interface DemoSeedResult {
  /** True when the demo members already had comments: nothing was written. */
  skipped: boolean;
  /** Demo members in the database after the run, and how many this run created. */
  members: number;
  membersAdded: number;
  /** What this run added (or, when skipped, the comments the demo members already have). */
  comments: number;
  proposals: number;
  votes: number;
  components: number;
  /** Epoch ms of the oldest and newest comment added; undefined when skipped. */
  from: number | undefined;
  to: number | undefined;
}

export interface DemoSeedOptions {
  /** The moment the three weeks of review end; defaults to now. */
  now?: number;
  /** PRNG seed: the same seed gives the same authors, order, spacing and votes. */
  seed?: number;
}

const DAY_MS = 24 * 3_600_000;
const MINUTE_MS = 60_000;
const REVIEW_DAYS = 21;

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const a = copy[i];
    const b = copy[j];
    if (a === undefined || b === undefined) continue;
    copy[i] = b;
    copy[j] = a;
  }
  return copy;
}

const between = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

/** A reply names the person it answers first ("Priya, …"): it follows its parent sooner. */
function isReply(entry: DemoEntry): boolean {
  return Object.values(DEMO_MEMBERS).some((member) => entry.text.startsWith(`${member.name.split(' ')[0] ?? ''},`));
}

/** The votes an entry gets: how many, and how many of them are thumbs down. */
function votesFor(entry: DemoEntry, random: () => number, available: number): VoteType[] {
  let count: number;
  let downShare: number;
  switch (entry.reception) {
    case 'popular':
      count = between(random, 6, 10);
      downShare = 0.05;
      break;
    case 'split':
      count = between(random, 6, 10);
      downShare = 0.45;
      break;
    case 'normal': {
      const roll = random();
      count = roll < 0.08 ? 0 : roll < 0.22 ? 1 : roll < 0.47 ? 2 : roll < 0.72 ? 3 : roll < 0.88 ? 4 : 5;
      downShare = 0.12;
      break;
    }
  }
  const votes: VoteType[] = Array.from({ length: Math.min(count, available) }, () => (random() < downShare ? 'thumbs_down' : 'thumbs_up'));
  if (entry.reception === 'split') {
    // A disagreement shows on the counts: at least two of each.
    for (let i = 0; i < votes.length; i += 1) {
      const ups = votes.filter((vote) => vote === 'thumbs_up').length;
      const downs = votes.length - ups;
      if (downs < 2 && votes[i] === 'thumbs_up') votes[i] = 'thumbs_down';
      else if (ups < 2 && votes[i] === 'thumbs_down') votes[i] = 'thumbs_up';
    }
  }
  return votes;
}

/**
 * Adds the demo team and their review: a dozen members, a few hundred comments and change
 * proposals over the architecture's components, dated over the last three weeks, with votes.
 * Deterministic for a given seed and `now`; idempotent: when the demo members already have
 * comments, it adds nothing. No PINs are set: each member creates theirs from an enrollment link.
 */
export async function seedDemo(db: Kysely<Database>, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const now = options.now ?? Date.now();
  const random = prng(options.seed ?? 20_240_521);

  const commentable = commentableComponentIds(loadArchitecture());
  const unknown = Object.keys(DEMO_THREADS).filter((id) => !commentable.has(id));
  if (unknown.length > 0) throw new Error(`demo comments name components that are not in the architecture: ${unknown.join(', ')}`);

  return db.transaction().execute(async (trx) => {
    let membersAdded = 0;
    for (const member of Object.values(DEMO_MEMBERS)) {
      if ((await addMember(trx, member.name)).created) membersAdded += 1;
    }
    const rows = await findMembersByKeys(
      trx,
      Object.values(DEMO_MEMBERS).map((member) => nameKey(member.name)),
    );
    const byKey = new Map(rows.map((row) => [row.name_key, { id: row.id, full_name: row.full_name }]));
    if (byKey.size !== Object.keys(DEMO_MEMBERS).length) throw new Error('not every demo member could be created');
    const memberOf = (key: DemoMemberKey) => {
      const member = byKey.get(nameKey(DEMO_MEMBERS[key].name));
      if (member === undefined) throw new Error(`demo member ${DEMO_MEMBERS[key].name} was not created`);
      return member;
    };
    const members = [...byKey.values()];
    const memberIds = members.map((member) => member.id);

    const existing = await countCommentsBy(trx, memberIds);
    if (existing > 0) {
      return { skipped: true, members: memberIds.length, membersAdded, comments: existing, proposals: 0, votes: 0, components: 0, from: undefined, to: undefined };
    }

    const latest = now - 10 * MINUTE_MS;
    let comments = 0;
    let proposals = 0;
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    const votes: { comment_id: number; member_id: number; member_name: string; vote_type: VoteType; created_at: number }[] = [];

    for (const [componentId, entries] of Object.entries(DEMO_THREADS)) {
      // A thread starts some time in the first two weeks and runs on from there.
      const start = now - REVIEW_DAYS * DAY_MS + Math.floor(random() * 14 * DAY_MS);
      const gaps = entries.map((entry, index) =>
        index === 0 ? 0 : isReply(entry) ? between(random, 8, 6 * 60) * MINUTE_MS : between(random, 40, 36 * 60) * MINUTE_MS,
      );
      const total = gaps.reduce((sum, gap) => sum + gap, 0);
      const scale = total > latest - start ? (latest - start) / total : 1;
      let at = start;
      for (const [index, entry] of entries.entries()) {
        at += Math.max(MINUTE_MS, Math.floor((gaps[index] ?? 0) * scale));
        const createdAt = Math.min(at, latest);
        const author = memberOf(entry.by);
        const inserted = await insertComment(trx, { componentId, kind: entry.kind, content: entry.text, memberId: author.id, memberName: author.full_name, createdAt });
        comments += 1;
        if (entry.kind === 'proposal') proposals += 1;
        from = Math.min(from, createdAt);
        to = Math.max(to, createdAt);

        const voters = shuffled(
          members.filter((member) => member.id !== author.id),
          random,
        );
        const types = votesFor(entry, random, voters.length);
        types.forEach((voteType, voter) => {
          const member = voters[voter];
          if (member === undefined) return;
          const window = Math.min(3 * DAY_MS, now - createdAt);
          votes.push({ comment_id: inserted.id, member_id: member.id, member_name: member.full_name, vote_type: voteType, created_at: createdAt + Math.floor(random() * window) });
        });
      }
    }
    await insertCommentVotes(trx, votes);
    return {
      skipped: false,
      members: memberIds.length,
      membersAdded,
      comments,
      proposals,
      votes: votes.length,
      components: Object.keys(DEMO_THREADS).length,
      from,
      to,
    };
  });
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A demo member who has no PIN yet, and the enrollment link that lets them create one. */
export interface DemoEnrollmentLink {
  name: string;
  url: string;
  expiresAt: number;
}

/**
 * Fresh enrollment links for the demo members without a PIN (the only way to create a first PIN),
 * each replacing any earlier link of the member.
 */
export async function issueDemoEnrollmentLinks(db: Kysely<Database>, publicUrl: string, now = Date.now()): Promise<DemoEnrollmentLink[]> {
  const rows = await db
    .selectFrom('members')
    .select(['id', 'full_name'])
    .where(
      'name_key',
      'in',
      Object.values(DEMO_MEMBERS).map((member) => nameKey(member.name)),
    )
    .where('pin_hash', 'is', null)
    .where('active', '=', 1)
    .orderBy('full_name')
    .execute();
  const links: DemoEnrollmentLink[] = [];
  for (const row of rows) {
    const link = await issueEnrollmentLink(db, row.id, publicUrl, now);
    links.push({ name: row.full_name, ...link });
  }
  return links;
}

/** The lines `npm run seed:demo` prints after its summary: one link per member, or how to get one. */
export function describeEnrollmentLinks(links: readonly DemoEnrollmentLink[] | undefined): string {
  if (links === undefined) {
    return 'A demo member without a PIN creates one with an enrollment link; print one with: npm run admin -- enrollment-link "Full Name"';
  }
  if (links.length === 0) return 'Every demo member has a PIN already.';
  const until = new Date(Math.min(...links.map((link) => link.expiresAt))).toISOString();
  return [
    `Enrollment links, one per member (each works once, until ${until}); opening one lets that member create their PIN:`,
    ...links.map((link) => `  ${link.name}: ${link.url}`),
    'A new link for a member: npm run admin -- enrollment-link "Full Name"',
  ].join('\n');
}

/** The one-paragraph summary `npm run seed:demo` prints. */
export function describeSeed(result: DemoSeedResult, where: string): string {
  if (result.skipped) {
    return `Demo data is already in ${where}: the ${result.members} demo members have ${result.comments} comments, so nothing was added.`;
  }
  const dates = result.from === undefined || result.to === undefined ? '' : `, dated ${day(result.from)} to ${day(result.to)}`;
  const added = result.membersAdded === result.members ? `${result.members} team members` : `${result.membersAdded} new team members (${result.members} in all)`;
  return (
    `Demo data added to ${where}: ${added}, ${result.comments} comments (${result.proposals} of them change proposals) ` +
    `and ${result.votes} votes over ${result.components} components${dates}. No PINs are set: each member creates one by ` +
    'opening their enrollment link (below) and entering the team password. Running the seed again adds nothing.'
  );
}
