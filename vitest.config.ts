import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/keychain/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The keychain tests share one Secret Service; run files one at a time there.
    fileParallelism: true,
  },
});
