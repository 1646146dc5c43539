import { Worker } from 'node:worker_threads';
import type { AnalysisJob, AnalysisRequest, AnalysisResponse } from './analyzer-protocol.js';

/** The worker running an analysis died (out of memory, a crash): the analysis is lost, the worker replaced. */
export class AnalyzerStopped extends Error {
  constructor(detail: string) {
    super(`The analyzer stopped (${detail})`);
    this.name = 'AnalyzerStopped';
  }
}

interface Pending {
  job: AnalysisJob;
  signal: AbortSignal | undefined;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  busy: { id: number; pending: Pending; stopOnAbort: () => void } | undefined;
}

/**
 * The worker entry. Built, it is the sibling .js file; run from the TypeScript sources (tests,
 * `npm run dev`), the worker registers tsx first so it can load the .ts entry.
 */
function spawnAnalyzer(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./analyzer-worker.js', here), { resourceLimits: WORKER_LIMITS });
  const entry = JSON.stringify(new URL('./analyzer-worker.ts', here).href);
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`, { eval: true, resourceLimits: WORKER_LIMITS });
}

/**
 * Memory bounds of a worker, measured: an analysis makes many short-lived objects, and with V8's
 * defaults the worker's heap kept growing from one analysis to the next (+100 MiB resident for a
 * 1,500-comment component, 30 MiB of it reclaimable). A small nursery and a 96 MiB old generation
 * keep it at ~70 MiB; 5,000 comments still analyse within it. An analysis that needs more ends its
 * worker, which is replaced, and the call answers 503.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 };

/**
 * A small pool of analyzer worker threads: jobs queue in order and run one per worker; a job that
 * is aborted (its time budget ran out) stops its worker, which is replaced, and the queue goes on.
 * Workers start on first use, so a server that never analyses never loads the model.
 */
export class AnalyzerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** Jobs handed to a worker so far. */
  private startedJobs = 0;

  constructor(
    private readonly size: number,
    private readonly spawn: () => Worker = spawnAnalyzer,
  ) {}

  run(job: AnalysisJob, signal?: AbortSignal): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The analyzer pool is closed'));
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(abortReason(signal));
        return;
      }
      const pending: Pending = { job, signal, resolve, reject };
      // Aborted while still queued: leave the queue at once.
      signal?.addEventListener(
        'abort',
        () => {
          const index = this.queue.indexOf(pending);
          if (index !== -1) {
            this.queue.splice(index, 1);
            reject(abortReason(signal));
          }
        },
        { once: true },
      );
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker, jobs running, and jobs started since the pool was made. */
  get load(): { queued: number; running: number; started: number } {
    return { queued: this.queue.length, running: this.slots.filter((slot) => slot.busy !== undefined).length, started: this.startedJobs };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('The analyzer pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.freeSlot();
      if (slot === undefined) return;
      const pending = this.queue.shift();
      if (pending === undefined) return;
      this.start(slot, pending);
    }
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((slot) => slot.busy === undefined);
    if (idle !== undefined || this.slots.length >= this.size) return idle;
    const slot = this.newSlot();
    this.slots.push(slot);
    return slot;
  }

  private newSlot(): Slot {
    const slot: Slot = { worker: this.spawn(), busy: undefined };
    slot.worker.on('message', (response: AnalysisResponse) => {
      const busy = slot.busy;
      if (busy === undefined || busy.id !== response.id) return;
      this.finish(slot);
      if (response.ok) busy.pending.resolve(response.output);
      else busy.pending.reject(new Error(response.message));
    });
    const lost = (error: unknown) => {
      const busy = slot.busy;
      this.replace(slot);
      busy?.pending.reject(new AnalyzerStopped(error instanceof Error ? error.message : 'unknown reason'));
    };
    slot.worker.on('error', lost);
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) lost(new Error(`exit code ${code}`));
    });
    // The pool must not keep the process alive on its own.
    slot.worker.unref();
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    const id = this.nextId++;
    this.startedJobs += 1;
    const stopOnAbort = () => {
      if (slot.busy?.id !== id) return;
      // The analysis cannot be interrupted inside the worker: the worker goes, a fresh one comes.
      this.replace(slot);
      pending.reject(pending.signal === undefined ? new Error('aborted') : abortReason(pending.signal));
    };
    slot.busy = { id, pending, stopOnAbort };
    pending.signal?.addEventListener('abort', stopOnAbort, { once: true });
    const request: AnalysisRequest = { ...pending.job, id };
    slot.worker.postMessage(request);
  }

  private finish(slot: Slot): void {
    const busy = slot.busy;
    slot.busy = undefined;
    busy?.pending.signal?.removeEventListener('abort', busy.stopOnAbort);
    this.dispatch();
  }

  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    const busy = slot.busy;
    slot.busy = undefined;
    busy?.pending.signal?.removeEventListener('abort', busy.stopOnAbort);
    void slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
