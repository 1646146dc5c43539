/**
 * Compares two bench results files, metric by metric.
 *
 *   node --import tsx bench/compare.ts                       the latest run and the one before it on the same database
 *   node --import tsx bench/compare.ts before.json [after]   after defaults to .bench/results.json
 *
 * Throughput is compared as req/s, as the share of the same run's baseline and as server CPU time
 * per request: the share is the figure that best survives a different or busier machine.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparableResultsSchema, type ComparableResults } from './lib/results.js';
import { fixed, formatTable } from './lib/table.js';

const RESULTS_DIR = fileURLToPath(new URL('../.bench', import.meta.url));

function load(file: string): ComparableResults {
  const parsed = comparableResultsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a bench results file: ${parsed.error.message}`);
  return parsed.data;
}

/** The latest run in .bench/history and the run before it on the same database. */
function pickFiles(args: string[]): [string, string] {
  const [before, after] = args;
  if (before !== undefined) return [path.resolve(before), path.resolve(after ?? path.join(RESULTS_DIR, 'results.json'))];
  const historyDir = path.join(RESULTS_DIR, 'history');
  const history = existsSync(historyDir) ? readdirSync(historyDir).filter((name) => name.endsWith('.json')).sort() : [];
  const latest = history.pop();
  if (latest === undefined) throw new Error('need two runs in .bench/history (or pass two files)');
  const database = load(path.join(historyDir, latest)).environment.database;
  const previous = history.reverse().find((name) => load(path.join(historyDir, name)).environment.database === database);
  if (previous === undefined) throw new Error(`need two ${database ?? ''} runs in .bench/history (or pass two files)`);
  return [path.join(historyDir, previous), path.join(historyDir, latest)];
}

interface Metric {
  name: string;
  before: number | undefined;
  after: number | undefined;
  digits: number;
  /** Whether a larger value is an improvement. */
  higherIsBetter: boolean;
}

function metrics(before: ComparableResults, after: ComparableResults): Metric[] {
  const list: Metric[] = [
    {
      name: 'start-up median (ms)',
      before: before.startup.result?.summaryMs.median,
      after: after.startup.result?.summaryMs.median,
      digits: 0,
      higherIsBetter: false,
    },
    {
      name: 'start-up max (ms)',
      before: before.startup.result?.summaryMs.max,
      after: after.startup.result?.summaryMs.max,
      digits: 0,
      higherIsBetter: false,
    },
  ];
  const names = new Set([...(before.throughput.result ?? []), ...(after.throughput.result ?? [])].map((scenario) => scenario.name));
  for (const name of names) {
    const b = before.throughput.result?.find((scenario) => scenario.name === name);
    const a = after.throughput.result?.find((scenario) => scenario.name === name);
    const isBaseline = (a ?? b)?.server === 'baseline' || name.startsWith('baseline');
    list.push({ name: `${name}: req/s`, before: b?.load.requestsPerSecond, after: a?.load.requestsPerSecond, digits: 0, higherIsBetter: true });
    // A share of the baseline means something only at the baseline's concurrency (the login runs at fewer).
    if (!isBaseline && atBaselineConcurrency(before, b) && atBaselineConcurrency(after, a)) {
      list.push({ name: `${name}: % of baseline`, before: percent(b?.ratioToBaseline), after: percent(a?.ratioToBaseline), digits: 0, higherIsBetter: true });
    }
    list.push(
      { name: `${name}: p50 ms`, before: b?.load.latencyMs.p50, after: a?.load.latencyMs.p50, digits: 2, higherIsBetter: false },
      { name: `${name}: p99 ms`, before: b?.load.latencyMs.p99, after: a?.load.latencyMs.p99, digits: 2, higherIsBetter: false },
      {
        name: `${name}: server CPU µs/request`,
        before: b?.load.serverCpuMicrosPerRequest,
        after: a?.load.serverCpuMicrosPerRequest,
        digits: 0,
        higherIsBetter: false,
      },
    );
  }
  list.push(
    {
      name: 'initial JS (KiB gzip)',
      before: kibOf(before.bundle.initialJsGzipBytes),
      after: kibOf(after.bundle.initialJsGzipBytes),
      digits: 1,
      higherIsBetter: false,
    },
    {
      name: 'main page initial JS (KiB gzip)',
      before: kibOf(before.mainPageBundle?.result?.gzipBytes),
      after: kibOf(after.mainPageBundle?.result?.gzipBytes),
      digits: 1,
      higherIsBetter: false,
    },
    {
      name: 'main page interactive median (ms)',
      before: before.mainPage?.result?.summaryMs.median,
      after: after.mainPage?.result?.summaryMs.median,
      digits: 0,
      higherIsBetter: false,
    },
    {
      name: 'comment data generation (ms)',
      before: before.commentData?.generationMs,
      after: after.commentData?.generationMs,
      digits: 0,
      higherIsBetter: false,
    },
  );
  return list;
}

type ComparableScenario = NonNullable<ComparableResults['throughput']['result']>[number];

/** True when the scenario ran at its run's baseline concurrency, or is absent from that run. */
function atBaselineConcurrency(results: ComparableResults, scenario: ComparableScenario | undefined): boolean {
  if (scenario === undefined) return true;
  const baseline = results.throughput.result?.find((entry) => entry.server === 'baseline' || entry.name.startsWith('baseline'));
  return scenario.load.connections === baseline?.load.connections;
}

function percent(ratio: number | undefined): number | undefined {
  return ratio === undefined ? undefined : ratio * 100;
}

function kibOf(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : bytes / 1024;
}

function change(metric: Metric): string {
  if (metric.before === undefined || metric.after === undefined || metric.before === 0) return '';
  const delta = ((metric.after - metric.before) / metric.before) * 100;
  if (Math.abs(delta) < 0.5) return '=';
  const better = metric.higherIsBetter ? delta > 0 : delta < 0;
  return `${delta > 0 ? '+' : ''}${fixed(delta, 0)}% ${better ? '(better)' : '(worse)'}`;
}

function describe(file: string, results: ComparableResults): string {
  const { commit, dirty, database, cpuBusyBeforeRun } = results.environment;
  const busy = cpuBusyBeforeRun !== undefined && cpuBusyBeforeRun > 0.2 ? `, machine ${fixed(cpuBusyBeforeRun * 100, 0)}% busy` : '';
  return `${path.basename(file)}: ${results.startedAt}, commit ${commit ?? '?'}${dirty === true ? '+' : ''}, ${database ?? '?'}${busy}`;
}

try {
  const [beforeFile, afterFile] = pickFiles(process.argv.slice(2));
  const before = load(beforeFile);
  const after = load(afterFile);
  process.stdout.write(`before  ${describe(beforeFile, before)}\nafter   ${describe(afterFile, after)}\n\n`);
  const rows = metrics(before, after).map((metric) => [
    metric.name,
    metric.before === undefined ? '—' : fixed(metric.before, metric.digits),
    metric.after === undefined ? '—' : fixed(metric.after, metric.digits),
    change(metric),
  ]);
  process.stdout.write(`${formatTable(['metric', 'before', 'after', 'change'], rows, ['left', 'right', 'right', 'left'])}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
