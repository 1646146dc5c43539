/** BENCH_DATABASE_FRESH=1: a PostgreSQL database of the run's own next to BENCH_DATABASE_URL's, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { errorMessage } from './output.js';

let scratch: { name: string; adminUrl: string } | undefined;

/** CREATE DATABASE biggy_bench_<random> through `adminUrl`; returns its name and URL. */
export async function createScratchDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `biggy_bench_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  scratch = { name, adminUrl };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.href };
}

export function hasScratchDatabase(): boolean {
  return scratch !== undefined;
}

/** Drops the scratch database, if any, once its servers are gone (FORCE ends any straggler). */
export async function dropScratchDatabase(): Promise<void> {
  const current = scratch;
  if (current === undefined) return;
  scratch = undefined;
  const client = new pg.Client({ connectionString: current.adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`drop database if exists ${current.name} with (force)`);
  } catch (error) {
    process.stderr.write(`bench: could not drop the database ${current.name}: ${errorMessage(error)}\n`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
