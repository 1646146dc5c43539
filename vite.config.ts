import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '5000'}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  publicDir: 'public',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    // bench/ and the e2e harness read the manifest to measure each page's initial JavaScript.
    manifest: true,
    // No source maps in the build: they would hand anyone the original source of the client.
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry loads up front in one chunk: left alone, the bundler cut it into a
          // dozen files shared with the pages, and on a phone's connection each extra request of
          // the first load costs a round trip before anything shows (Lighthouse's mobile preset).
          groups: [
            { name: 'app-shell', tags: ['$initial'], priority: 2 },
            // The icons two pages or more share, in one file rather than one file each: a page
            // imported a dozen icons of a few hundred bytes, each a request of its own, and a phone
            // on HTTP/1.1 fetches six at a time.
            { name: 'icons', test: /lucide-react/, minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/metrics': { target: apiTarget },
    },
  },
});
