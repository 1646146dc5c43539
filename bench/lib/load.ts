import autocannon from 'autocannon';
import { processCpuMs, type RequestSpec } from './processes.js';
import { percentile, round } from './stats.js';

export interface LoadOptions {
  url: string;
  /** Method, headers and body of every request; a bare GET when absent. */
  request?: RequestSpec | undefined;
  connections: number;
  durationSeconds: number;
  warmUpSeconds: number;
  /** The server's process id, to measure the CPU time it spends per request. */
  serverPid?: number | undefined;
  /** A fixed number of requests instead of a duration, so none is in flight at the end (writes: see bench/README.md). */
  bounded?: { warmUpRequestsPerConnection: number; minRequestsPerConnection: number; maxRequestsPerConnection: number } | undefined;
  /** Replace `[<id>]` in the body by a unique id on every request (autocannon's idReplacement). */
  idReplacement?: boolean | undefined;
  /** Called with every response's status and body, warm-up included (slows autocannon a little). */
  onResponse?: ((status: number, body: string) => void) | undefined;
}

export interface LoadResult {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Mean of autocannon's per-second request counts. */
  requestsPerSecond: number;
  requestsTotal: number;
  /** Latency percentiles in ms, computed from every response (autocannon's own histogram rounds to whole ms). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** autocannon's own figures, kept for cross-checking. */
  autocannon: { latencyP50: number; latencyP99: number; requestsP50: number };
  /** Server CPU time (user + system) per answered request, in µs; undefined without /proc. */
  serverCpuMicrosPerRequest: number | undefined;
  /** The part of it spent on the server's main thread (the event loop); the rest is libuv's pool (argon2), GC helpers and the like. */
  serverMainThreadCpuMicrosPerRequest: number | undefined;
  /** Bytes autocannon read per response (headers included) over the measured run: what the answer costs on the wire. */
  bytesPerResponse: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** The warm-up's answers (unmeasured, but a write scenario's rows include them). */
  warmUp: { requestsTotal: number; statusCodes: Record<string, number>; errors: number; timeouts: number };
  /** 'duration': autocannon's timed run; 'requests': a fixed number per connection (see LoadOptions.bounded). */
  mode: 'duration' | 'requests';
}

/** An unrecorded warm-up (JIT, connection set-up, caches), then the measured run. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let warmUp: LoadResult['warmUp'] = { requestsTotal: 0, statusCodes: {}, errors: 0, timeouts: 0 };
  let perConnection: number | undefined;
  if (options.bounded !== undefined) {
    const run = await fire({ ...options, durationSeconds: options.warmUpSeconds }, undefined, options.bounded.warmUpRequestsPerConnection);
    warmUp = { requestsTotal: run.result.requests.total, statusCodes: statusCodesOf(run.result), errors: run.result.errors, timeouts: run.result.timeouts };
    const rate = run.result.requests.total / Math.max(0.001, run.elapsedMs / 1000);
    perConnection = Math.min(
      options.bounded.maxRequestsPerConnection,
      Math.max(options.bounded.minRequestsPerConnection, Math.ceil((rate * options.durationSeconds) / options.connections)),
    );
  } else if (options.warmUpSeconds > 0) {
    const run = await fire({ ...options, durationSeconds: options.warmUpSeconds }, undefined);
    warmUp = { requestsTotal: run.result.requests.total, statusCodes: statusCodesOf(run.result), errors: run.result.errors, timeouts: run.result.timeouts };
  }
  const latencies: number[] = [];
  const cpuBefore = processCpuMs(options.serverPid);
  const mainBefore = processCpuMs(options.serverPid, 'main');
  const { result, elapsedMs } = await fire(options, latencies, perConnection);
  const cpuAfter = processCpuMs(options.serverPid);
  const mainAfter = processCpuMs(options.serverPid, 'main');
  const perRequest = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined || latencies.length === 0 ? undefined : round(((after - before) * 1000) / latencies.length, 0);
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length);
  // A fixed-count run ends with a partial second, which would drag autocannon's per-second mean
  // down: its rate is the responses over the time from the start to the last response.
  const bounded = perConnection !== undefined;
  return {
    url: options.url,
    connections: options.connections,
    durationSeconds: bounded ? round(elapsedMs / 1000, 2) : result.duration,
    requestsPerSecond: bounded ? round(result.requests.total / Math.max(0.001, elapsedMs / 1000), 0) : round(result.requests.average, 0),
    requestsTotal: result.requests.total,
    latencyMs: {
      p50: round(percentile(latencies, 50), 3),
      p90: round(percentile(latencies, 90), 3),
      p99: round(percentile(latencies, 99), 3),
      max: round(latencies[latencies.length - 1] ?? Number.NaN, 3),
      mean: round(mean, 3),
    },
    autocannon: { latencyP50: result.latency.p50, latencyP99: result.latency.p99, requestsP50: result.requests.p50 },
    serverCpuMicrosPerRequest: perRequest(cpuBefore, cpuAfter),
    serverMainThreadCpuMicrosPerRequest: perRequest(mainBefore, mainAfter),
    bytesPerResponse: round(result.throughput.total / Math.max(1, result.requests.total), 0),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: statusCodesOf(result),
    warmUp,
    mode: bounded ? 'requests' : 'duration',
  };
}

function statusCodesOf(result: autocannon.Result): Record<string, number> {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return statusCodes;
}

/** One autocannon run; `perConnection` switches from a duration to that many requests per connection. */
function fire(options: LoadOptions, latencies: number[] | undefined, perConnection?: number): Promise<{ result: autocannon.Result; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lastResponse = started;
    const onResponse = options.onResponse;
    const instance = autocannon(
      {
        url: options.url,
        method: options.request?.method ?? 'GET',
        ...(options.request?.headers === undefined ? {} : { headers: options.request.headers }),
        ...(options.request?.body === undefined ? {} : { body: options.request.body }),
        ...(onResponse === undefined ? {} : { requests: [{ onResponse: (status: number, body: string) => { onResponse(status, body); } }] }),
        ...(options.idReplacement === true ? { idReplacement: true } : {}),
        connections: options.connections,
        ...(perConnection === undefined ? { duration: options.durationSeconds } : { maxConnectionRequests: perConnection }),
        pipelining: 1,
        timeout: 10,
      },
      (error: unknown, result) => {
        clearTimeout(guard);
        if (error instanceof Error) reject(error);
        else if (error !== null && error !== undefined) reject(new Error(`autocannon failed: ${JSON.stringify(error)}`));
        else resolve({ result, elapsedMs: lastResponse - started });
      },
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTimeMs) => {
      lastResponse = performance.now();
      latencies?.push(responseTimeMs);
    });
    // autocannon stops itself after `duration` (or the last request); this only bounds a run whose
    // server stopped answering, or a fixed-count run on a far slower machine than its warm-up said.
    const guard = setTimeout(
      () => {
        instance.stop();
      },
      (options.durationSeconds * (perConnection === undefined ? 1 : 3) + 15) * 1000,
    );
  });
}
