import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/keychain/**/*.test.ts'],
    environment: 'node',
    // The JSON report feeds the totals line of .ci/run.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    // A budget, not a speed target: tests wait for states, and a loaded two-core machine runs the
    // slowest (child processes, real servers, whole assessments) several times slower than idle.
    testTimeout: 60_000,
  },
});
