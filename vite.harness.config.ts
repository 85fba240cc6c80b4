/**
 * The browser harness built as a plain Node program (`out/harness/cli.cjs`) in the same shape as
 * Electron's main bundle: CommonJS, with native and CommonJS dependencies left to Node's own module
 * loader and ESM-only ones bundled. Tests run the backend through it — the loader path the app
 * takes, not vitest's module graph — and `npm run harness` starts it without a TypeScript loader.
 */
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { dependencies } from './package.json';
import { BUNDLED_DEPENDENCIES } from './build.shared';

const external = Object.keys(dependencies).filter((name) => !BUNDLED_DEPENDENCIES.includes(name));

export default defineConfig({
  build: {
    ssr: resolve(__dirname, 'src/harness/cli.ts'),
    outDir: resolve(__dirname, 'out/harness'),
    emptyOutDir: true,
    target: 'node22',
    rollupOptions: {
      external: [...builtinModules, /^node:/, ...external.map((name) => new RegExp(`^${name}(/|$)`))],
      output: { format: 'cjs', entryFileNames: 'cli.cjs' },
    },
  },
  // Bundle everything but what `external` names, as electron-vite does for the main process.
  ssr: { noExternal: true },
});
