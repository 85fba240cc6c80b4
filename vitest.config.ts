import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

const TEST_DIRS = ['test/unit', 'test/keychain'];

/**
 * Test files that replace a module (`vi.mock`), a global or the DOM environment need a module graph
 * of their own; every other file shares its worker's graph with the files before it, which saves
 * importing the whole backend ~190 times (most of the suite's time when each file was isolated).
 */
const NEEDS_ISOLATION = /\bvi\.(mock|doMock|stubGlobal)\(|@vitest-environment/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(dir, name));
}

const isolatedFiles = TEST_DIRS.flatMap(testFiles).filter((file) =>
  NEEDS_ISOLATION.test(readFileSync(file, 'utf8')),
);

export default defineConfig({
  plugins: [vue()],
  test: {
    environment: 'node',
    // The JSON report feeds the totals line of .ci/run.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    // A budget, not a speed target: tests wait for states, and a loaded two-core machine runs the
    // slowest (child processes, real servers, whole assessments) several times slower than idle.
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: TEST_DIRS.map((dir) => `${dir}/**/*.test.ts`),
          exclude: isolatedFiles,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: isolatedFiles, isolate: true },
      },
    ],
  },
});
