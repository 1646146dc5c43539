import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { errorReportAcceptedSchema } from '../../../common/contract/error-reports.js';
import { ERROR_TYPES, SEVERITIES } from '../../../common/api/error-reports.js';
import { ERROR_REPORT_LIMITS } from '../../../common/limits.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const REPORT_URL = '/api/errors/log';

/** JSON.stringify answers undefined for undefined, functions and symbols, whatever its typing says. */
function jsonText(value: unknown, fallback: string): string {
  const text = JSON.stringify(value) as string | undefined;
  return text ?? fallback;
}

const validReport = {
  source: 'frontend',
  errorType: 'javascript_error',
  message: 'TypeError: cannot read properties of undefined',
  stack: 'TypeError: cannot read properties of undefined\n    at App (app.tsx:10:5)',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  url: 'http://localhost:5000/analytics',
  severity: 'high',
} as const;

describe('POST /api/errors/log', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  // Every request gets an address of its own unless a test wants to share one, so the per-IP
  // limit never hides what a test is about.
  let nextAddress = 0;
  const freshAddress = () => {
    nextAddress += 1;
    return `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
  };

  /** Reports stored: identical ones share a row, so this counts their occurrences (PostgreSQL sums as text). */
  const countRows = async () => {
    const row = await testApp.app.database.db
      .selectFrom('error_logs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('occurrences'), eb.lit(0)).as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };

  const post = (options: Omit<InjectOptions, 'method' | 'url'> = {}) =>
    testApp.app.inject({ method: 'POST', url: REPORT_URL, remoteAddress: freshAddress(), ...options });

  /** Sends a request the endpoint must refuse; checks the status, the error shape, and that nothing was stored. */
  async function expectRejected(options: Omit<InjectOptions, 'method' | 'url'>, status: number, code?: string) {
    const before = await countRows();
    const response = await post(options);
    expect(response.statusCode, response.body).toBe(status);
    const body = apiErrorSchema.parse(response.json());
    expect(body.message.length).toBeGreaterThan(0);
    if (code !== undefined) expect(body.code).toBe(code);
    expect(body.errorId).toBeUndefined();
    expect(await countRows()).toBe(before);
    return body;
  }

  it('stores a valid report and answers 201 with its id', async () => {
    const before = await countRows();
    const response = await post({ payload: validReport, remoteAddress: '192.0.2.10' });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = errorReportAcceptedSchema.parse(response.json());
    expect(await countRows()).toBe(before + 1);

    const row = await testApp.app.database.db.selectFrom('error_logs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      error_type: 'javascript_error',
      severity: 'high',
      source: 'frontend',
      message: validReport.message,
      stack: validReport.stack,
      user_agent: validReport.userAgent,
      url: validReport.url,
      member_name: null,
      ip: '192.0.2.10',
      resolved: 0,
      resolved_at: null,
      resolved_by: null,
    });
    expect(typeof row.created_at).toBe('number');
    expect(Math.abs(row.created_at - Date.now())).toBeLessThan(60_000);
  });

  it('accepts a report with only the required fields and stores absent ones as null', async () => {
    const response = await post({
      payload: { source: 'frontend', errorType: 'api_error', message: 'x', severity: 'critical' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = errorReportAcceptedSchema.parse(response.json());
    const row = await testApp.app.database.db.selectFrom('error_logs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ error_type: 'api_error', severity: 'critical', stack: null, user_agent: null, url: null });
  });

  it.each(ERROR_TYPES.flatMap((errorType) => SEVERITIES.map((severity) => [errorType, severity] as const)))(
    'accepts errorType %s with severity %s',
    async (errorType, severity) => {
      const response = await post({ payload: { ...validReport, errorType, severity } });
      expect(response.statusCode, response.body).toBe(201);
    },
  );

  it('refuses an unknown errorType with 400 VALIDATION_FAILED', async () => {
    const body = await expectRejected({ payload: { ...validReport, errorType: 'network_error' } }, 400, 'VALIDATION_FAILED');
    expect(body.message).toContain('errorType');
  });

  it('refuses an unknown severity with 400', async () => {
    const body = await expectRejected({ payload: { ...validReport, severity: 'catastrophic' } }, 400, 'VALIDATION_FAILED');
    expect(body.message).toContain('severity');
  });

  it('refuses an unknown extra field with 400', async () => {
    await expectRejected({ payload: { ...validReport, memberName: 'Mallory Forger' } }, 400, 'VALIDATION_FAILED');
  });

  it.each(['source', 'errorType', 'message', 'severity'] as const)('refuses a report missing %s with 400', async (field) => {
    const payload = Object.fromEntries(Object.entries(validReport).filter(([key]) => key !== field));
    const body = await expectRejected({ payload }, 400, 'VALIDATION_FAILED');
    expect(body.message).toContain(field);
  });

  it.each(['backend', 'Frontend', ''])('refuses source %j with 400', async (source) => {
    await expectRejected({ payload: { ...validReport, source } }, 400, 'VALIDATION_FAILED');
  });

  it('refuses a blank message with 400', async () => {
    await expectRejected({ payload: { ...validReport, message: '   ' } }, 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['message', ERROR_REPORT_LIMITS.message],
    ['stack', ERROR_REPORT_LIMITS.stack],
    ['userAgent', ERROR_REPORT_LIMITS.userAgent],
    ['url', ERROR_REPORT_LIMITS.url],
  ] as const)('bounds %s at %i characters', async (field, max) => {
    const atLimit = await post({ payload: { ...validReport, [field]: 'a'.repeat(max) } });
    expect(atLimit.statusCode, atLimit.body).toBe(201);
    await expectRejected({ payload: { ...validReport, [field]: 'a'.repeat(max + 1) } }, 400, 'VALIDATION_FAILED');
  });

  it.each([
    ['a number as message', { ...validReport, message: 42 }],
    ['null severity', { ...validReport, severity: null }],
    ['an object as stack', { ...validReport, stack: { frames: [] } }],
    ['an array body', [validReport]],
    ['a string body', 'javascript_error'],
    ['null body', null],
  ])('refuses %s with 400', async (_name, payload) => {
    await expectRejected({ payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }, 400);
  });

  it('refuses a body over 8 KB with 413', async () => {
    const payload = JSON.stringify({ ...validReport, stack: 'x'.repeat(ERROR_REPORT_LIMITS.bodyBytes) });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(ERROR_REPORT_LIMITS.bodyBytes);
    await expectRejected({ payload, headers: { 'content-type': 'application/json' } }, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses malformed JSON with 400', async () => {
    const body = await expectRejected(
      { payload: '{"source":"frontend","errorType":', headers: { 'content-type': 'application/json' } },
      400,
    );
    expect(body.message).toMatch(/JSON/);
  });

  it('refuses an empty JSON body with 400', async () => {
    await expectRejected({ payload: '', headers: { 'content-type': 'application/json' } }, 400);
  });

  it('refuses a JSON request without any body with 400', async () => {
    await expectRejected({ headers: { 'content-type': 'application/json' } }, 400);
  });

  it('refuses a request without a JSON content type with 403 (CSRF rule)', async () => {
    await expectRejected({}, 403, 'CSRF_REJECTED');
  });

  it('refuses prototype-pollution keys with 400', async () => {
    const payload = `{"source":"frontend","errorType":"api_error","message":"m","severity":"low","__proto__":{"isAdmin":true}}`;
    await expectRejected({ payload, headers: { 'content-type': 'application/json' } }, 400);
    const withConstructor = `{"source":"frontend","errorType":"api_error","message":"m","severity":"low","constructor":{"prototype":{"isAdmin":true}}}`;
    await expectRejected({ payload: withConstructor, headers: { 'content-type': 'application/json' } }, 400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses a text/plain body even when it holds a valid report', async () => {
    const before = await countRows();
    const response = await post({ payload: JSON.stringify(validReport), headers: { 'content-type': 'text/plain' } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    apiErrorSchema.parse(response.json());
    expect(await countRows()).toBe(before);
  });

  it.each(['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'image/png'])(
    'refuses content type %s with 4xx',
    async (contentType) => {
      const before = await countRows();
      const response = await post({ payload: JSON.stringify(validReport), headers: { 'content-type': contentType } });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      apiErrorSchema.parse(response.json());
      expect(await countRows()).toBe(before);
    },
  );

  it('answers the 31st report in a minute from one address with 429 and Retry-After', async () => {
    const address = '198.51.100.7';
    const before = await countRows();
    for (let i = 0; i < ERROR_REPORT_LIMITS.perMinutePerIp; i += 1) {
      const response = await post({ payload: validReport, remoteAddress: address });
      expect(response.statusCode, `report ${i + 1}`).toBe(201);
    }
    expect(await countRows()).toBe(before + ERROR_REPORT_LIMITS.perMinutePerIp);

    const limited = await post({ payload: validReport, remoteAddress: address });
    expect(limited.statusCode).toBe(429);
    expect(apiErrorSchema.parse(limited.json()).code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await countRows()).toBe(before + ERROR_REPORT_LIMITS.perMinutePerIp);

    // Malformed reports from the throttled address are throttled as well, before any parsing.
    const malformed = await post({ payload: '{', headers: { 'content-type': 'application/json' }, remoteAddress: address });
    expect(malformed.statusCode).toBe(429);

    const otherAddress = await post({ payload: validReport, remoteAddress: '198.51.100.8' });
    expect(otherAddress.statusCode).toBe(201);
    expect(await countRows()).toBe(before + ERROR_REPORT_LIMITS.perMinutePerIp + 1);
  });

  it('ignores X-Forwarded-For when no proxy is trusted, so spoofing it does not escape the limit', async () => {
    const address = '198.51.100.20';
    for (let i = 0; i < ERROR_REPORT_LIMITS.perMinutePerIp; i += 1) {
      const response = await post({ payload: validReport, remoteAddress: address, headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      expect(response.statusCode).toBe(201);
    }
    const limited = await post({ payload: validReport, remoteAddress: address, headers: { 'x-forwarded-for': '203.0.113.250' } });
    expect(limited.statusCode).toBe(429);
  });

  it('stores NUL characters and lone surrogates without failing', async () => {
    const response = await post({
      payload: { ...validReport, message: 'before\u0000after \ud800', stack: '\u0000', userAgent: 'ua\u0000', url: '\udfff' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = errorReportAcceptedSchema.parse(response.json());
    const row = await testApp.app.database.db.selectFrom('error_logs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.message.startsWith('before')).toBe(true);
    expect(row.message).toContain('after');
  });

  describe('fuzzed input', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom('', ' ', '\u0000', '\ud800', '<script>alert(1)</script>', "'; drop table error_logs; --", '\u202e'),
      fc.integer({ min: 0, max: 12_000 }).map((length) => 'x'.repeat(length)),
    );
    const wrongType = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
    );
    const field = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: text }, { weight: 1, arbitrary: wrongType });
    const dangerousKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'memberName', 'id', 'resolved');

    // A report-like object with every field sometimes valid, sometimes wrong, sometimes missing, and extra keys.
    // Valid as far as the contract says, yet full of what databases choke on (NUL, lone surrogates).
    const anyText = (maxLength: number) =>
      fc.oneof(
        fc.string({ maxLength }),
        fc.string({ unit: 'grapheme', maxLength }),
        fc.string({ unit: 'binary', maxLength }),
        fc.constantFrom('a\u0000b', '\ud800', '\udfff\ud800', 'ok \u{1F600} \u202e'),
      );
    const validFields = {
      source: fc.constant('frontend'),
      errorType: fc.constantFrom(...ERROR_TYPES),
      message: anyText(200).filter((value) => value.trim() !== ''),
      stack: anyText(500),
      userAgent: anyText(100),
      url: fc.oneof(fc.webUrl(), anyText(100)),
      severity: fc.constantFrom(...SEVERITIES),
    };
    const chaoticFields = fc.record(
      {
        source: field(validFields.source),
        errorType: field(fc.constantFrom(...ERROR_TYPES, 'network_error')),
        message: field(validFields.message),
        stack: field(validFields.stack),
        userAgent: field(validFields.userAgent),
        url: field(validFields.url),
        severity: field(fc.constantFrom(...SEVERITIES, 'catastrophic')),
      },
      { requiredKeys: [] },
    );
    const plausibleFields = fc.record(validFields, { requiredKeys: ['source', 'errorType', 'message', 'severity'] });
    const reportLike = fc
      .tuple(
        fc.oneof(plausibleFields, chaoticFields),
        fc.oneof(
          fc.constant([]),
          fc.array(fc.tuple(fc.oneof(dangerousKey, fc.string({ maxLength: 10 })), fc.oneof(wrongType, fc.jsonValue({ maxDepth: 3 }))), {
            minLength: 1,
            maxLength: 3,
          }),
        ),
      )
      // Written out by hand so '__proto__' and duplicate keys really reach the server as JSON text.
      .map(([fields, extras]) => {
        const entries = [...Object.entries(fields), ...extras];
        return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${jsonText(value, 'null')}`).join(',')}}`;
      });

    const jsonBody = fc.oneof(
      { weight: 6, arbitrary: reportLike },
      { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
      { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }).map((value) => jsonText(value, '')) },
      { weight: 1, arbitrary: fc.string() },
      { weight: 1, arbitrary: reportLike.map((json) => json.slice(0, Math.max(0, json.length - 3))) },
    );
    const body = fc.oneof(
      { weight: 8, arbitrary: jsonBody.map((json) => Buffer.from(json)) },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 10_000 }).map((bytes) => Buffer.from(bytes)) },
    );
    const headerSafe = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789/+-.;=_ *'.split('')), maxLength: 40 });
    const contentType = fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'Application/JSON',
          'application/vnd.api+json',
          'text/plain',
          'text/plain; charset=utf-8',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=----x',
          'application/octet-stream',
          '*/*',
          '',
        ),
      },
      { weight: 1, arbitrary: headerSafe },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );

    it('never answers 5xx and stores a row only for a 201, over 500 generated requests', async () => {
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(body, contentType, async (payload, type) => {
          const before = await countRows();
          const response = await post({
            payload,
            headers: type === undefined ? {} : { 'content-type': type },
          });
          const after = await countRows();
          expect(response.statusCode, response.body).toBeLessThan(500);
          if (response.statusCode === 201) {
            accepted += 1;
            errorReportAcceptedSchema.parse(response.json());
            expect(after).toBe(before + 1);
          } else {
            expect(response.statusCode).toBeGreaterThanOrEqual(400);
            expect(response.statusCode).not.toBe(429);
            expect(apiErrorSchema.parse(response.json()).message.length).toBeGreaterThan(0);
            expect(after).toBe(before);
          }
        }),
        { numRuns: 500 },
      );
      // The generators must reach the storing path too, or the property says little about it.
      expect(accepted).toBeGreaterThan(5);
    });
  });
});

describe('POST /api/errors/log behind a trusted proxy', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ trustProxy: 1 });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const send = (forwardedFor: string, remoteAddress = '127.0.0.1') =>
    testApp.app.inject({
      method: 'POST',
      url: REPORT_URL,
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: validReport,
    });

  it('limits by the forwarded client address', async () => {
    for (let i = 0; i < ERROR_REPORT_LIMITS.perMinutePerIp; i += 1) {
      expect((await send('203.0.113.5', `127.0.0.${i + 1}`)).statusCode).toBe(201);
    }
    expect((await send('203.0.113.5', '127.0.0.99')).statusCode).toBe(429);
    expect((await send('203.0.113.6', '127.0.0.99')).statusCode).toBe(201);
  });

  it('accepts a forwarded address of any length, stores it bounded, and still limits it', async () => {
    const longAddress = `${'f'.repeat(300)}-client`;
    const first = await send(longAddress);
    expect(first.statusCode, first.body).toBe(201);
    const { id } = errorReportAcceptedSchema.parse(first.json());
    const row = await testApp.app.database.db.selectFrom('error_logs').select('ip').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.ip?.length).toBeLessThanOrEqual(64);

    for (let i = 1; i < ERROR_REPORT_LIMITS.perMinutePerIp; i += 1) {
      expect((await send(longAddress)).statusCode).toBe(201);
    }
    expect((await send(longAddress)).statusCode).toBe(429);
    // A different long address has a budget of its own (long keys are hashed, not cut).
    expect((await send(`${'f'.repeat(300)}-other`)).statusCode).toBe(201);
  });

  it('never answers 5xx whatever the forwarded header holds', async () => {
    const headerText = fc.string({
      unit: fc.constantFrom(...'abcdef0123456789.:, []-_xyz%'.split('')),
      maxLength: 400,
    });
    await fc.assert(
      fc.asyncProperty(headerText, async (forwardedFor) => {
        const response = await send(forwardedFor);
        expect(response.statusCode, response.body).toBeLessThan(500);
        expect([201, 429]).toContain(response.statusCode);
      }),
      { numRuns: 100 },
    );
  });
});
