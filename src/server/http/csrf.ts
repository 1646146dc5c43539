import type { FastifyRequest } from 'fastify';
import { forbidden, type AppError } from '../errors.js';
import type { App } from './types.js';
import { ERROR_CODES } from '../../common/api/error-codes.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * A state-changing API call must be same-origin and JSON. A cross-site form
 * cannot send application/json without a CORS preflight we never grant, and the Origin and
 * Sec-Fetch-Site headers, which pages cannot forge, must name this site.
 */
function csrfViolation(request: FastifyRequest): AppError | undefined {
  // An unmatched route changes nothing; let it answer its plain 404.
  // The matched route decides, not the raw URL: '/%61pi/logout' is routed to '/api/logout'.
  const path = request.routeOptions.url ?? request.url;
  if (!STATE_CHANGING.has(request.method) || !path.startsWith('/api/') || request.is404) return undefined;
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    return forbidden('Cross-site requests are refused', ERROR_CODES.csrfRejected);
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
    return forbidden('Requests from another origin are refused', ERROR_CODES.csrfRejected);
  }
  const type = request.headers['content-type'];
  if (type === undefined || !JSON_TYPE.test(type)) {
    return forbidden('State-changing requests must send Content-Type: application/json', ERROR_CODES.csrfRejected);
  }
  return undefined;
}

export function registerCsrfProtection(app: App) {
  app.addHook('onRequest', (request, _reply, done) => {
    done(csrfViolation(request));
  });

  // Bodiless calls (logout, generate…) still declare JSON, so an empty JSON body means "no payload".
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });
}
