import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';
import { BUNDLED_DEPENDENCIES } from './build.shared';

export default defineConfig({
  main: {
    build: {
      // ESM-only dependencies are bundled into the CommonJS main; native and Electron stay external.
      externalizeDeps: { exclude: BUNDLED_DEPENDENCIES },
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      // electron-vite leaves the renderer unminified by default; minified it parses faster at start.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [vue()],
  },
});
