// Runs each argument as a shell command, all at once, and fails if any fails. The checks before the
// tests are single-threaded (tsc, ESLint), so on a two-core machine two lanes take the time of the
// longer one rather than of both. Each lane's output is printed whole when it ends, not interleaved.
import { spawn } from 'node:child_process';

const lanes = process.argv.slice(2);
if (lanes.length === 0) {
  process.stderr.write('usage: node scripts/lanes.mjs "<command>" ["<command>" ...]\n');
  process.exit(2);
}

const results = await Promise.all(
  lanes.map(
    (command) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (chunk) => chunks.push(chunk));
        child.stderr.on('data', (chunk) => chunks.push(chunk));
        child.on('error', (error) => {
          process.stdout.write(`\n> ${command}\n${String(error)}\n`);
          resolve(false);
        });
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(0);
          const status = code === 0 ? 'passed' : `failed (${signal ?? `exit code ${String(code)}`})`;
          process.stdout.write(`\n> ${command}\n${Buffer.concat(chunks).toString()}> ${status} in ${seconds} s\n`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exitCode = results.every(Boolean) ? 0 : 1;
