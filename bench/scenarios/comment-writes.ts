/** POST /api/comments: the write path, with a check that every 201 stored exactly one row. */
import { z } from 'zod';
import type { LoadResult } from '../lib/load.js';
import { parseJson } from '../lib/output.js';
import { probe } from '../lib/processes.js';
import { commentAuditSchema, type CommentAudit, type ReadyLine } from '../lib/protocol.js';
import type { PostVerification } from '../lib/results.js';
import { SETTINGS } from '../lib/settings.js';
import { p99Problems, signedInCookie, unexpected, type Scenario, type Verifier } from '../lib/scenario.js';
import { fixed, thousands } from '../lib/table.js';

export const COMMENT_WRITE_TARGETS = { postP99Ms: 25 } as const;

/** ~200 characters with a tag autocannon replaces by a unique id on every request. */
const POST_CONTENT =
  'Bench: posted under load to check that every accepted comment is stored exactly once. Unique tag [<id>]. ' +
  'The rest of the text only gives it the length of an ordinary review comment.';

const createdCommentSchema = z.object({ id: z.number().int().positive(), componentId: z.string() });

/** An id above every row of a 32-bit integer column. */
const INT32_MAX = 2 ** 31 - 1;

async function fetchAudit(ready: ReadyLine, componentId: string, afterId: number): Promise<CommentAudit> {
  const query = new URLSearchParams({ componentId, afterId: String(afterId) });
  const response = await probe(ready.baselinePort, `${ready.comments.auditPath}?${query.toString()}`, 30_000);
  const parsed = commentAuditSchema.safeParse(parseJson(response?.body ?? ''));
  if (response?.status !== 200 || !parsed.success) throw new Error(`the comment audit failed (${response === undefined ? 'no response' : unexpected(response)})`);
  return parsed.data;
}

/** Compares the rows added, their ids and contents with the 201 answers autocannon recorded (warm-up included). */
function postVerifier(ready: ReadyLine): Verifier {
  const componentId = ready.comments.postComponentId;
  const responseIds: number[] = [];
  let unreadable = 0;
  let before: CommentAudit | undefined;
  return {
    loadOptions: {
      bounded: { warmUpRequestsPerConnection: 25, minRequestsPerConnection: 25, maxRequestsPerConnection: 5000 },
      idReplacement: true,
      onResponse: (status, body) => {
        if (status !== 201) return;
        const parsed = createdCommentSchema.safeParse(parseJson(body));
        if (parsed.success) responseIds.push(parsed.data.id);
        else unreadable += 1;
      },
    },
    before: async () => {
      before = await fetchAudit(ready, componentId, INT32_MAX);
    },
    after: async (load) => {
      if (before === undefined) throw new Error('the POST check has no count from before the load');
      const after = await fetchAudit(ready, componentId, before.maxId);
      const warmUp201 = load.warmUp.statusCodes['201'] ?? 0;
      const recorded201 = warmUp201 + (load.statusCodes['201'] ?? 0);
      const rowsAdded = after.total - before.total;
      const unique = new Set(responseIds);
      const rows = new Set(after.newIds);
      const idsMatchRows = unique.size === rows.size && [...unique].every((id) => rows.has(id));
      const problems: string[] = [];
      if (rowsAdded !== recorded201) problems.push(`${rowsAdded} rows added for ${recorded201} 201 answers (${rowsAdded > recorded201 ? 'duplicated or unanswered' : 'lost'} rows)`);
      if (after.newIds.length !== recorded201) problems.push(`${after.newIds.length} new rows of the bench member on ${componentId} for ${recorded201} 201 answers`);
      if (after.newDistinctContents !== after.newIds.length) problems.push(`${after.newIds.length - after.newDistinctContents} requests stored more than once`);
      if (after.distinctIds !== after.total) problems.push(`${after.total - after.distinctIds} duplicate ids in the comments table`);
      if (responseIds.length + unreadable !== recorded201) problems.push(`${responseIds.length + unreadable} 201 bodies seen for ${recorded201} 201 answers counted`);
      if (unreadable > 0) problems.push(`${unreadable} 201 answers without a comment id`);
      if (unique.size !== responseIds.length) problems.push(`${responseIds.length - unique.size} ids answered twice`);
      if (!idsMatchRows) problems.push('the ids answered are not the ids of the new rows');
      return {
        componentId,
        recorded201,
        warmUp201,
        rowsBefore: before.total,
        rowsAfter: after.total,
        rowsAdded,
        newRows: after.newIds.length,
        newDistinctContents: after.newDistinctContents,
        tableIdsUnique: after.distinctIds === after.total,
        responseIds: responseIds.length,
        uniqueResponseIds: unique.size,
        idsMatchRows,
        problems,
      };
    },
  };
}

function describeVerification(verification: PostVerification, load: LoadResult): string {
  const v = verification;
  return (
    `rows: ${thousands(v.rowsBefore)} → ${thousands(v.rowsAfter)} (+${thousands(v.rowsAdded)}) for ${thousands(v.recorded201)} 201 answers ` +
    `(warm-up ${thousands(v.warmUp201)} + measured ${thousands(load.statusCodes['201'] ?? 0)}); ${thousands(v.responseIds)} ids in the answers, ` +
    `${thousands(v.uniqueResponseIds)} distinct, ${v.idsMatchRows ? 'the same set as' : 'NOT the same set as'} the ${thousands(v.newRows)} new rows ` +
    `(${thousands(v.newDistinctContents)} distinct contents); ids unique in the table: ${v.tableIdsUnique ? 'yes' : 'NO'}`
  );
}

export const COMMENT_WRITE_SCENARIO: Scenario = {
  name: 'POST /api/comments (signed in)',
  method: 'POST',
  path: '/api/comments',
  server: 'app',
  connections: SETTINGS.commentConnections,
  durationSeconds: SETTINGS.durationSeconds,
  prepare: async (ready) => ({
    headers: { cookie: await signedInCookie(ready), 'content-type': 'application/json' },
    body: JSON.stringify({ componentId: ready.comments.postComponentId, content: POST_CONTENT }),
  }),
  expect: (response) => (response.status === 201 && createdCommentSchema.safeParse(parseJson(response.body)).success ? undefined : unexpected(response)),
  verifier: postVerifier,
  judge: (load, { verification }) => {
    const { postP99Ms } = COMMENT_WRITE_TARGETS;
    const problems = [...p99Problems(load, postP99Ms), ...(verification === undefined ? ['the rows were not checked'] : verification.problems)];
    return {
      target: `p99 < ${postP99Ms} ms at ${SETTINGS.commentConnections} connections; rows = 201s`,
      gated: true,
      problems,
      notes: verification === undefined ? [] : [describeVerification(verification, load)],
      measured:
        `${thousands(load.requestsPerSecond)} req/s, p99 ${fixed(load.latencyMs.p99, 2)} ms; ` +
        (verification === undefined ? 'rows not checked' : `+${thousands(verification.rowsAdded)} rows for ${thousands(verification.recorded201)} 201s`),
    };
  },
};
