/**
 * Playwright fixtures: every test gets its own harness (the real backend in Node, serving the
 * browser build of the renderer) with a fresh data folder, and may start its own demo service.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { test as base, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { startHarness, type RunningHarness } from '../../src/harness/server';
import { startDemoService, type DemoServiceOptions, type RunningDemoService } from '../../src/simulator';
import { ServiceData } from './service-data';

/** How long a service request may take in these tests: far more than a loaded machine needs. */
const SERVICE_TIMEOUT_MS = 120_000;

interface Options {
  /**
   * Time scale of the in-app demo service ("Try the demo"); `test.use({ demoTimeScale: 0.05 })`
   * makes a ~40 s calibration take ~2 s. Undefined: real durations.
   */
  demoTimeScale: number | undefined;
  /**
   * Hold the in-app demo's Calibrations and SICs until the test calls
   * `harness.demoActions.release()`: a test that looks at an action "still running" never races
   * the clock, however busy the machine.
   */
  demoHoldActions: boolean;
  /**
   * Files written into the fresh data folder before the harness starts (e.g. a damaged one); a
   * name may hold a subfolder (`backups/records-….db`).
   */
  dataDirFiles: Record<string, string | Uint8Array>;
}

interface Fixtures {
  /** The harness's data folder (fresh per test, `dataDirFiles` in it). */
  dataDir: string;
  harness: RunningHarness;
  /** Starts a demo service outside the app (closed after the test), as a real service would be. */
  externalService: (options?: DemoServiceOptions) => Promise<RunningDemoService>;
}

export const test = base.extend<Fixtures & Options>({
  demoTimeScale: [undefined, { option: true }],
  demoHoldActions: [false, { option: true }],
  dataDirFiles: [{}, { option: true }],
  dataDir: async ({ dataDirFiles }, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fielddesk-e2e-'));
    for (const [name, content] of Object.entries(dataDirFiles)) {
      await mkdir(dirname(join(dataDir, name)), { recursive: true });
      await writeFile(join(dataDir, name), content);
    }
    await use(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  },
  harness: async ({ demoTimeScale, demoHoldActions, dataDir }, use) => {
    const harness = await startHarness({
      port: 0,
      dataDir,
      staticDir: 'out/web',
      // A keychain entry name of its own, so tests never touch a user's real FieldDesk keys.
      keychainService: `FieldDesk-e2e-${randomUUID()}`,
      // The demo service answers slowly when the machine is loaded; a read that waits is not a
      // lost link here (the app's 15 s would report one and leave data out). The test's budget
      // still bounds every wait.
      serviceTimeoutMs: SERVICE_TIMEOUT_MS,
      demo: {
        holdActions: demoHoldActions,
        ...(demoTimeScale === undefined ? {} : { timeScale: demoTimeScale }),
      },
    });
    await use(harness);
    await harness.close();
  },
  // Playwright requires the destructuring form even when no other fixture is used.
  externalService: async ({}, use) => {
    const started: RunningDemoService[] = [];
    await use(async (options) => {
      const service = await startDemoService({ port: 0, ...options });
      started.push(service);
      return service;
    });
    await Promise.all(started.map((service) => service.close()));
  },
});

export { expect };

/**
 * Keeps a screenshot of a key screen as a test artifact (attached to the report and on disk): the
 * whole page, or only the window (`fullPage` false) where a modal dialog is the point.
 */
export async function keepScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  fullPage = true,
): Promise<void> {
  const dir = join('test-results', 'screens');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** A row's cell of one column of the instrument list (its columns are the user's choice). */
export const listCell = (row: Locator, column: string): Locator => row.locator(`[data-column="${column}"]`);

/** Fills and submits the "Add an account" form. */
export async function addAccount(
  page: Page,
  account: { name: string; baseUrl: string; apiKey: string },
): Promise<void> {
  const form = page.getByRole('form', { name: 'Add an account' });
  await form.getByLabel('Account name').fill(account.name);
  await form.getByLabel('Service address').fill(account.baseUrl);
  await form.getByLabel('API key', { exact: true }).fill(account.apiKey);
  await form.getByRole('button', { name: 'Add account' }).click();
}

/** Opens the app on a laptop-sized screen and chooses "Try the demo", waiting for its fleet. */
export async function tryTheDemo(page: Page, harness: RunningHarness): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(harness.url);
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
}

/** Ticks (or unticks) noise values in the data view's value picker, then closes it. */
export async function setNoiseValues(page: Page, values: readonly string[], on = true): Promise<void> {
  const picker = page.getByTestId('values-picker');
  await picker.getByRole('button').first().click();
  for (const value of values) await picker.getByRole('checkbox', { name: value, exact: true }).setChecked(on);
  await page.keyboard.press('Escape');
  await expect(picker.getByRole('checkbox').first()).toBeHidden();
}

/** Chooses one of the data view's secondary actions ("Export CSV", "Save chart image") from its menu. */
export async function chooseExport(page: Page, action: 'Export CSV' | 'Save chart image'): Promise<void> {
  const menu = page.getByTestId('export-menu');
  await menu.getByRole('button', { name: 'Export', exact: true }).click();
  await menu.getByRole('button', { name: action }).click();
}

/** The API key of the account `openFleet` adds. */
export const FLEET_KEY = 'field-key';

/**
 * The app on a laptop screen with an account on a demo service the test asks too. The service's
 * clock stands still, so the app and the test get the same readings whenever they ask (its rate
 * limit, which follows that clock, is then lifted).
 */
export async function openFleet(
  page: Page,
  harness: RunningHarness,
  start: (options: DemoServiceOptions) => Promise<RunningDemoService>,
  accountName = 'Demo fleet',
): Promise<ServiceData> {
  const now = Date.now();
  const service = await start({ keys: { [FLEET_KEY]: '*' }, now: () => now, rateLimit: 100_000 });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(harness.url);
  await addAccount(page, { name: accountName, baseUrl: service.baseUrl, apiKey: FLEET_KEY });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  return new ServiceData(service, FLEET_KEY);
}

/** Runs a program (the PDF readers of poppler-utils) and answers its output. */
export const runProgram = promisify(execFile);

/** Whether poppler-utils (pdftotext, pdfinfo, pdfimages, pdftoppm) is installed (CI installs it: see .ci/run). */
export async function hasPoppler(): Promise<boolean> {
  try {
    await runProgram('pdftotext', ['-v']);
    return true;
  } catch {
    return false;
  }
}
