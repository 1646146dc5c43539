/**
 * The stable `code` of every error answer (`{ message, code }`). The server throws only these, and
 * the client decides what to do from them, never from the message text (which is for people).
 */
export const ERROR_CODES = {
  badRequest: 'BAD_REQUEST',
  validationFailed: 'VALIDATION_FAILED',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  notAcceptable: 'NOT_ACCEPTABLE',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  uriTooLong: 'URI_TOO_LONG',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  rateLimited: 'RATE_LIMITED',
  csrfRejected: 'CSRF_REJECTED',
  headersTooLarge: 'HEADERS_TOO_LARGE',
  requestTimeout: 'REQUEST_TIMEOUT',
  databaseUnavailable: 'DATABASE_UNAVAILABLE',
  storageFull: 'STORAGE_FULL',
  shuttingDown: 'SHUTTING_DOWN',
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  idempotencyKeyInFlight: 'IDEMPOTENCY_KEY_IN_FLIGHT',
  internal: 'INTERNAL_ERROR',
  // Sign-in and enrollment
  invalidCredentials: 'INVALID_CREDENTIALS',
  invalidName: 'INVALID_NAME',
  pinRequired: 'PIN_REQUIRED',
  pinNotSet: 'PIN_NOT_SET',
  pinAlreadySet: 'PIN_ALREADY_SET',
  lockedOut: 'LOCKED_OUT',
  enrollmentRequired: 'ENROLLMENT_REQUIRED',
  teamPasswordRequired: 'TEAM_PASSWORD_REQUIRED',
  memberNotFound: 'MEMBER_NOT_FOUND',
  memberInactive: 'MEMBER_INACTIVE',
  // Admin
  adminOnly: 'ADMIN_ONLY',
  invalidAdminPassword: 'INVALID_ADMIN_PASSWORD',
  adminPasswordThrottled: 'ADMIN_PASSWORD_THROTTLED',
  memberExists: 'MEMBER_EXISTS',
  forbiddenChange: 'FORBIDDEN_CHANGE',
  pinResetNotFound: 'PIN_RESET_NOT_FOUND',
  alreadyResolved: 'ALREADY_RESOLVED',
  errorLogNotFound: 'ERROR_LOG_NOT_FOUND',
  promptNotFound: 'PROMPT_NOT_FOUND',
  qaRunInProgress: 'QA_RUN_IN_PROGRESS',
  // Review
  unknownComponent: 'UNKNOWN_COMPONENT',
  commentNotFound: 'COMMENT_NOT_FOUND',
  notAuthor: 'NOT_AUTHOR',
  commentResolved: 'COMMENT_RESOLVED',
  commentOpen: 'COMMENT_OPEN',
  tooManyStreams: 'TOO_MANY_STREAMS',
  // AI
  aiTimeout: 'AI_TIMEOUT',
  aiUnavailable: 'AI_UNAVAILABLE',
  generationFailed: 'GENERATION_FAILED',
  suggestionNotFound: 'SUGGESTION_NOT_FOUND',
  noActivePrompt: 'NO_ACTIVE_PROMPT',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
