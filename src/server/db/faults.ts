/**
 * Which failures of the database are the database's state rather than a bug: the server answers
 * them 503 (try again shortly) or 507 (the disk is full) instead of a 500, and the health route
 * reports them.
 */
export type DatabaseFault = 'unavailable' | 'storage-full';

/**
 * PostgreSQL SQLSTATEs of a server that is gone, starting, stopping or out of connections: class 08
 * (connection exception), 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now) and
 * 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;

/** Errors of a socket to a database that went away, or never answered. */
const UNAVAILABLE_SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * node-postgres reports a lost connection, a full pool and a pool being ended with plain Errors and
 * no code: these are their messages (pg 8, pg-pool 3).
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
  'terminating connection due to administrator command',
];

/** A database whose connections an administrator turned off (ALLOW_CONNECTIONS false): 55000, a code shared with unrelated errors. */
const NOT_ACCEPTING_CONNECTIONS = /^database ".*" is not currently accepting connections$/;

/**
 * SQLite's answers of a database it cannot write or read right now. SQLITE_BUSY outlived the
 * 5 s busy timeout (another process holds the write lock); SQLITE_IOERR and SQLITE_CANTOPEN are
 * the file system failing under it.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|PROTOCOL)/;

function field(error: object, name: string): unknown {
  const value: unknown = Reflect.get(error, name);
  return value;
}

export function databaseFaultOf(error: unknown, depth = 0): DatabaseFault | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const code = field(error, 'code');
  if (typeof code === 'string') {
    if (code === 'SQLITE_FULL') return 'storage-full';
    if (SQLITE_UNAVAILABLE.test(code) || UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return 'unavailable';
  }
  const message = field(error, 'message');
  if (typeof message === 'string' && (UNAVAILABLE_MESSAGES.some((known) => message.startsWith(known)) || NOT_ACCEPTING_CONNECTIONS.test(message))) return 'unavailable';
  // pg wraps a connect timeout's socket error as `cause`; Kysely and AggregateError keep theirs too.
  return databaseFaultOf(field(error, 'cause'), depth + 1);
}
