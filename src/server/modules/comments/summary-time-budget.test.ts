import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentSummarySchema } from '../../../common/contract/ai.js';
import { AiEngine } from '../../ai-providers/engine.js';
import { AnalyzerPool } from '../../ai-providers/local/analyzer-pool.js';
import { createPooledLocalProvider } from '../../ai-providers/local/local-provider.js';
import { AppError } from '../../errors.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { insertComment } from './repo.js';
import { findMemberByKey } from '../members/repo.js';
import { CommentSummaryService } from './summary-service.js';

/**
 * A summary whose analyzer worker hangs: the request gets a bounded answer (503 AI_TIMEOUT with
 * Retry-After) instead of waiting for ever, the stuck worker is terminated, and a fresh worker
 * answers the next request. The workers are stand-ins (plain JavaScript): the first one spawned
 * spins for ever, as a runaway analysis would; the later ones answer at once.
 */
const FAKE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', (request) => {
  if (workerData.hang) { for (;;) {} }
  const output = { confidence: 0.5, understanding: request.input.comments.length + ' comments', contentChanges: '', structuralChanges: '', keyThemes: [], sources: { keyThemes: [], contentChanges: [], structuralChanges: [] }, setAside: [] };
  parentPort.postMessage({ id: request.id, ok: true, output });
});`;

/** Long enough that a worker that answers at once is never cut off, even on a busy machine. */
const BUDGET_MS = 1_500;
const COMPONENT = 'event-correlation';

describe('the time budget of a summary', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
    await signInAs(testApp.app, 'Cora Colleague');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers 503 when the worker hangs, terminates it, and a new worker answers the next request', async () => {
    const { db } = testApp.app.database;
    const member = await findMemberByKey(db, 'cora colleague');
    if (member === undefined) throw new Error('no member');
    await insertComment(db, { componentId: COMPONENT, kind: 'comment', content: 'Group alerts from one host within five minutes.', memberId: member.id, memberName: 'Cora Colleague' });

    const workers: Worker[] = [];
    const pool = new AnalyzerPool(1, () => {
      const worker = new Worker(FAKE_WORKER, { eval: true, workerData: { hang: workers.length === 0 } });
      workers.push(worker);
      return worker;
    });
    const provider = createPooledLocalProvider(pool);
    const service = new CommentSummaryService(db, new AiEngine(provider, provider, pino({ level: 'silent' }), BUDGET_MS), () => 'Event Correlation');
    try {
      const failure = await service.summary(COMPONENT).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ statusCode: 503, code: 'AI_TIMEOUT', headers: { 'retry-after': '30' } });
      expect(failure instanceof AppError ? failure.message : '').toMatch(/took longer than \d+ s, so it was stopped\. Try again/);

      // The stuck worker was terminated: its thread ends although its loop never would.
      const [stuck] = workers;
      if (stuck === undefined) throw new Error('no worker was started');
      if (stuck.threadId !== -1) await once(stuck, 'exit');
      expect(pool.load).toMatchObject({ queued: 0, running: 0 });

      // The next request is answered by a fresh worker.
      const summary = commentSummarySchema.parse(await service.summary(COMPONENT));
      expect(summary.understanding).toBe('1 comments');
      expect(summary.commentIds).toHaveLength(1);
      expect(workers).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });
});
