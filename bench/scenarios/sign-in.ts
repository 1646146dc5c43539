/** POST /api/login: correct sign-ins, bounded by argon2id rather than by the request path. */
import { SETTINGS } from '../lib/settings.js';
import { loginBody, percentOf, unexpected, type Scenario } from '../lib/scenario.js';
import { cookieValue } from '../lib/processes.js';
import { argon2BoundPerSecond, SESSION_COOKIE } from '../lib/protocol.js';
import { fixed, thousands } from '../lib/table.js';

export const SIGN_IN_SCENARIO: Scenario = {
  name: 'POST /api/login',
  method: 'POST',
  path: '/api/login',
  server: 'app',
  connections: SETTINGS.loginConnections,
  durationSeconds: SETTINGS.loginDurationSeconds,
  prepare: (ready) => Promise.resolve(loginBody(ready)),
  expect: (response) =>
    response.status === 200 && cookieValue(response.setCookies, SESSION_COOKIE) !== undefined && response.body.includes('"name":') ? undefined : unexpected(response),
  judge: (load, { ready }) => {
    const { argon2 } = ready;
    const bound = argon2BoundPerSecond(argon2);
    const share = load.requestsPerSecond / bound;
    const total = load.serverCpuMicrosPerRequest;
    const main = load.serverMainThreadCpuMicrosPerRequest;
    const split =
      total === undefined || main === undefined
        ? []
        : [`server CPU per login ${thousands(total)} µs: ${thousands(main)} µs on the event loop, ${thousands(total - main)} µs on other threads (nearly all argon2)`];
    return {
      target: '0 non-2xx (argon2-bound: no req/s target)',
      gated: true,
      problems: [],
      notes: [
        `argon2id before the load: verify ${fixed(argon2.verifyMs, 1)} ms (median of ${argon2.verifySamples}), hash ${fixed(argon2.hashMs, 1)} ms; ` +
          `${argon2.parallel} at once (min of ${argon2.cores} cores and libuv's pool of ${argon2.threadPoolSize}) → bound ${thousands(bound)} req/s; ` +
          `measured ${thousands(load.requestsPerSecond)} req/s = ${percentOf(share)} of it`,
        ...split,
      ],
      measured: `${thousands(load.requestsPerSecond)} req/s (${percentOf(share)} of the argon2 bound ${thousands(bound)}), p50 ${fixed(load.latencyMs.p50, 2)} ms, p99 ${fixed(load.latencyMs.p99, 2)} ms`,
      argon2: { ...argon2, boundRequestsPerSecond: Math.round(bound), shareOfBound: Math.round(share * 1000) / 1000 },
    };
  },
};
