/**
 * Exporting the generated review (50,000 comments, 250,000 votes): the Markdown and the comments
 * CSV, each downloaded whole by one member while the server's resident memory is sampled. The
 * exports stream as they are read; the targets say they finish in time and never hold the review
 * in memory. It runs on a bench server of its own, after the loads.
 */
import http from 'node:http';
import { exportRoutes } from '../../src/common/api/export.js';
import { say, step } from '../lib/output.js';
import { sampleRss, startBenchServer } from '../lib/bench-server.js';
import { stopChild } from '../lib/processes.js';
import type { Step, TargetResult } from '../lib/results.js';
import { signedInCookie } from '../lib/scenario.js';
import { SCENARIO_FILTER } from '../lib/settings.js';
import { fixed, formatTable, thousands } from '../lib/table.js';
import { SERVER_RSS_TARGET_MIB } from './analyzer.js';

export const EXPORT_TARGETS = { seconds: 5, rssMiB: SERVER_RSS_TARGET_MIB } as const;

const DOWNLOADS = [
  { name: 'export Markdown (GET /api/export/review.md)', path: exportRoutes.markdown.path },
  { name: 'export comments CSV (GET /api/export/review.csv?kind=comments)', path: `${exportRoutes.csv.path}?kind=comments` },
  { name: 'export printable report (GET /api/export/review.html)', path: exportRoutes.html.path },
] as const;

export interface ExportDownload {
  name: string;
  status: number;
  bytes: number;
  /** Until the first bytes, and until the last. */
  firstByteMs: number;
  seconds: number;
  peakRssMiB: number | undefined;
  /** Rows of the CSV (its lines that start a record), for the comments export. */
  rows: number;
}

export interface ExportBenchResult {
  comments: number;
  downloads: ExportDownload[];
}

export function exportSelected(): boolean {
  return SCENARIO_FILTER === undefined || DOWNLOADS.some((download) => SCENARIO_FILTER?.test(download.name) === true);
}

/** Downloads one file to nowhere, counting bytes and record lines as they arrive. */
function download(port: number, pathname: string, cookie: string): Promise<Omit<ExportDownload, 'name' | 'peakRssMiB'>> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = 0;
    let bytes = 0;
    let rows = 0;
    // The last byte of the previous chunk: a record's line break and its id may arrive apart.
    let carry = '';
    const request = http.get({ host: '127.0.0.1', port, path: pathname, headers: { cookie } }, (response) => {
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        // A CSV record starts with its id after a line break.
        const text = carry + chunk.toString('latin1');
        rows += text.match(/\r\n\d/g)?.length ?? 0;
        carry = text.endsWith('\r\n') ? '\r\n' : text.endsWith('\r') ? '\r' : '';
      });
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, bytes, firstByteMs, seconds: (performance.now() - started) / 1000, rows });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(60_000, () => request.destroy(new Error('the export took over 60 s')));
  });
}

export async function runExportBench(databaseUrl: string | undefined): Promise<Step<ExportBenchResult>> {
  say('Export: the Markdown, the comments CSV and the printable report of the generated review, downloaded whole, on a bench server of its own');
  const outcome = await step(async () => {
    const { child, ready } = await startBenchServer(undefined, databaseUrl);
    try {
      const cookie = await signedInCookie(ready);
      const downloads: ExportDownload[] = [];
      for (const { name, path } of DOWNLOADS) {
        const memory = sampleRss(child.process.pid);
        const result = await download(ready.appPort, path, cookie);
        downloads.push({ name, ...result, peakRssMiB: memory.stop() });
      }
      return { comments: ready.comments.comments, downloads };
    } finally {
      await stopChild(child, 5000);
    }
  });
  if (outcome.status === 'done') {
    say();
    say(
      formatTable(
        ['download', 'status', 'bytes', 'first byte ms', 'seconds', 'rows', 'peak RSS MiB'],
        outcome.result.downloads.map((entry) => [
          entry.name,
          String(entry.status),
          thousands(entry.bytes),
          fixed(entry.firstByteMs, 0),
          fixed(entry.seconds, 2),
          entry.rows === 0 ? '—' : thousands(entry.rows),
          entry.peakRssMiB === undefined ? '—' : fixed(entry.peakRssMiB, 0),
        ]),
        ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
  } else {
    say(`  ERROR: ${outcome.message}`);
  }
  say();
  return outcome;
}

export function exportTargets(outcome: Step<ExportBenchResult>): TargetResult[] {
  const target = `< ${EXPORT_TARGETS.seconds} s, streamed, server ≤ ${EXPORT_TARGETS.rssMiB} MiB`;
  if (outcome.status !== 'done') return DOWNLOADS.map((entry) => ({ name: entry.name, target, measured: `error: ${outcome.message}`, status: 'FAIL' }));
  return outcome.result.downloads.map((entry) => {
    const complete = entry.name.includes('CSV') ? entry.rows === outcome.result.comments : entry.bytes > 0;
    const ok = entry.status === 200 && complete && entry.seconds < EXPORT_TARGETS.seconds && entry.peakRssMiB !== undefined && entry.peakRssMiB <= EXPORT_TARGETS.rssMiB;
    return {
      name: entry.name,
      target,
      measured: `${fixed(entry.seconds, 2)} s (first byte ${fixed(entry.firstByteMs, 0)} ms), ${thousands(entry.bytes)} bytes${entry.rows > 0 ? `, ${thousands(entry.rows)} of ${thousands(outcome.result.comments)} comments` : ''}, peak RSS ${entry.peakRssMiB === undefined ? '—' : fixed(entry.peakRssMiB, 0)} MiB`,
      status: ok ? 'PASS' : 'FAIL',
    };
  });
}
