import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../common/api/error-codes.js';
import { badRequest } from '../errors.js';
import type { App } from './types.js';

/**
 * C0 control characters (NUL among them) and DEL: no name, id or search in a path or query holds
 * one, and PostgreSQL cannot store or compare NUL at all (the query fails, a 500 where SQLite
 * answered 404).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/u;

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text that is not well-formed UTF-16 (a lone surrogate) or holds a control character. */
export function isInvalidParameterText(text: string): boolean {
  return CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text);
}

function entriesOf(value: unknown): [string, unknown][] {
  return typeof value === 'object' && value !== null ? Object.entries(value) : [];
}

/** The first parameter holding invalid text, as "path parameter 'x'" or "query parameter 'y'". */
function firstInvalid(request: FastifyRequest): string | undefined {
  for (const [name, value] of entriesOf(request.params)) {
    if (typeof value === 'string' && isInvalidParameterText(value)) return `path parameter '${name}'`;
  }
  for (const [name, value] of entriesOf(request.query)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    // The name is shown only when it is clean itself: an error message is no place for control characters.
    if (isInvalidParameterText(name)) return 'a query parameter name';
    if (values.some((item) => typeof item === 'string' && isInvalidParameterText(item))) return `query parameter '${name}'`;
  }
  return undefined;
}

/**
 * One check for every route, before any guard or handler: a path or query parameter holding a
 * control character or a lone surrogate is a 400 with a clear message on both engines, whatever
 * the route's own schema says.
 */
export function registerParameterHygiene(app: App): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const where = firstInvalid(request);
    done(where === undefined ? undefined : badRequest(`The ${where} holds invalid text: control characters (NUL among them) and lone surrogates are not allowed`, ERROR_CODES.validationFailed));
  });
}
