import { startBenchServer } from './bench-server.js';
import { stopChild, probe } from '../bench/lib/processes.js';
import { runLoad } from '../bench/lib/load.js';
import { signedInCookie } from '../bench/lib/scenario.js';
import { spawnSync } from 'node:child_process';

const db = process.env.PROBE_DB;
const { child, ready, dataDir } = await startBenchServer(undefined, db);
const metrics = async () => (await probe(ready.appPort, '/metrics', 5000, { method: 'GET', headers: {} }))?.body ?? '';
const gc = (text: string) => text.split('\n').filter((l) => /^nodejs_gc_duration_seconds_(sum|count)|^nodejs_eventloop_lag_(p99|max)|nodejs_heap_size_used|nodejs_active_handles_total|nodejs_active_resources_total|process_open_fds/.test(l)).join('\n');
try {
  const name = ready.signIn.name;
  if (process.env.PROBE_QA === '1') {
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } as NodeJS.ProcessEnv;
    delete env.DATABASE_URL; if (db) env.DATABASE_URL = db;
    spawnSync(process.execPath, ['dist/server/admin-cli.js', 'set-role', name, 'admin'], { env });
  }
  const cookie = await signedInCookie(ready);
  if (process.env.PROBE_QA_FIRST === '1') {
    const t = performance.now();
    const r = await probe(ready.appPort, '/api/qa/run-tests', 120000, { method: 'POST', headers: { cookie, 'content-type': 'application/json' } });
    console.log('qa', r?.status, Math.round(performance.now() - t));
  }
  for (const path of (process.env.PROBE_PATHS ?? '/api/user').split(',')) {
    if (path === 'QA') {
      const t = performance.now();
      const r = await probe(ready.appPort, '/api/qa/run-tests', 120000, { method: 'POST', headers: { cookie, 'content-type': 'application/json' } });
      console.log('qa', r?.status, Math.round(performance.now() - t));
      if (process.env.PROBE_QA_DETAIL === '1') {
        const res = await probe(ready.appPort, '/api/qa/test-results?latest=true', 5000, { method: 'GET', headers: { cookie } });
        const rows = (JSON.parse(res?.body ?? '{}').results ?? []) as { testSuite: string; testName: string; duration: number }[];
        rows.sort((a, b) => b.duration - a.duration);
        const total = rows.reduce((s, r) => s + r.duration, 0);
        console.log('sum of durations', total);
        for (const r of rows.slice(0, 25)) console.log(String(r.duration).padStart(6), r.testSuite, '/', r.testName);
      }
      continue;
    }
    const before = gc(await metrics());
    const load = await runLoad({ url: `http://127.0.0.1:${ready.appPort}${path}`, request: { method: 'GET', headers: { cookie } }, connections: 50, durationSeconds: 8, warmUpSeconds: 1, serverPid: child.process.pid });
    console.log(path, Math.round(load.requestsPerSecond), load.latencyMs, load.serverCpuMicrosPerRequest, load.statusCodes);
    if (process.env.PROBE_METRICS === '1') console.log('before\n' + before + '\nafter\n' + gc(await metrics()));
  }
  if (process.env.PROBE_QA === '1') spawnSync(process.execPath, ['dist/server/admin-cli.js', 'set-role', name, 'member'], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: db } as NodeJS.ProcessEnv });
} finally {
  await stopChild(child, 5000);
}
