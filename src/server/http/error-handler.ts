import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '../../common/contract/common.js';
import { AppError } from '../errors.js';
import { databaseFaultOf, type DatabaseFault } from '../db/faults.js';
import { API_CACHE_CONTROL, SECURITY_HEADERS } from './security-headers.js';
import { ERROR_CODES, type ErrorCode } from '../../common/api/error-codes.js';

/**
 * One place turns every failure into `{ message, code }`. Client mistakes keep their 4xx status and
 * a message that says what to fix; anything unexpected becomes a 500 carrying only an error id that
 * matches the logged stack, so internals never reach the client.
 */
export function handleError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return reply.status(error.statusCode).headers(error.headers).send(body(error.message, error.code));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'request';
    const details = error.validation.slice(0, 3).map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return field === '' ? `${where}: ${issue.message}` : `${where}.${field}: ${issue.message}`;
    });
    return reply.status(400).send(body(`Invalid request: ${details.join('; ')}`, ERROR_CODES.validationFailed));
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return reply.status(status).send(body(clientErrorMessage(error), clientErrorCode(status)));
  }
  const fault = databaseFaultOf(error);
  if (fault !== undefined) return answerDatabaseFault(fault, error, request, reply);
  const errorId = randomUUID();
  request.log.error({ err: error, errorId }, 'request failed');
  return reply
    .status(status === 503 ? 503 : 500)
    .send({ ...body(`Something went wrong on our side. Quote error id ${errorId} if you report it.`, ERROR_CODES.internal), errorId });
}

/**
 * Fastify answers a URL it cannot decode (`/%`, a cut-off UTF-8 sequence) before any route or
 * request hook runs; this puts the headers those hooks would have set on that answer too.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS).header('cache-control', API_CACHE_CONTROL);
  void handleError(error, request, reply);
}

/** Seconds a client should wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** An admin frees space in minutes, not seconds. */
const STORAGE_RETRY_AFTER_SECONDS = 60;

/**
 * The database's state, not a bug: 503 with Retry-After while it cannot be reached (the instance
 * stays up and serves again once it is back), 507 while its disk is full. Neither carries an error
 * id: there is no stack to look up, and a full disk is logged once a minute, not once a request.
 */
function answerDatabaseFault(fault: DatabaseFault, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (fault === 'storage-full') {
    if (request.server.database.storage.markFull()) request.log.error({ err: error }, 'the disk under the database is full: writes fail until space is freed');
    return reply
      .status(507)
      .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
      .send(body('The server has run out of disk space, so nothing can be saved right now. Nothing you saved before is lost; an administrator needs to free space.', ERROR_CODES.storageFull));
  }
  request.log.warn({ err: error }, 'database unreachable');
  return reply
    .status(503)
    .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
    .send(body('The database cannot be reached right now; try again in a few seconds.', ERROR_CODES.databaseUnavailable));
}

function body(message: string, code: ErrorCode): ApiError {
  return { message, code };
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type: send application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty but the content type is application/json';
    case 'FST_ERR_BAD_URL':
      return 'Malformed URL: it holds an invalid percent-encoded character';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'A part of the URL is too long';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Request body is not valid JSON';
    default:
      return error.message === '' ? 'Bad request' : error.message;
  }
}

function clientErrorCode(status: number): ErrorCode {
  const codes: Partial<Record<number, ErrorCode>> = {
    400: ERROR_CODES.badRequest,
    401: ERROR_CODES.unauthenticated,
    403: ERROR_CODES.forbidden,
    404: ERROR_CODES.notFound,
    405: ERROR_CODES.methodNotAllowed,
    406: ERROR_CODES.notAcceptable,
    408: ERROR_CODES.requestTimeout,
    413: ERROR_CODES.payloadTooLarge,
    414: ERROR_CODES.uriTooLong,
    415: ERROR_CODES.unsupportedMediaType,
    429: ERROR_CODES.rateLimited,
    431: ERROR_CODES.headersTooLarge,
  };
  return codes[status] ?? ERROR_CODES.badRequest;
}
