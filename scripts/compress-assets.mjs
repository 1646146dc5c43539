// Writes .br and .gz beside every compressible file of the client build, so @fastify/static
// (preCompressed) serves them without compressing on each request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../dist/client');
const compressible = /\.(js|css|svg|json|txt)$/;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (compressible.test(entry.name) && !full.includes(`${path.sep}.vite${path.sep}`)) yield full;
  }
}

let files = 0;
for await (const file of walk(root)) {
  const content = await readFile(file);
  if (content.length < 1024) continue;
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  files += 1;
}
console.log(`compressed ${files} client files (.br, .gz)`);
