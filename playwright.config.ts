import { cpus } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.shared';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  // A test has one clock: its budget. Waits for a state have none of their own (expect timeout 0:
  // until the budget runs out), so a busy machine makes a test slower, not failed; a wrong state
  // still fails it, with the expect's own message. This budget fits a test of a few screens on two
  // busy cores (at most about 70 s at a load average of 20); a test that does more sets its own
  // with `test.setTimeout`, saying what takes the time and how long it took on two busy cores.
  timeout: 120_000,
  expect: { timeout: 0 },
  // Each test starts its own harness, backend and demo service; a worker a core. (One more worker
  // than cores, or the year's tests started first, was a minute quicker, but the year's test then
  // measured its page's main-thread blocks while other browsers shared the cores: twice its budget.
  // Its file turns traces off, which gives it workers of its own, started after the others.)
  workers: Math.max(2, cpus().length),
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
