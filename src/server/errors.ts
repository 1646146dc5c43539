import { ERROR_CODES, type ErrorCode } from '../common/api/error-codes.js';

/**
 * The error vocabulary of the API. Routes throw these; the error handler turns them into
 * `{ message, code }` with the status. The code is one of the product's stable error codes: the
 * client decides from it, never from the message.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code: ErrorCode = ERROR_CODES.badRequest) => new AppError(400, code, message);
export const unauthorized = (message = 'Sign in to continue', code: ErrorCode = ERROR_CODES.unauthenticated) => new AppError(401, code, message);
export const forbidden = (message = 'You are not allowed to do that', code: ErrorCode = ERROR_CODES.forbidden) => new AppError(403, code, message);
export const notFound = (message = 'Not found', code: ErrorCode = ERROR_CODES.notFound) => new AppError(404, code, message);
export const conflict = (message: string, code: ErrorCode = ERROR_CODES.conflict) => new AppError(409, code, message);
/** "in 45 seconds", "in 15 minutes": the message is shown to people as it is. */
function waitPhrase(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests', code: ErrorCode = ERROR_CODES.rateLimited) =>
  new AppError(429, code, `${message}; try again in ${waitPhrase(retryAfterSeconds)}`, { 'retry-after': String(retryAfterSeconds) });
