import { z } from 'zod';
import type { BundleReport } from '../../scripts/bundle-size.js';
import type { AnalyzerResult } from './analyzer.js';
import type { LighthouseResult } from './lighthouse.js';
import type { LoadResult } from './load.js';
import type { MainPageResult } from './main-page.js';
import type { ReadyLine } from './protocol.js';
import type { StartupResult } from './startup.js';
import type { MixedLoadResult } from '../scenarios/mixed-load.js';

export type Status = 'PASS' | 'FAIL' | 'INFO' | 'SKIPPED';

export interface TargetResult {
  name: string;
  target: string;
  measured: string;
  status: Status;
}

export interface ScenarioResult {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  server: 'baseline' | 'app';
  load: LoadResult;
  /** req/s divided by the baseline's req/s in the same run. */
  ratioToBaseline: number;
  /** The baseline that ratio is of, when it is not the plain one (the typical comments read: its same-bytes baseline). */
  baselineName?: string;
  target: string;
  status: Status;
  /** Problems first (why it failed), then explanations printed under the table. */
  notes: string[];
  /** The targets table's "measured" text, when the scenario words it itself (login). */
  measured?: string;
  /** Login only: argon2id as timed in the server, the req/s it allows and the share of it reached. */
  argon2?: ReadyLine['argon2'] & { boundRequestsPerSecond: number; shareOfBound: number };
  /** POST /api/comments only: the rows written against the answers recorded. */
  verification?: PostVerification;
}

/** What the POST /api/comments scenario wrote, against what autocannon recorded. */
export interface PostVerification {
  componentId: string;
  /** 201 answers recorded by autocannon, warm-up included (its rows are in the count too). */
  recorded201: number;
  warmUp201: number;
  /** count(*) of the comments table before and after the load. */
  rowsBefore: number;
  rowsAfter: number;
  rowsAdded: number;
  /** The bench member's comments on componentId above the highest id before the load. */
  newRows: number;
  newDistinctContents: number;
  tableIdsUnique: boolean;
  /** Comment ids read from the 201 answers. */
  responseIds: number;
  uniqueResponseIds: number;
  idsMatchRows: boolean;
  /** Empty when every count matches. */
  problems: string[];
}

/** The main page's initial JavaScript: the entry plus the review page's chunk, without the diagram. */
/** A page's initial JavaScript: the entry, the page's chunk and its static imports, without a chunk it must load lazily. */
export interface PageBundle {
  chunk: string;
  gzipBytes: number;
  files: number;
  /** The heavy chunk the page must not load up front (the diagram, the chart). */
  lazyChunk: string | null;
  /** True would mean the page imports it statically (it must stay lazy). */
  lazyIncluded: boolean;
  lazyAddsFiles: number;
  withinLimit: boolean;
}

export type Step<T> = { status: 'done'; result: T } | { status: 'error'; message: string } | { status: 'skipped'; message: string };

export interface BenchResults {
  schemaVersion: 1;
  startedAt: string;
  finishedAt: string;
  environment: {
    node: string;
    platform: string;
    cpus: string;
    cpuCount: number;
    totalMemoryGiB: number;
    commit: string;
    dirty: boolean;
    database: 'sqlite' | 'postgres';
    /** True when the run made its own PostgreSQL database (BENCH_DATABASE_FRESH=1) and dropped it. */
    freshDatabase?: boolean;
    /** Share of all cores in use during the second before the run; above 0.2 the figures are suspect. */
    cpuBusyBeforeRun: number;
    loadAverageBeforeRun: number;
  };
  settings: {
    /** Connections and seconds of every scenario but the login, which has its own. */
    connections: number;
    durationSeconds: number;
    warmUpSeconds: number;
    startupRuns: number;
    loginConnections: number;
    loginDurationSeconds: number;
    commentConnections: number;
    analyticsConnections: number;
    infoDurationSeconds: number;
    mainPageRuns: number;
    lighthouseRuns: number;
    /** BENCH_SCENARIOS, when the run measured only some throughput scenarios. */
    scenarioFilter?: string;
    logging: string;
  };
  startup: Step<StartupResult>;
  throughput: Step<ScenarioResult[]>;
  /** The generated comment data set (sizes, components, generation time); null when the server did not start. */
  commentData: ReadyLine['comments'] | null;
  /** The generated activity data set; null when no analytics scenario ran (or the server did not start). */
  activityData: ReadyLine['activity'];
  mainPage: Step<MainPageResult>;
  /** Lighthouse on every screen: performance where it has a target, accessibility everywhere. */
  lighthouse: Step<LighthouseResult>;
  /** The local analyzer's timings, and the server's peak resident memory (MiB) over the throughput scenarios. */
  analyzer: Step<AnalyzerResult>;
  serverPeakRssMiB: number | null;
  bundle: BundleReport;
  mainPageBundle: Step<PageBundle>;
  analyticsPageBundle: Step<PageBundle>;
  /** The mixed load (reads, comments and votes at 50, 200 and 500 connections); absent when BENCH_SCENARIOS left it out. */
  mixedLoad?: Step<MixedLoadResult>;
  targets: TargetResult[];
  passed: boolean;
}

/** The part of a results file bench/compare.ts reads; older or partial files still compare. */
export const comparableResultsSchema = z.object({
  startedAt: z.string(),
  environment: z.object({ commit: z.string(), dirty: z.boolean(), database: z.string(), cpuBusyBeforeRun: z.number() }).partial(),
  startup: z.object({
    status: z.string(),
    result: z.object({ summaryMs: z.object({ min: z.number(), median: z.number(), max: z.number() }) }).optional(),
  }),
  throughput: z.object({
    status: z.string(),
    result: z
      .array(
        z.object({
          name: z.string(),
          server: z.string().optional(),
          ratioToBaseline: z.number(),
          load: z.object({
            connections: z.number().optional(),
            requestsPerSecond: z.number(),
            latencyMs: z.object({ p50: z.number(), p99: z.number() }),
            serverCpuMicrosPerRequest: z.number().optional(),
          }),
        }),
      )
      .optional(),
  }),
  bundle: z.object({ status: z.string(), initialJsGzipBytes: z.number().optional() }),
  // Older results files have neither.
  mainPage: z.object({ status: z.string(), result: z.object({ summaryMs: z.object({ median: z.number(), max: z.number() }) }).optional() }).optional(),
  mainPageBundle: z.object({ status: z.string(), result: z.object({ gzipBytes: z.number() }).optional() }).optional(),
  commentData: z.object({ generationMs: z.number() }).nullable().optional(),
});

export type ComparableResults = z.infer<typeof comparableResultsSchema>;
