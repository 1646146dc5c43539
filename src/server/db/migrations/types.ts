import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

export interface Migration {
  /** Recorded in schema_migrations; never rename one that has shipped. */
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** An integer primary key the database numbers itself, spelled as each engine wants it. */
export function autoIncrementId(dialect: Dialect) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}
