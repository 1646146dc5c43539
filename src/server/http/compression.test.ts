import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrlOf } from '../test/event-stream.js';
import { apiCall, cookieHeader, signInAs, type SessionCookies } from '../test/sign-in.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { COMPRESS_ABOVE_BYTES, COMPRESS_REUSED_BYTES, registerCompression, remembering } from './compression.js';
import type { App } from './types.js';

const BROWSER = 'gzip, deflate, br, zstd';
const NO_BROTLI = 'gzip, deflate';

/** The body as the client reads it once it has undone the Content-Encoding. */
function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  if (encoding !== undefined) throw new Error(`unexpected Content-Encoding ${encoding}`);
  return response.rawPayload.toString('utf8');
}

function varies(response: LightMyRequestResponse): boolean {
  return (response.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .some((name) => name.trim() === 'accept-encoding');
}

describe('compressed API answers', () => {
  const COMPONENT = 'event-correlation';
  const WITH_VOTES = `/api/comments/${COMPONENT}/with-votes`;
  let testApp: TestApp;
  let app: App;
  let alice: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    alice = await signInAs(app, 'Alice Moreau');
    for (let index = 0; index < 6; index += 1) {
      const content = `Comment ${index}: the correlation window should follow the maintenance calendar, or every planned reboot opens an incident nobody needs.`;
      const posted = await apiCall(app, 'POST', '/api/comments', alice, { componentId: COMPONENT, content });
      expect(posted.statusCode, posted.body).toBe(201);
    }
  });
  afterAll(async () => {
    await testApp.close();
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, cookies: alice, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends a JSON answer over 1 KB as brotli when the request accepts it, as gzip when it accepts only gzip', async () => {
    const plain = await get(WITH_VOTES);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_ABOVE_BYTES);
    const expected: unknown = plain.json();

    for (const [acceptEncoding, encoding] of [
      [BROWSER, 'br'],
      ['br', 'br'],
      [NO_BROTLI, 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['x-gzip', 'gzip'],
    ] as const) {
      const response = await get(WITH_VOTES, acceptEncoding);
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(response.headers['content-type'], acceptEncoding).toBe('application/json; charset=utf-8');
      expect(varies(response), acceptEncoding).toBe(true);
      expect(response.rawPayload.length, acceptEncoding).toBeLessThan(plain.rawPayload.length / 2);
      expect(Number(response.headers['content-length']), acceptEncoding).toBe(response.rawPayload.length);
      expect(JSON.parse(decoded(response)), acceptEncoding).toEqual(expected);
    }
  });

  it('sends the answer as it is without Accept-Encoding, or when neither brotli nor gzip is accepted', async () => {
    for (const acceptEncoding of [undefined, '', 'identity', 'deflate', 'zstd', 'br;q=0, gzip;q=0']) {
      const response = await get(WITH_VOTES, acceptEncoding);
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(JSON.parse(response.rawPayload.toString('utf8')), acceptEncoding).toBeInstanceOf(Array);
    }
  });

  it('sends an answer of 1 KB or less as it is', async () => {
    const response = await get('/api/user', BROWSER);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.rawPayload.length).toBeLessThanOrEqual(COMPRESS_ABOVE_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ name: 'Alice Moreau' });
  });

  it('answers a repeat read of a cached answer with the same compressed bytes, and a change with new ones', async () => {
    const first = await get(WITH_VOTES, BROWSER);
    const again = await get(WITH_VOTES, BROWSER);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

    await apiCall(app, 'POST', '/api/comments', alice, { componentId: COMPONENT, content: 'One more, so the list changes.' });
    const changed = await get(WITH_VOTES, BROWSER);
    expect(changed.headers['content-encoding']).toBe('br');
    const comments = JSON.parse(decoded(changed)) as { content: string }[];
    expect(comments.map((comment) => comment.content)).toContain('One more, so the list changes.');
  });

  it('refuses a signed-out read as before, whatever it accepts', async () => {
    const response = await app.inject({ method: 'GET', url: WITH_VOTES, headers: { 'accept-encoding': BROWSER } });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(decoded(response))).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('never compresses the live-event stream', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      const request = http.get(
        `${baseUrlOf(app)}/api/events`,
        { headers: { cookie: cookieHeader(alice), accept: 'text/event-stream', 'accept-encoding': BROWSER }, agent: false },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            // The first frame arrives as text, readable as it is.
            expect(chunk.toString('utf8')).toMatch(/^(retry|:|event|data)/m);
            resolve(response.headers);
            request.destroy();
          });
        },
      );
      request.on('error', reject);
    });
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
  });
});

describe('answers of routes that are not cached', () => {
  const items = Array.from({ length: 100 }, (_, index) => ({ id: index, text: `item ${index} of a long list` }));
  /** A large answer sent as the same Buffer every time, as a cached route sends it. */
  const reused = Buffer.from(JSON.stringify(Array.from({ length: 3000 }, (_, index) => ({ id: index, text: `entry ${index}` }))));
  const compressions: string[] = [];
  let app: App;

  beforeAll(async () => {
    app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await registerCompression(app);
    app.get('/api/items', () => items);
    app.get('/api/one', () => items[0]);
    app.get('/page', (_request, reply) => reply.type('text/html; charset=utf-8').send(`<p>${'x'.repeat(4000)}</p>`));
    app.post('/api/echo', (request) => ({ received: request.body }));
    // COMPRESS_REUSED_BYTES with its compressors counted: the plugin must hand them the very Buffer sent, whatever its size.
    const counted = (encoding: string, compress: (payload: Buffer, options: object) => Buffer) =>
      remembering((payload: Buffer, options: object) => {
        compressions.push(encoding);
        return compress(payload, options);
      });
    app.get('/api/reused', { compress: { ...COMPRESS_REUSED_BYTES, zlib: { brotliCompressSync: counted('br', brotliCompressSync), gzipSync: counted('gzip', gzipSync) } } }, (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(reused),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('compresses a JSON answer over 1 KB made for the request, by the Accept-Encoding', async () => {
    for (const [acceptEncoding, encoding] of [
      [BROWSER, 'br'],
      [NO_BROTLI, 'gzip'],
    ] as const) {
      const response = await app.inject({ method: 'GET', url: '/api/items', headers: { 'accept-encoding': acceptEncoding } });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decoded(response))).toEqual(items);
    }
    const plain = await app.inject({ method: 'GET', url: '/api/items' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(items);
  });

  it('leaves a small answer, and anything outside /api, as it is', async () => {
    const small = await app.inject({ method: 'GET', url: '/api/one', headers: { 'accept-encoding': BROWSER } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual(items[0]);
    const page = await app.inject({ method: 'GET', url: '/page', headers: { 'accept-encoding': BROWSER } });
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.body).toContain('<p>x');
  });

  it('compresses a reused Buffer once per encoding, through the compressors of the reused-bytes setting', async () => {
    expect(reused.length).toBeGreaterThan(64 * 1024);
    for (const acceptEncoding of [BROWSER, BROWSER, NO_BROTLI, BROWSER, NO_BROTLI]) {
      const response = await app.inject({ method: 'GET', url: '/api/reused', headers: { 'accept-encoding': acceptEncoding } });
      expect(decoded(response)).toBe(reused.toString('utf8'));
    }
    expect(compressions).toEqual(['br', 'gzip']);
  });

  it('reads a request body as it is sent: a compressed body is not unpacked', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ hello: 'world' })),
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('remembering', () => {
  it('compresses a Buffer once, however often it is sent, and another Buffer again', () => {
    let calls = 0;
    const compress = remembering((payload: Buffer, options: { quality: number }) => {
      calls += 1;
      return brotliCompressSync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: options.quality } });
    });
    const body = Buffer.from(JSON.stringify({ text: 'x'.repeat(2000) }));
    const first = compress(body, { quality: 4 });
    expect(compress(body, { quality: 4 })).toBe(first);
    expect(calls).toBe(1);
    const sameText = Buffer.from(body);
    expect(compress(sameText, { quality: 4 })).not.toBe(first);
    expect(calls).toBe(2);
    expect(brotliDecompressSync(first).equals(body)).toBe(true);
  });
});

describe('the client build next to compressed answers', () => {
  const script = `console.log(${JSON.stringify('a long line of the client build '.repeat(80))});\n`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`;
  let testApp: TestApp;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'biggy-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), `<!doctype html><html><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`);
    // As scripts/compress-assets.mjs leaves them: the file, its .br and its .gz.
    await writeFile(path.join(clientDir, 'assets', 'app-abc123.js'), script);
    await writeFile(path.join(clientDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    await writeFile(path.join(clientDir, 'assets', 'app-abc123.js.gz'), gzipSync(script));
    await writeFile(path.join(clientDir, 'logo.svg'), svg);
    testApp = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await testApp.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) => testApp.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('serves the compressed copies made at build time, once compressed', async () => {
    for (const [acceptEncoding, encoding] of [
      [BROWSER, 'br'],
      [NO_BROTLI, 'gzip'],
      [undefined, undefined],
    ] as const) {
      const response = await get('/assets/app-abc123.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(decoded(response)).toBe(script);
    }
  });

  it('serves the page and a file without compressed copies as they are', async () => {
    const page = await get('/', BROWSER);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.body).toContain('<div id="root">');
    const logo = await get('/logo.svg', BROWSER);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-encoding']).toBeUndefined();
    expect(logo.body).toBe(svg);
  });
});
