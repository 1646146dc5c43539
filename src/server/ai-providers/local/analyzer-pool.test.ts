import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyzerPool } from './analyzer-pool.js';

/**
 * A stand-in analyzer worker (plain JavaScript, evaluated): it echoes a job's component id, never
 * answers 'hang' (a busy loop, as a runaway analysis would be), and exits on 'crash'.
 */
const FAKE_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (request) => {
  const id = request.input.componentId;
  if (id === 'hang') { for (;;) {} }
  if (id === 'crash') process.exit(3);
  parentPort.postMessage({ id: request.id, ok: true, output: 'summary of ' + id });
});`;

const job = (componentId: string) => ({ kind: 'summarizeComments' as const, input: { componentId, componentTitle: componentId, comments: [] } });

describe('AnalyzerPool', () => {
  let pool: AnalyzerPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('answers jobs in a worker, one at a time, in order', async () => {
    let spawned = 0;
    const oneWorker = new AnalyzerPool(1, () => {
      spawned += 1;
      return new Worker(FAKE_WORKER, { eval: true });
    });
    pool = oneWorker;
    const answers = await Promise.all(['a', 'b', 'c'].map((id) => oneWorker.run(job(id))));
    expect(answers).toEqual(['summary of a', 'summary of b', 'summary of c']);
    expect(spawned).toBe(1);
    expect(oneWorker.load).toEqual({ queued: 0, running: 0, started: 3 });
  });

  it('stops a job that runs past its budget, replaces the worker, and goes on with the queue', async () => {
    let spawned = 0;
    pool = new AnalyzerPool(1, () => {
      spawned += 1;
      return new Worker(FAKE_WORKER, { eval: true });
    });
    const stuck = pool.run(job('hang'), AbortSignal.timeout(300));
    const queued = pool.run(job('after'));
    await expect(stuck).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(await queued).toBe('summary of after');
    expect(spawned).toBe(2);
  });

  it('fails the job of a worker that dies, and starts a fresh worker for the next', async () => {
    let spawned = 0;
    pool = new AnalyzerPool(1, () => {
      spawned += 1;
      return new Worker(FAKE_WORKER, { eval: true });
    });
    await expect(pool.run(job('crash'))).rejects.toMatchObject({ name: 'AnalyzerStopped' });
    expect(await pool.run(job('again'))).toBe('summary of again');
    expect(spawned).toBe(2);
  });

  it('drops a queued job whose signal aborts before it starts', async () => {
    pool = new AnalyzerPool(1, () => new Worker(FAKE_WORKER, { eval: true }));
    const controller = new AbortController();
    const first = pool.run(job('first'));
    const dropped = pool.run(job('dropped'), controller.signal);
    controller.abort(new Error('no longer wanted'));
    await expect(dropped).rejects.toThrow('no longer wanted');
    expect(await first).toBe('summary of first');
    expect(pool.load.started).toBe(1);
  });

  it('runs the real analyzer worker from the sources', async () => {
    pool = new AnalyzerPool(1);
    const output = await pool.run({
      kind: 'summarizeComments',
      input: {
        componentId: 'triage',
        componentTitle: 'Agentic Triage',
        comments: [
          { id: 1, componentId: 'triage', componentTitle: 'Agentic Triage', kind: 'comment', content: 'Please show the confidence score of each assignment group.', memberName: 'Ada', createdAt: 1, upVotes: 2, downVotes: 0 },
        ],
      },
    });
    expect(output).toMatchObject({ keyThemes: expect.any(Array) as unknown });
  });
});
