import { healthContract, type HealthResponse, type HealthUnavailable } from '../../../common/contract/health.js';
import { PRODUCT_VERSION } from '../../../common/product.js';
import type { DatabaseHandle } from '../../db/connection.js';
import type { App } from '../../http/types.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * Load balancers poll this route, so it is kept cheap: the answer is typed by the shared contract
 * and sent as JSON text, without a second check by the response serializer (ADR 0008); the API
 * tests parse it with the contract.
 */
export function registerHealthRoutes(app: App, database: DatabaseHandle) {
  app.get(healthContract.path, { config: { access: 'public' } }, async (request, reply) => {
    reply.header('cache-control', 'no-store').type(JSON_UTF8);
    try {
      const roundTripMs = await database.ping();
      const body: HealthResponse = {
        status: 'ok',
        database: { dialect: database.dialect, roundTripMs: Math.round(roundTripMs * 1000) / 1000 },
        uptimeSeconds: Math.round(process.uptime()),
        version: PRODUCT_VERSION,
      };
      return await reply.status(200).send(JSON.stringify(body));
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database unreachable');
      const body: HealthUnavailable = { status: 'unavailable', message: 'The database is unreachable', code: ERROR_CODES.databaseUnavailable };
      return await reply.status(503).send(JSON.stringify(body));
    }
  });
}
