import { MEMBER_LIMITS } from '../../src/common/limits.js';
import { summarize } from './stats.js';

/** One member commenting and asking for the component's summary as often as the per-member limits allow, next to a load run. */
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

  // The component's first analysis is a one-time cost, done before the load: the load sees the steady state.
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
    `${summaries.ok} answered 200 (statuses ${JSON.stringify(summaries.statuses)}), median ${summaries.medianMs.toFixed(0)} ms, max ${summaries.maxMs.toFixed(0)} ms`
  );
}
