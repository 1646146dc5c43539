import fastifyCompress, { type FastifyCompressOptions, type FastifyCompressRouteOptions } from '@fastify/compress';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isApiPath } from './security-headers.js';
import type { App } from './types.js';

/** An answer of this many bytes or fewer goes as it is: compressing it would save less than it costs. */
export const COMPRESS_ABOVE_BYTES = 1024;

/**
 * Brotli's quality 4 of 11 and gzip's level 6 (ADR 0029): on the API's JSON, quality 4 packs about
 * as small as gzip 6, as fast on small answers and several times faster on large ones; the default
 * 11 takes 50–200 times longer for 20–30% fewer bytes. Both are made while a request waits, or, for
 * the cached answers, once per change.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

const SETTINGS = {
  // In this order of preference: brotli when the request accepts it, else gzip, else nothing.
  encodings: ['br', 'gzip'],
  // The plugin compresses from `threshold` bytes on.
  threshold: COMPRESS_ABOVE_BYTES + 1,
  brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
  zlibOptions: { level: GZIP_LEVEL },
} satisfies FastifyCompressOptions;

type RouteCompression = Exclude<FastifyCompressRouteOptions['compress'], false | undefined>;

/**
 * A compressor that remembers what it made from each Buffer for as long as that Buffer lives. The
 * options are those of the one setting it is used with, so they are not part of the key.
 */
export function remembering<Options>(compress: (payload: Buffer, options: Options) => Buffer): (payload: Buffer, options: Options) => Buffer {
  const made = new WeakMap<Buffer, Buffer>();
  return (payload, options) => {
    let compressed = made.get(payload);
    if (compressed === undefined) {
      compressed = compress(payload, options);
      made.set(payload, compressed);
    }
    return compressed;
  };
}

/**
 * For a route that sends the same Buffer again and again (a `cachedJson` answer, the architecture):
 * the plugin still decides whether and how to compress, but each encoding of a Buffer is made once,
 * in one synchronous call, and kept beside it until the Buffer is dropped (a change event, the 10 s
 * expiry). A repeat read costs no compression.
 */
export const COMPRESS_REUSED_BYTES: RouteCompression = {
  ...SETTINGS,
  zlib: { brotliCompressSync: remembering(brotliCompressSync), gzipSync: remembering(gzipSync) },
  // Always the one-call path: the stream path would compress again on every request.
  syncThreshold: Number.MAX_SAFE_INTEGER,
};

/**
 * Compresses /api answers over COMPRESS_ABOVE_BYTES by the request's Accept-Encoding (ADR 0029).
 * Everything else is left as it is: the client build is compressed when it is built and
 * @fastify/static serves those files, and the SPA shell is under 2 KB. The live-event stream is
 * never compressed: its route writes to the socket itself, and `text/event-stream` is not a type
 * the plugin compresses. Request bodies are not decompressed: a compressed body is refused as
 * before.
 */
export async function registerCompression(app: App): Promise<void> {
  // Added before the plugin's own onRoute hook, so it sees `compress: false` on every other route.
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) route.compress = false;
  });
  await app.register(fastifyCompress, { ...SETTINGS, globalDecompression: false });
}
