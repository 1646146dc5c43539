/**
 * The comment scenarios' data set (its shape: bench/README.md), written in bulk through the app's
 * own Kysely handle before the bench server listens. Seeded: only the ids and the dates' anchor
 * (the time of the run) change between runs.
 */
import { sql, type Kysely } from 'kysely';
import type { VoteType } from '../../src/common/contract/comments.js';
import type { Database } from '../../src/server/db/schema.js';
import { prng } from '../../src/server/seed/random.js';
import { SEEDS } from './random.js';

export const COMMENT_DATA_TARGETS = {
  comments: 50_000,
  votes: 250_000,
  members: 200,
  typical: { comments: 50, votes: 250 },
  largest: { comments: 500, votes: 2_500 },
  /** Length of every generated comment, in characters. */
  minLength: 50,
  maxLength: 600,
} as const;

/** Preferred components for each role (central ones of the diagram); any commentable id will do. */
const PREFERRED = { typical: 'event-correlation', largest: 'agentic-triage', post: 'ai-chat-interface' } as const;

/** Rows per INSERT statement, and per transaction (a few thousand, one commit each). */
const COMMENT_ROWS_PER_STATEMENT = 500;
const VOTE_ROWS_PER_STATEMENT = 1_000;
const ROWS_PER_TRANSACTION = 2_500;

const DAY_MS = 24 * 3_600_000;
const SPAN_DAYS = 21;

export interface ComponentShare {
  componentId: string;
  comments: number;
  votes: number;
}

export interface CommentDataSummary {
  generationMs: number;
  /** Split of generationMs: members, comments, votes, ANALYZE (PostgreSQL only). */
  phasesMs: { clear: number; members: number; comments: number; votes: number; analyze: number };
  members: number;
  comments: number;
  votes: number;
  components: number;
  typical: ComponentShare;
  largest: ComponentShare;
  /** The component with the most comments in the data set (one of "the rest"). */
  busiest: ComponentShare;
  /** Where the POST scenario adds its comments: neither the typical nor the largest component. */
  postComponentId: string;
  contentLength: { min: number; mean: number; max: number };
  /** Comments removed first: a PostgreSQL bench database keeps the previous run's data. */
  cleared: number;
}

const FIRST_NAMES = [
  'Amara', 'Bruno', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiroshi', 'Ines', 'Jonas',
  'Kavya', 'Liam', 'Mei', 'Nikolai', 'Olivia', 'Pedro', 'Quinn', 'Rosa', 'Samir', 'Tess',
] as const;
const LAST_NAMES = ['Abbott', 'Brennan', 'Castillo', 'Dubois', 'Eriksen', 'Fontaine', 'Gallagher', 'Hoffmann', 'Iqbal', 'Jaramillo'] as const;

/** 200 distinct full names ("Amara Abbott" …), valid member names (letters and one space). */
export function generatedMemberNames(count: number): string[] {
  const names: string[] = [];
  for (const last of LAST_NAMES) {
    for (const first of FIRST_NAMES) names.push(`${first} ${last}`);
  }
  if (count > names.length) throw new Error(`only ${names.length} generated member names are available`);
  return names.slice(0, count);
}

/** What an operations team writes about an architecture; texts are cut from these at word boundaries. */
const SENTENCES = [
  'The dedup window of five minutes looks too short for flapping network links; we saw the same alert fire nine times last Tuesday.',
  'Who owns the runbook once the agent proposes a remediation, the service team or the on-call SRE?',
  'I would like the confidence score shown next to every automated action so that responders can judge it quickly.',
  'Correlating on topology alone misses the change events; the last three major incidents all started with a deploy.',
  'We need an explicit rollback path here, ideally one click, and the audit trail has to record who approved it.',
  'Latency budget: the enrichment step cannot add more than two seconds or the page goes out after the customer notices.',
  'Proposal: route low-severity incidents to a queue that the agent drains during business hours instead of paging anyone.',
  'How does this behave when the knowledge graph is stale, for example right after a migration of the service catalogue?',
  'Agree with the direction, but the blast-radius estimate should include downstream batch jobs, not only online services.',
  'Can we keep the raw events for thirty days? Post-incident reviews regularly need more than the summarised timeline.',
  'The approval step must support a second approver for production databases; that is a hard requirement from compliance.',
  'This box hides a lot of complexity: the connectors fail in different ways and each needs its own retry policy.',
  'Suggest we measure mean time to acknowledge before and after the pilot, otherwise we cannot tell if it helped.',
  'Noise removal should never drop a security event, even a duplicate; those go to the SOC feed untouched.',
  'I like that humans can start an incident from chat, but the form must still capture impact and affected services.',
  'We tried something similar with rules in the old tool and it became unmaintainable after about four hundred rules.',
  'The triage agent needs read access to the deployment history, which today lives in two different systems.',
  'For regulated services the verification step should attach evidence automatically: graphs, logs and the change ticket.',
  'Minor: the wording on this card says real time, but the pipeline is batched every thirty seconds as far as I know.',
  'Could the prevention feedback loop open tickets against the owning team with a suggested fix and a due date?',
  'We should define what happens when two automations target the same host at the same time; a lock is the minimum.',
  'Escalation paths differ per region and per time zone, so the engagement logic cannot assume a single on-call rota.',
  'Plus one. This matches what the database team asked for during the last quarterly review.',
  'Before we automate this we need a dry-run mode that shows exactly which commands would have been executed.',
  'The root cause suggestions should link to the evidence they are based on, otherwise nobody will trust them.',
  'I am worried about alert fatigue moving from humans to the agent: what is the budget for agent actions per hour?',
  'Please add the customer-facing status page to the outcome phase; communication is half of incident handling.',
  'Operational history is only useful if incidents are tagged consistently; maybe the agent can propose the tags.',
] as const;

/**
 * A comment of `length` characters at most and at least minLength, cut at a word boundary from
 * sentences picked at random, ending with a full stop.
 */
function commentText(random: () => number, target: number): string {
  const words: string[] = [];
  let length = 0;
  for (;;) {
    const sentence = SENTENCES[Math.floor(random() * SENTENCES.length)] ?? SENTENCES[0];
    for (const word of sentence.split(' ')) {
      const added = length === 0 ? word.length : word.length + 1;
      if (length + added > target - 1 && length >= COMMENT_DATA_TARGETS.minLength) {
        const text = words.join(' ');
        return /[.!?]$/.test(text) ? text : `${text.replace(/[,;:]$/, '')}.`;
      }
      words.push(word);
      length += added;
    }
  }
}

/** Lengths skewed towards short comments, as in real reviews: 50–600 characters, mean ~250. */
function targetLength(random: () => number): number {
  const { minLength, maxLength } = COMMENT_DATA_TARGETS;
  return minLength + 12 + Math.floor((maxLength - minLength - 12) * random() ** 1.6);
}

/** Splits `total` over `parts` as evenly as possible (the first ones get the remainder). */
function evenSplit(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, index) => Math.floor(total / parts) + (index < total % parts ? 1 : 0));
}

/**
 * Splits `total` votes over comments with skewed weights (a few popular comments, many with one or
 * two votes), each at most `cap`: exactly `total` in all.
 */
function voteCounts(random: () => number, comments: number, total: number, cap: number): number[] {
  if (total > comments * cap) throw new Error(`${total} votes do not fit on ${comments} comments of at most ${cap} voters`);
  const weights = Array.from({ length: comments }, () => (-Math.log(1 - random())) ** 1.5);
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((weight) => Math.min(cap, Math.floor((total * weight) / sum)));
  let left = total - counts.reduce((a, b) => a + b, 0);
  // Whatever rounding and the cap left over, one at a time to random comments with room.
  while (left > 0) {
    const index = Math.floor(random() * comments);
    if ((counts[index] ?? cap) < cap) {
      counts[index] = (counts[index] ?? 0) + 1;
      left -= 1;
    }
  }
  return counts;
}

function pick(ids: readonly string[], preferred: string, taken: ReadonlySet<string>): string {
  if (ids.includes(preferred) && !taken.has(preferred)) return preferred;
  const other = ids.find((id) => !taken.has(id));
  if (other === undefined) throw new Error('not enough commentable components for the comment scenarios');
  return other;
}

export interface GenerateOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  commentableIds: ReadonlySet<string>;
  /** The app's addMember (built), so generated members are made like real ones. */
  addMember: (db: Kysely<Database>, name: string) => Promise<{ fullName: string }>;
  /** Members whose earlier comments are removed before generating (the bench member). */
  alsoClearMemberIds: readonly number[];
  now?: number;
}

interface PlannedComment {
  component_id: string;
  kind: 'comment' | 'proposal';
  content: string;
  member_id: number;
  member_name: string;
  created_at: number;
}

interface VoteInsert {
  comment_id: number;
  member_id: number;
  member_name: string;
  vote_type: VoteType;
  created_at: number;
}

export async function generateCommentData(options: GenerateOptions): Promise<CommentDataSummary> {
  const started = performance.now();
  const { db } = options;
  const now = options.now ?? Date.now();
  const random = prng(SEEDS.commentData);
  const T = COMMENT_DATA_TARGETS;
  const phase = () => {
    let last = performance.now();
    return () => {
      const current = performance.now();
      const elapsed = current - last;
      last = current;
      return Math.round(elapsed);
    };
  };
  const lap = phase();

  const ids = [...options.commentableIds].sort();
  const taken = new Set<string>();
  const typicalId = pick(ids, PREFERRED.typical, taken);
  taken.add(typicalId);
  const largestId = pick(ids, PREFERRED.largest, taken);
  taken.add(largestId);
  const rest = ids.filter((id) => !taken.has(id));
  if (rest.length === 0) throw new Error('the comment data set needs at least three commentable components');
  const postComponentId = pick(rest, PREFERRED.post, new Set());

  // Members first (the app's addMember, in one transaction), then their ids.
  const names = generatedMemberNames(T.members);
  await db.transaction().execute(async (trx) => {
    for (const name of names) await options.addMember(trx, name);
  });
  const memberRows = await db.selectFrom('members').select(['id', 'full_name']).where('full_name', 'in', names).orderBy('id').execute();
  if (memberRows.length !== T.members) throw new Error(`expected ${T.members} generated members, found ${memberRows.length}`);
  const membersMs = lap();

  // A PostgreSQL bench database keeps the previous run's rows: remove what the bench wrote, then
  // insist on an empty table, since the shape below must be exact.
  const clearIds = [...memberRows.map((member) => member.id), ...options.alsoClearMemberIds];
  const cleared = await db.deleteFrom('comments').where('member_id', 'in', clearIds).executeTakeFirst();
  const left = await db.selectFrom('comments').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  if (Number(left.count) > 0) {
    throw new Error(
      `the bench database already holds ${Number(left.count)} comments not written by the bench; point BENCH_DATABASE_URL at a database of its own`,
    );
  }
  const clearMs = lap();

  // Which component gets how many comments and votes.
  const restComments = evenSplit(T.comments - T.typical.comments - T.largest.comments, rest.length);
  const restVotes = evenSplit(T.votes - T.typical.votes - T.largest.votes, rest.length);
  const shares: ComponentShare[] = [
    { componentId: typicalId, comments: T.typical.comments, votes: T.typical.votes },
    { componentId: largestId, comments: T.largest.comments, votes: T.largest.votes },
    ...rest.map((componentId, index) => ({ componentId, comments: restComments[index] ?? 0, votes: restVotes[index] ?? 0 })),
  ];

  // Every comment, then inserted oldest first (ids grow with time, as in real use).
  const planned: PlannedComment[] = [];
  let lengthSum = 0;
  let minLength = Number.POSITIVE_INFINITY;
  let maxLength = 0;
  for (const share of shares) {
    for (let index = 0; index < share.comments; index += 1) {
      const member = memberRows[Math.floor(random() * memberRows.length)] ?? memberRows[0];
      if (member === undefined) throw new Error('no generated members');
      const content = commentText(random, targetLength(random));
      if (content.length < T.minLength || content.length > T.maxLength) throw new Error(`generated a comment of ${content.length} characters`);
      lengthSum += content.length;
      minLength = Math.min(minLength, content.length);
      maxLength = Math.max(maxLength, content.length);
      planned.push({
        component_id: share.componentId,
        kind: random() < 0.12 ? 'proposal' : 'comment',
        content,
        member_id: member.id,
        member_name: member.full_name,
        created_at: now - Math.floor(random() * SPAN_DAYS * DAY_MS) - 60_000,
      });
    }
  }
  planned.sort((a, b) => a.created_at - b.created_at);

  const inserted: { id: number; component_id: string; member_id: number; created_at: number }[] = [];
  for (let offset = 0; offset < planned.length; offset += ROWS_PER_TRANSACTION) {
    const batch = planned.slice(offset, offset + ROWS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < batch.length; start += COMMENT_ROWS_PER_STATEMENT) {
        const rows = await trx
          .insertInto('comments')
          .values(batch.slice(start, start + COMMENT_ROWS_PER_STATEMENT))
          .returning(['id', 'component_id', 'member_id', 'created_at'])
          .execute();
        inserted.push(...rows);
      }
    });
  }
  if (inserted.length !== T.comments) throw new Error(`inserted ${inserted.length} comments, expected ${T.comments}`);
  const commentsMs = lap();

  // Votes: each component's exact total over its comments, distinct voters per comment (the
  // (comment, member) primary key), never the author.
  const byComponent = new Map<string, typeof inserted>();
  for (const row of inserted) {
    const list = byComponent.get(row.component_id);
    if (list === undefined) byComponent.set(row.component_id, [row]);
    else list.push(row);
  }
  const pool = [...memberRows];
  const votes: VoteInsert[] = [];
  for (const share of shares) {
    const comments = byComponent.get(share.componentId) ?? [];
    const counts = voteCounts(random, comments.length, share.votes, pool.length - 1);
    comments.forEach((comment, index) => {
      const count = counts[index] ?? 0;
      const approval = 0.55 + random() * 0.4;
      let chosen = 0;
      // Partial Fisher–Yates over the member pool: distinct voters, skipping the author.
      for (let slot = 0; chosen < count && slot < pool.length; slot += 1) {
        const swap = slot + Math.floor(random() * (pool.length - slot));
        const voter = pool[swap];
        const current = pool[slot];
        if (voter === undefined || current === undefined) break;
        pool[swap] = current;
        pool[slot] = voter;
        if (voter.id === comment.member_id) continue;
        votes.push({
          comment_id: comment.id,
          member_id: voter.id,
          member_name: voter.full_name,
          vote_type: random() < approval ? 'thumbs_up' : 'thumbs_down',
          created_at: Math.min(now, comment.created_at + Math.floor(random() * 3 * DAY_MS)),
        });
        chosen += 1;
      }
      if (chosen !== count) throw new Error(`could only find ${chosen} of ${count} voters for a comment`);
    });
  }
  votes.sort((a, b) => a.created_at - b.created_at);
  for (let offset = 0; offset < votes.length; offset += ROWS_PER_TRANSACTION) {
    const batch = votes.slice(offset, offset + ROWS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      if (options.dialect === 'postgres') {
        // Five array parameters rather than 5,000 VALUES parameters a statement: markedly faster.
        await sql`insert into comment_votes (comment_id, member_id, member_name, vote_type, created_at)
          select * from unnest(${batch.map((vote) => vote.comment_id)}::integer[], ${batch.map((vote) => vote.member_id)}::integer[],
            ${batch.map((vote) => vote.member_name)}::varchar[], ${batch.map((vote) => vote.vote_type)}::varchar[], ${batch.map((vote) => vote.created_at)}::bigint[])`.execute(trx);
        return;
      }
      for (let start = 0; start < batch.length; start += VOTE_ROWS_PER_STATEMENT) {
        await trx
          .insertInto('comment_votes')
          .values(batch.slice(start, start + VOTE_ROWS_PER_STATEMENT))
          .execute();
      }
    });
  }
  if (votes.length !== T.votes) throw new Error(`inserted ${votes.length} votes, expected ${T.votes}`);
  const votesMs = lap();

  // Tables as production has them: autovacuum would soon analyse PostgreSQL's, and vacuum away the
  // previous run's deleted rows (hundreds of thousands of dead index entries every read would step
  // over, and a vacuum that would otherwise start in the middle of a measurement). The app never
  // analyses SQLite.
  if (options.dialect === 'postgres') {
    await sql`vacuum (analyze) comments, comment_votes`.execute(db);
  }
  const analyzeMs = lap();

  const busiest = shares.slice(2).reduce((top, share) => (share.comments > top.comments ? share : top));
  return {
    generationMs: Math.round(performance.now() - started),
    phasesMs: { clear: clearMs, members: membersMs, comments: commentsMs, votes: votesMs, analyze: analyzeMs },
    members: memberRows.length,
    comments: inserted.length,
    votes: votes.length,
    components: shares.length,
    typical: shares[0] ?? { componentId: typicalId, comments: 0, votes: 0 },
    largest: shares[1] ?? { componentId: largestId, comments: 0, votes: 0 },
    busiest,
    postComponentId,
    contentLength: { min: minLength, mean: Math.round(lengthSum / Math.max(1, inserted.length)), max: maxLength },
    cleared: Number(cleared.numDeletedRows),
  };
}
