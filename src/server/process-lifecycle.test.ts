import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test/test-database.js';
import { freePort, getStatus, startServerProcess, waitFor, type ServerProcess } from './test/server-process.js';

/** Start-up of the real server process when its database is taken or out of reach. */
describe('starting the server', { timeout: 40_000 }, () => {
  const started: ServerProcess[] = [];
  const databases: TestDatabase[] = [];

  afterAll(async () => {
    for (const server of started) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exit;
      }
    }
    for (const database of databases) await database.drop();
  });

  const start = (env: NodeJS.ProcessEnv) => {
    const server = startServerProcess({ LOG_LEVEL: 'warn', TEAM_PASSWORD: 'team-password-for-tests', ADMIN_PASSWORD: 'admin-password-for-tests', PIN_PEPPER: 'pepper-for-tests-0123456789', ...env });
    started.push(server);
    return server;
  };

  it.skipIf(process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '')(
    'refuses a second server on the same SQLite data directory, naming the process that holds it',
    async () => {
      const database = await createTestDatabase();
      databases.push(database);
      const firstPort = await freePort();
      const first = start({ DATA_DIR: database.dataDir, PORT: String(firstPort) });
      await waitFor(async () => {
        if (first.child.exitCode !== null) throw new Error(`the first server exited: ${first.stderr()}`);
        return (await getStatus(firstPort, '/api/health')) === 200;
      }, 20_000, 'the first server to answer');

      const second = start({ DATA_DIR: database.dataDir, PORT: String(await freePort()) });
      const exited = await second.exit;
      expect(exited.code).toBe(1);
      const lines = second.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`process ${first.child.pid ?? 0}`);
      expect(lines[0]).toContain(database.dataDir);
      // The first one is untouched.
      expect(await getStatus(firstPort, '/api/health')).toBe(200);

      // A lock left by a server that was killed does not keep the next one out.
      first.child.kill('SIGKILL');
      await first.exit;
      const thirdPort = await freePort();
      const third = start({ DATA_DIR: database.dataDir, PORT: String(thirdPort) });
      await waitFor(async () => {
        if (third.child.exitCode !== null) throw new Error(`the restarted server exited: ${third.stderr()}`);
        return (await getStatus(thirdPort, '/api/health')) === 200;
      }, 20_000, 'the restarted server to answer');
    },
  );

  it('waits for an unreachable PostgreSQL, then exits with one line naming DATABASE_URL', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const begun = Date.now();
    // Nothing listens on port 1.
    const server = start({ DATA_DIR: database.dataDir, PORT: String(await freePort()), DATABASE_URL: 'postgres://biggy:secret-in-url@127.0.0.1:1/biggy', DATABASE_STARTUP_WAIT_SECONDS: '2' });
    const exited = await server.exit;
    expect(exited.code).toBe(1);
    // It waited (with retries) for the configured time before giving up.
    expect(exited.at - begun).toBeGreaterThanOrEqual(2000);
    const lines = server.stderr().trim().split('\n');
    const last = lines.at(-1) ?? '';
    expect(last).toMatch(/^Cannot reach the database that DATABASE_URL names \(127\.0\.0\.1:1\/biggy\)/);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expect(server.stderr()).not.toContain('secret-in-url');
  });
});
