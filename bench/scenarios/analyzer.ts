/** The local analyzer (summary and narrative) timed in this process, and the server's memory with the NLP model loaded. */
import { ANALYZER_TARGETS, measureAnalyzer, type AnalyzerResult } from '../lib/analyzer.js';
import { say, step } from '../lib/output.js';
import type { Status, Step, TargetResult } from '../lib/results.js';
import { unmeasured } from '../lib/scenario.js';
import { fixed } from '../lib/table.js';

export const SERVER_RSS_TARGET_MIB = 300;

type Timing = { firstMs: number; medianMs: number; maxMs: number };
const timing = ({ firstMs, medianMs, maxMs }: Timing) => `first ${fixed(firstMs, 1)} ms, median ${fixed(medianMs, 1)} ms, max ${fixed(maxMs, 1)} ms`;

export async function runAnalyzer(): Promise<Step<AnalyzerResult>> {
  say(`Local analyzer (dist/server/ai-providers/local): the demo comments repeated to ${ANALYZER_TARGETS.summaryComments}, and ${ANALYZER_TARGETS.narrativeSuggestions} suggestions, in this process`);
  const result = await step(measureAnalyzer);
  if (result.status === 'done') {
    const { modelLoadMs, summary, narrative, suggestions } = result.result;
    say(`  model load and first tiny call ${fixed(modelLoadMs, 0)} ms`);
    say(`  summary of ${summary.comments} comments: ${timing(summary)}`);
    say(`  narrative of ${narrative.suggestions} suggestions: ${timing(narrative)}`);
    say(`  suggestions from ${suggestions.comments} comments (information): median ${fixed(suggestions.medianMs, 1)} ms`);
  } else {
    say(`  ERROR: ${result.message}`);
  }
  say();
  return result;
}

function timingTarget(name: string, limitMs: number, { firstMs, medianMs, maxMs }: Timing): TargetResult {
  const status: Status = medianMs < limitMs && firstMs < limitMs ? 'PASS' : 'FAIL';
  return { name, target: `< ${limitMs} ms`, measured: `median ${fixed(medianMs, 1)} ms of 7, first call ${fixed(firstMs, 1)} ms, max ${fixed(maxMs, 1)} ms`, status };
}

/** `serverPeakRssMiB` is 'skipped' when BENCH_SCENARIOS selected no throughput scenario. */
export function analyzerTargets(analyzer: Step<AnalyzerResult>, serverPeakRssMiB: number | undefined | 'skipped'): TargetResult[] {
  const analysis =
    analyzer.status === 'done'
      ? [
          timingTarget(`local analyzer: summary of ${analyzer.result.summary.comments} comments`, ANALYZER_TARGETS.summaryMs, analyzer.result.summary),
          timingTarget(`local analyzer: narrative of ${analyzer.result.narrative.suggestions} suggestions`, ANALYZER_TARGETS.narrativeMs, analyzer.result.narrative),
        ]
      : [unmeasured('local analyzer', `< ${ANALYZER_TARGETS.summaryMs} ms`, analyzer)];
  const memory: TargetResult =
    serverPeakRssMiB === 'skipped'
      ? { name: 'server memory (NLP model loaded)', target: `peak resident ≤ ${SERVER_RSS_TARGET_MIB} MiB`, measured: 'no throughput scenario selected', status: 'SKIPPED' }
      : {
    name: 'server memory (NLP model loaded)',
    target: `peak resident ≤ ${SERVER_RSS_TARGET_MIB} MiB`,
    measured: serverPeakRssMiB === undefined ? 'not measured' : `${fixed(serverPeakRssMiB, 0)} MiB`,
    status: serverPeakRssMiB !== undefined && serverPeakRssMiB <= SERVER_RSS_TARGET_MIB ? 'PASS' : 'FAIL',
  };
  return [...analysis, memory];
}
