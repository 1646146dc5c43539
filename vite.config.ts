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
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/metrics': { target: apiTarget },
    },
  },
});
