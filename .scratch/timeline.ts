import http from 'node:http';
import { startBenchServer } from './bench-server.js';
import { stopChild, probe } from '../bench/lib/processes.js';
import { signedInCookie, withVotesPath } from '../bench/lib/scenario.js';
import { spawnSync } from 'node:child_process';

const db = process.env.PROBE_DB;
const { child, ready, dataDir } = await startBenchServer(undefined, db);
const name = ready.signIn.name;
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } as NodeJS.ProcessEnv;
delete env.DATABASE_URL; if (db) env.DATABASE_URL = db;
spawnSync(process.execPath, ['dist/server/admin-cli.js', 'set-role', name, 'admin'], { env });
const cookie = await signedInCookie(ready);
const qa = async () => {
  const t = performance.now();
  const r = await probe(ready.appPort, '/api/qa/run-tests', 120000, { method: 'POST', headers: { cookie, 'content-type': 'application/json' } });
  return { t0: t, t1: performance.now(), status: r?.status };
};
await qa();
const path = process.env.PROBE_PATH === 'user' ? '/api/user' : withVotesPath(ready.comments.typical.componentId);
const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
const samples: [number, number][] = [];
let stop = false;
const loop = async () => {
  while (!stop) {
    const s = performance.now();
    await new Promise<void>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: ready.appPort, path, agent, headers: { cookie } }, (res) => { res.resume(); res.on('end', () => resolve()); }).on('error', reject);
    });
    samples.push([s, performance.now() - s]);
  }
};
const loops = Array.from({ length: 50 }, loop);
await new Promise((r) => setTimeout(r, 2000));
const runs = [];
const qaLoop = (async () => { while (!stop) runs.push(await qa()); })();
await new Promise((r) => setTimeout(r, 12000));
stop = true;
await Promise.all(loops); await qaLoop;
const res = await probe(ready.appPort, '/api/qa/test-results?latest=true', 5000, { method: 'GET', headers: { cookie } });
const rows = (JSON.parse(res?.body ?? '{}').results ?? []) as { testSuite: string; testName: string; duration: number }[];
const start = samples[0]![0];
// 100 ms buckets: count, p50, p99, max
const buckets = new Map<number, number[]>();
for (const [s, l] of samples) { const b = Math.floor((s - start) / 100); (buckets.get(b) ?? buckets.set(b, []).get(b)!).push(l); }
const all = samples.map((x) => x[1]).sort((a, b) => a - b);
console.log('overall n', all.length, 'p50', all[Math.floor(all.length * 0.5)]!.toFixed(1), 'p99', all[Math.floor(all.length * 0.99)]!.toFixed(1));
for (const run of runs) console.log('qa run', ((run.t0 - start) / 1000).toFixed(1), '→', ((run.t1 - start) / 1000).toFixed(1));
const out = [...buckets.entries()].map(([b, ls]) => { ls.sort((a, c) => a - c); return `${(b / 10).toFixed(1)} n${ls.length} p50 ${ls[Math.floor(ls.length / 2)]!.toFixed(0)} max ${ls.at(-1)!.toFixed(0)}`; });
console.log(out.join('\n'));
console.log(rows.map((r) => `${r.duration} ${r.testSuite}/${r.testName}`).join('\n'));
await stopChild(child, 5000);
