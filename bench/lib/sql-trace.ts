/**
 * The SQL statements the bench server runs while a trace is on, each with its time: how many
 * queries an analytics call makes, and which of them is slow. Installed once in bench/server.ts on
 * the drivers' prototypes (better-sqlite3's statements, pg's client), so the app's own Kysely handle
 * is traced as it is, unchanged; while no trace is on, each call costs one flag test.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface TracedStatement {
  sql: string;
  /** Time to the result: synchronous on SQLite, the round trip on PostgreSQL; null when pg was given a callback. */
  ms: number | null;
}

const state: { on: boolean; statements: TracedStatement[] } = { on: false, statements: [] };

function record(text: unknown, ms: number | null): void {
  const sqlText = typeof text === 'string' ? text : typeof text === 'object' && text !== null ? String(Reflect.get(text, 'text')) : String(text);
  state.statements.push({ sql: sqlText.replace(/\s+/g, ' ').trim(), ms: ms === null ? null : Math.round(ms * 1000) / 1000 });
}

function wrap(target: object, method: string, traced: (original: (...args: unknown[]) => unknown, self: unknown, args: unknown[]) => unknown): void {
  const original: unknown = Reflect.get(target, method);
  if (typeof original !== 'function') throw new Error(`cannot trace ${method}: not a function`);
  const call = (self: unknown, args: unknown[]): unknown => Reflect.apply(original, self, args);
  Reflect.set(target, method, function tracedCall(this: unknown, ...args: unknown[]): unknown {
    return state.on ? traced((...inner) => call(this, inner), this, args) : call(this, args);
  });
}

/** Wraps the drivers; call once, before the app opens its database. */
export function installSqlTrace(): void {
  const scratch = new SQLite(':memory:');
  const statementPrototype: unknown = Object.getPrototypeOf(scratch.prepare('select 1'));
  scratch.close();
  if (typeof statementPrototype !== 'object' || statementPrototype === null) throw new Error('better-sqlite3 statements have no prototype');
  // Kysely's SQLite driver runs every query through all() (readers) or run(); better-sqlite3 is synchronous.
  for (const method of ['all', 'get', 'run']) {
    wrap(statementPrototype, method, (original, self, args) => {
      const started = performance.now();
      try {
        return original(...args);
      } finally {
        record(typeof self === 'object' && self !== null ? Reflect.get(self, 'source') : '?', performance.now() - started);
      }
    });
  }
  wrap(pg.Client.prototype, 'query', (original, _self, args) => {
    const started = performance.now();
    const result = original(...args);
    if (result instanceof Promise) {
      return result.finally(() => {
        record(args[0], performance.now() - started);
      });
    }
    record(args[0], null);
    return result;
  });
}

/** Starts a trace, dropping what an earlier one recorded. */
export function startSqlTrace(): void {
  state.statements = [];
  state.on = true;
}

/** Stops the trace; the statements run since it started, in order of completion. */
export function stopSqlTrace(): TracedStatement[] {
  state.on = false;
  const statements = state.statements;
  state.statements = [];
  return statements;
}
