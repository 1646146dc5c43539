import { healthContract, type HealthResponse, type HealthUnavailable } from '../../../common/contract/health.js';
import { PRODUCT_VERSION } from '../../../common/product.js';
import type { DatabaseHandle } from '../../db/connection.js';
import { databaseFaultOf } from '../../db/faults.js';
import type { App } from '../../http/types.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

export interface HealthState {
  /** True from the moment the process was asked to stop: load balancers take the instance out first. */
  draining(): boolean;
}

/**
 * Load balancers poll this route, so it is kept cheap: the answer is typed by the shared contract
 * and sent as JSON text, without a second check by the response serializer (ADR 0008); the API
 * tests parse it with the contract.
 */
export function registerHealthRoutes(app: App, database: DatabaseHandle, state: HealthState) {
  // Health is polled by every load balancer: concurrent polls share one probe write.
  let probing: Promise<boolean> | undefined;

  /** Still full? A failed write marked it so; a probe write says whether it still is. */
  function storageStillFull(): Promise<boolean> {
    if (database.storage.fullSinceMs === undefined) return Promise.resolve(false);
    probing ??= database.probeWrite().then(
      () => {
        database.storage.clear();
        app.log.info('the disk under the database has room again: writes work');
        return false;
      },
      (error: unknown) => {
        if (databaseFaultOf(error) === 'storage-full') return true;
        throw error;
      },
    ).finally(() => {
      probing = undefined;
    });
    return probing;
  }

  app.get(healthContract.path, { config: { access: 'public' } }, async (request, reply) => {
    reply.header('cache-control', 'no-store').type(JSON_UTF8);
    if (state.draining()) {
      const body: HealthUnavailable = { status: 'draining', message: 'This instance is shutting down', code: ERROR_CODES.shuttingDown };
      return reply.status(503).send(JSON.stringify(body));
    }
    try {
      const roundTripMs = await database.ping();
      const full = await storageStillFull();
      const body: HealthResponse = {
        status: full ? 'degraded' : 'ok',
        ...(full ? { reason: 'The disk under the database is full: members can read, but nothing can be saved until space is freed' } : {}),
        database: { dialect: database.dialect, roundTripMs: Math.round(roundTripMs * 1000) / 1000 },
        uptimeSeconds: Math.round(process.uptime()),
        version: PRODUCT_VERSION,
      };
      return await reply.status(200).send(JSON.stringify(body));
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database unreachable');
      const body: HealthUnavailable = { status: 'unavailable', message: 'The database is unreachable', code: ERROR_CODES.databaseUnavailable };
      return await reply.header('retry-after', '5').status(503).send(JSON.stringify(body));
    }
  });
}
