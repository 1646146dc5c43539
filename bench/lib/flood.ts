import { MEMBER_LIMITS } from '../../src/shared/limits.js';
import { summarize } from './stats.js';

/**
 * One member doing the most the server allows: a new comment on a component as often as the
 * per-member comment limit lets them (each one invalidates the component's AI summary) and a
 * summary request for it as often as the per-member AI limit lets them. Runs in the orchestrator
 * next to a load run, so the load measures what everyone else gets meanwhile.
 */
export interface Flood {
  stop(): Promise<FloodReport>;
}

export interface FloodReport {
  comments: { sent: number; created: number };
  summaries: { sent: number; ok: number; statuses: Record<string, number>; medianMs: number; maxMs: number };
}

export async function startFlood(options: { port: number; cookie: string; componentId: string }): Promise<Flood> {
  const base = `http://127.0.0.1:${options.port}`;
  const headers = { cookie: options.cookie };
  const inFlight = new Set<Promise<void>>();
  const report: FloodReport = { comments: { sent: 0, created: 0 }, summaries: { sent: 0, ok: 0, statuses: {}, medianMs: 0, maxMs: 0 } };
  const summaryMs: number[] = [];

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  const postComment = () => {
    report.comments.sent += 1;
    const content = `Flood ${report.comments.sent} ${Date.now()}: the correlation window must be shorter for P1 alerts.`;
    track(
      fetch(`${base}/api/comments`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ componentId: options.componentId, content }),
      }).then(
        async (response) => {
          if (response.status === 201) report.comments.created += 1;
          await response.arrayBuffer();
        },
        () => undefined,
      ),
    );
  };

  const askSummary = () => {
    report.summaries.sent += 1;
    const started = performance.now();
    track(
      fetch(`${base}/api/comments/${options.componentId}/summary`, { headers }).then(
        async (response) => {
          await response.arrayBuffer();
          summaryMs.push(performance.now() - started);
          const key = String(response.status);
          report.summaries.statuses[key] = (report.summaries.statuses[key] ?? 0) + 1;
          if (response.status === 200) report.summaries.ok += 1;
        },
        () => undefined,
      ),
    );
  };

  // The member has been at it for a while when the load starts: the component's first analysis in
  // this worker (every text read once, ~1–2 s) is behind it, as it is behind any component that
  // has been summarised before. What is measured is the flood's steady state.
  askSummary();
  await Promise.all([...inFlight]);
  postComment();
  askSummary();
  const commentTimer = setInterval(postComment, 60_000 / MEMBER_LIMITS.commentsPerMinute);
  const summaryTimer = setInterval(askSummary, 60_000 / MEMBER_LIMITS.summariesPerMinute);

  return {
    async stop() {
      clearInterval(commentTimer);
      clearInterval(summaryTimer);
      await Promise.all([...inFlight]);
      const stats = summarize(summaryMs);
      report.summaries.medianMs = stats.median;
      report.summaries.maxMs = stats.max;
      return report;
    },
  };
}

export function describeFlood(report: FloodReport, componentId: string, comments: number): string {
  const { summaries } = report;
  return (
    `meanwhile one member posted ${report.comments.created} of ${report.comments.sent} comments on ${componentId} (${comments.toLocaleString('en')} comments; ` +
    `${MEMBER_LIMITS.commentsPerMinute} a minute, the per-member limit) and asked for its summary ${summaries.sent} times (${MEMBER_LIMITS.summariesPerMinute} a minute): ` +
    `${summaries.ok} answered 200 (statuses ${JSON.stringify(summaries.statuses)}), median ${summaries.medianMs.toFixed(0)} ms, max ${summaries.maxMs.toFixed(0)} ms; ` +
    'every comment invalidates the summary; the analyzer runs in a worker thread, one analysis per component at a time, and reuses its analyses of the texts it read before'
  );
}
