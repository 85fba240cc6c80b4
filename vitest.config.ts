import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/keychain/**/*.test.ts'],
    environment: 'node',
    // The JSON report feeds the totals line of .ci/run.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    testTimeout: 20_000,
  },
});
