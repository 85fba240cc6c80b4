import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.shared';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Each test starts its own harness, backend and demo service; two cores run two at a time.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env['CI'],
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  globalSetup: './test/e2e/global-setup.ts',
  use: {
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
});
