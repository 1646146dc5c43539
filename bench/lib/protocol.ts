import { z } from 'zod';

const componentShareSchema = z.object({ componentId: z.string(), comments: z.number().int(), votes: z.number().int() });

/** The one JSON line bench/server.ts prints on stdout once both servers listen. */
export const readyLineSchema = z.object({
  appPort: z.number().int().positive(),
  baselinePort: z.number().int().positive(),
  clientDir: z.string().nullable(),
  dialect: z.enum(['sqlite', 'postgres']),
  logging: z.string(),
  /** The bench member's sign-in: throwaway values of this run, never written to the results. */
  signIn: z.object({ name: z.string(), password: z.string(), pin: z.string() }),
  /** An admin seeded beside it, with the same PIN, for the admin panel's Lighthouse runs: throwaway values too. */
  adminSignIn: z.object({ name: z.string(), password: z.string(), pin: z.string() }),
  /** argon2id as configured by the app, timed in the server process before it listens. */
  argon2: z.object({
    /** One hashPin (the seeded member's PIN). */
    hashMs: z.number().positive(),
    /** Median of several verifyPin calls, the check every correct login makes. */
    verifyMs: z.number().positive(),
    verifySamples: z.number().int().positive(),
    /** How many hashes can run at once: the smaller of the cores and libuv's thread pool. */
    parallel: z.number().int().positive(),
    cores: z.number().int().positive(),
    threadPoolSize: z.number().int().positive(),
  }),
  /** The generated comment data set (lib/comment-data.ts) and what the comment scenarios need. */
  comments: z.object({
    generationMs: z.number().nonnegative(),
    phasesMs: z.object({ clear: z.number(), members: z.number(), comments: z.number(), votes: z.number(), analyze: z.number() }),
    members: z.number().int(),
    comments: z.number().int(),
    votes: z.number().int(),
    components: z.number().int(),
    typical: componentShareSchema,
    largest: componentShareSchema,
    busiest: componentShareSchema,
    postComponentId: z.string(),
    contentLength: z.object({ min: z.number(), mean: z.number(), max: z.number() }),
    cleared: z.number().int(),
    /** The baseline route answering, from memory, the bytes of the app's typical GET …/with-votes. */
    sameBytes: z.object({ path: z.string(), bytes: z.number().int().positive(), sha256: z.string(), contentType: z.string() }),
    /** Baseline route reporting row counts and the bench member's new comments (the POST check). */
    auditPath: z.string(),
  }),
  /** The generated activity data set (lib/activity-data.ts); null when no selected scenario needs it. */
  activity: z
    .object({
      generationMs: z.number().nonnegative(),
      phasesMs: z.object({ clear: z.number(), log: z.number(), time: z.number(), members: z.number(), commit: z.number(), analyze: z.number() }),
      logRows: z.number().int(),
      byType: z.object({ login: z.number().int(), page_view: z.number().int(), comment_added: z.number().int(), vote_cast: z.number().int(), suggestions_generated: z.number().int() }),
      timeRows: z.number().int(),
      members: z.number().int(),
      days: z.number().int(),
      busiestMember: z.object({ name: z.string(), logRows: z.number().int(), activeDays: z.number().int() }),
      cleared: z.number().int(),
      /** Baseline routes `<sqlTracePath>/start` and `<sqlTracePath>/stop` (lib/sql-trace.ts): the statements the app ran in between. */
      sqlTracePath: z.string(),
    })
    .nullable(),
});

/** GET <sqlTracePath>/stop on the baseline port. */
export const sqlTraceSchema = z.array(z.object({ sql: z.string(), ms: z.number().nullable() }));

/** GET <auditPath>?componentId=…&afterId=… on the baseline port. */
export const commentAuditSchema = z.object({
  /** count(*) and count(distinct id) of the whole comments table. */
  total: z.number().int(),
  distinctIds: z.number().int(),
  /** The highest comment id in the table (0 when empty). */
  maxId: z.number().int(),
  /** Ids of the bench member's comments on componentId with an id above afterId. */
  newIds: z.array(z.number().int()),
  /** How many distinct contents those comments have (each POST body carries a unique tag). */
  newDistinctContents: z.number().int(),
});
export type CommentAudit = z.infer<typeof commentAuditSchema>;

export type ReadyLine = z.infer<typeof readyLineSchema>;

/** req/s that argon2id alone allows: as many verifications at once as it has threads for. */
export function argon2BoundPerSecond(argon2: ReadyLine['argon2']): number {
  return (argon2.parallel * 1000) / argon2.verifyMs;
}

/** Environment the orchestrator hands to bench/server.ts. */
export const BENCH_SERVER_ENV = {
  dataDir: 'BENCH_DATA_DIR',
  databaseUrl: 'BENCH_DATABASE_URL',
  clientDir: 'BENCH_CLIENT_DIR',
  /** '1': generate the activity data set too (only the analytics scenarios need it). */
  activityData: 'BENCH_ACTIVITY_DATA',
  /** '1': the app trusts loopback proxies, so the per-address connection cap is off (the mixed load's hundreds of connections from one address). */
  trustProxy: 'BENCH_TRUST_PROXY',
  /** '1': a second instance of the app on the same PostgreSQL database: no seeding, no data, no baseline (replicaReadyLineSchema). */
  replica: 'BENCH_REPLICA',
} as const;

/** The one JSON line a replica (BENCH_REPLICA=1) prints once it listens. */
export const replicaReadyLineSchema = z.object({ appPort: z.number().int().positive(), dialect: z.enum(['sqlite', 'postgres']) });
export type ReplicaReadyLine = z.infer<typeof replicaReadyLineSchema>;

/** The session cookie on plain http (behind HTTPS it is `__Host-biggy_session`). */
export const SESSION_COOKIE = 'biggy_session';
