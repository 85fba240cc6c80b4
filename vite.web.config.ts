/**
 * The renderer built for a plain browser: the same Vue app, with a facade that talks to the
 * browser harness (src/harness) over HTTP and Server-Sent Events instead of Electron IPC.
 * Used by `npm run dev:web` and the Playwright end-to-end tests.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  root: resolve(__dirname, 'src/renderer'),
  plugins: [vue()],
  build: {
    outDir: resolve(__dirname, 'out/web'),
    emptyOutDir: true,
    rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/web.html') } },
  },
});
