/** Health and user reads: the plain baseline, GET /api/health, the SPA shell and GET /api/user. */
import { get, info, p99Judgement, p99Problems, percentOf, signedInHeaders, unexpected, type Scenario } from '../lib/scenario.js';
import { SETTINGS } from '../lib/settings.js';

export const READ_TARGETS = { healthRatio: 0.5, healthP99Ms: 10, userP99Ms: 10 } as const;

const baseline: Scenario = {
  ...get('baseline GET /baseline', '/baseline', { server: 'baseline' }),
  expect: (response) => (response.status === 200 && response.body === '{"ok":true}' ? undefined : unexpected(response)),
  judge: () => info('reference'),
};

const health: Scenario = {
  ...get('GET /api/health', '/api/health'),
  expect: (response) => (response.status === 200 && response.body.includes('"status":"ok"') ? undefined : unexpected(response)),
  judge: (load, { ratio }) => {
    const { healthRatio, healthP99Ms } = READ_TARGETS;
    const share = ratio >= healthRatio ? [] : [`req/s is ${percentOf(ratio)} of the baseline, under ${healthRatio * 100}%`];
    return { target: `≥ ${healthRatio * 100}% of baseline, p99 < ${healthP99Ms} ms`, gated: true, problems: [...share, ...p99Problems(load, healthP99Ms)], notes: [] };
  },
};

const spaShell: Scenario = {
  ...get('GET / (SPA shell)', '/'),
  skipReason: (clientDir) => (clientDir === undefined ? 'dist/client is missing' : undefined),
  expect: (response) => (response.status === 200 && response.contentType.startsWith('text/html') ? undefined : unexpected(response)),
  judge: () => info('—'),
};

const user: Scenario = {
  ...get('GET /api/user (signed in)', '/api/user'),
  prepare: signedInHeaders,
  expect: (response) => (response.status === 200 && response.body.includes('"name":') ? undefined : unexpected(response)),
  judge: (load, { ratio }) =>
    p99Judgement(load, READ_TARGETS.userP99Ms, SETTINGS.connections, [`${percentOf(ratio)} of the baseline's req/s; the session lookup is one indexed query, kept for a second`]),
};

/** In run order; the sign-in scenario runs between the SPA shell and the user read. */
export const READ_SCENARIOS = { baseline, health, spaShell, user } as const;
