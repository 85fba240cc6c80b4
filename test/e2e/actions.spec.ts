/**
 * Field actions end to end: the guided calibration to PASS and to FAIL, a key without
 * instruments:action, the history after a calibration, and re-attaching after a reload.
 *
 * Which demo instrument is healthy and which has no calibrator on site is computed from the demo
 * service's own profiles for seed 1 (the harness's demo and `externalService` both use it), so
 * the tests follow the simulator rather than hard-coded serials.
 */
import type { Locator, Page } from '@playwright/test';
import { generateDemoFleet } from '../../src/simulator';
import { buildHealthProfiles, type CalibrationFault } from '../../src/simulator/health-profiles';
import type { RunningHarness } from '../../src/harness/server';
import { addAccount, expect, keepScreenshot, test } from './fixtures';

interface DemoNoiseInstrument {
  serial: string;
  referenceDb: 94 | 114;
  hasSic: boolean;
}

function onlineNoiseWith(fault: CalibrationFault): DemoNoiseInstrument {
  const createdAt = Date.now();
  const fleet = generateDemoFleet(1, createdAt);
  const profiles = buildHealthProfiles(1, fleet, createdAt);
  // One with SIC when there is one, so the SIC parts can be checked on the same instrument.
  const match = fleet
    .filter((i) => i.wire.type === 'Noise' && i.condition.online)
    .map((i) => profiles.get(i.wire.serialNumber))
    .filter((profile) => profile?.fault === fault)
    .sort((a, b) => Number(b?.hasSic) - Number(a?.hasSic))[0];
  if (match === undefined)
    throw new Error(`The seed-1 demo fleet has no online noise instrument with ${fault}.`);
  return { serial: match.serial, referenceDb: match.referenceDb, hasSic: match.hasSic };
}

const HEALTHY = onlineNoiseWith('none');
const NO_CALIBRATOR = onlineNoiseWith('noCalibrator');

/** The little of a canvas this file needs (the e2e tsconfig has no DOM library). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/** Counts the drawn (non-transparent) pixels of a canvas: a chart that failed to start has none. */
async function drawnPixels(canvas: Locator): Promise<number> {
  return canvas.evaluate((element) => {
    const target = element as unknown as CanvasLike;
    const context = target.getContext('2d');
    if (context === null) return 0;
    const { data } = context.getImageData(0, 0, target.width, target.height);
    let count = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) count += 1;
    return count;
  });
}

/** Lets the demo finish the action it holds on `serial`, once the service has it. */
async function releaseHeld(harness: RunningHarness, serial: string): Promise<void> {
  await expect.poll(() => harness.demoActions.held().map((held) => held.serial)).toContain(serial);
  expect(harness.demoActions.release(serial)).toBe(1);
}

async function openDemoInstrument(page: Page, baseUrl: string, serial: string): Promise<void> {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await page.goto(`${baseUrl}#/instruments/${serial}`);
  await expect(page.getByText(serial).first()).toBeVisible();
}

/** Opens the guided calibration, confirms the instrument's calibrator level and starts. */
async function startCalibration(page: Page, referenceDb: number): Promise<void> {
  await page.getByRole('button', { name: 'Calibrate', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
  await expect(dialog.getByRole('listitem').filter({ hasText: 'Fit calibrator' })).toHaveAttribute(
    'aria-current',
    'step',
  );
  const level = dialog.getByRole('radio', { name: `${referenceDb.toFixed(1)} dB` });
  await level.check();
  await expect(level).toBeChecked();
  await expect(dialog).toContainText(`Set it to ${referenceDb.toFixed(1)} dB`);
  await dialog.getByRole('button', { name: 'Start calibration' }).click();
}

test.describe('calibration watched from start to PASS', () => {
  // Held by the demo service until the test has looked at the run: no race with a busy machine.
  test.use({ demoTimeScale: 0.01, demoHoldActions: true });

  test('a healthy noise instrument calibrates to a clear PASS', async ({ page, harness }, testInfo) => {
    // The demo fleet opened, the guided dialog walked through and its steps checked while the run is
    // held, then the backend's polls (every 2 s) bringing the verdict: about 150 s on two busy cores.
    test.setTimeout(360_000);
    await openDemoInstrument(page, harness.url, HEALTHY.serial);
    await startCalibration(page, HEALTHY.referenceDb);

    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    const progress = dialog.getByTestId('calibration-progress');
    await expect(progress).toBeVisible();
    // The top bar says something runs, and links to it.
    await expect(page.getByTestId('activity')).toContainText('Calibration running');
    await keepScreenshot(page, testInfo, 'calibration-in-progress');
    await expect(progress).toContainText(/\d:\d\d of about 0:40/);
    await expect
      .poll(() => harness.demoActions.held())
      .toEqual([{ serial: HEALTHY.serial, action: 'Calibration' }]);
    await expect(progress.getByRole('progressbar')).toBeVisible();
    await expect(dialog.getByRole('listitem').filter({ hasText: 'Measuring' })).toHaveAttribute(
      'aria-current',
      'step',
    );
    await expect(dialog).toContainText('Keep the calibrator fitted and switched on');
    // Still measuring after all that: the demo holds it until released.
    await expect(progress).toBeVisible();
    await releaseHeld(harness, HEALTHY.serial);

    const verdict = dialog.getByTestId('verdict');
    await expect(verdict.getByTestId('verdict-word')).toHaveText('PASS');
    await expect(verdict).toContainText('Calibration passed');
    await expect(verdict).toContainText(`Deviation from the ${HEALTHY.referenceDb.toFixed(1)} dB reference`);
    await expect(verdict).toContainText('±0.5 dB');
    await expect(verdict.getByTestId('verdict-message')).toContainText(
      `against the ${HEALTHY.referenceDb.toFixed(1)} dB reference`,
    );
    await expect(page.getByTestId('activity')).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'calibration-result');

    // Done: the result stays on the page under the buttons.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('action-run').getByTestId('verdict-word')).toHaveText('PASS');
  });
});

test.describe('an action that finishes while the user is elsewhere', () => {
  test.use({ demoTimeScale: 0.01, demoHoldActions: true, viewport: { width: 1366, height: 768 } });

  test('the top bar names it on one row, and a notice with Open says how it ended', async ({
    page,
    harness,
  }, testInfo) => {
    // The demo fleet, a calibration held while the user goes to the visits, then its verdict
    // by the backend's polls (every 2 s): about 100 s on two busy cores.
    test.setTimeout(300_000);
    await openDemoInstrument(page, harness.url, HEALTHY.serial);
    await startCalibration(page, HEALTHY.referenceDb);
    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    await expect(dialog.getByTestId('calibration-progress')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.getByRole('link', { name: 'Visits', exact: true }).click();

    // One row at 1366 px, naming what runs and where.
    const activity = page.getByTestId('activity');
    await expect(activity).toBeVisible();
    await expect(activity).toContainText('Calibration');
    await expect(activity).toContainText(HEALTHY.serial);
    const bar = await page.locator('header.topbar').boundingBox();
    const link = await page.getByRole('link', { name: 'Instruments', exact: true }).boundingBox();
    expect(bar!.height).toBeLessThan(2 * link!.height + 8);
    await keepScreenshot(page, testInfo, 'topbar-action-running', false);

    await releaseHeld(harness, HEALTHY.serial);
    const notice = page.getByTestId('action-finished');
    await expect(notice).toContainText(
      new RegExp(`Calibration of ${HEALTHY.serial} finished at \\d\\d:\\d\\d: FieldDesk: Pass\\.`),
    );
    await expect(activity).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'action-finished-notice', false);
    await notice.getByRole('link', { name: 'Open' }).click();
    // The instrument's page, its last calibration the one just finished, and the notice read.
    await expect(page.getByTestId('last-calibration')).toContainText('Pass');
    await expect(page.getByTestId('last-calibration')).toContainText('FieldDesk’s verdict');
    await expect(notice).toHaveCount(0);
  });
});

test.describe('calibration against a demo that measures in moments', () => {
  // These look at results only, so the run may be as short as the machine allows.
  test.use({ demoTimeScale: 0.02 });

  test('the instrument without a calibrator on site FAILs and says which rule', async ({
    page,
    harness,
  }, testInfo) => {
    // The instrument's page with its history charts, and a calibration followed to its verdict by the
    // backend's polls: about 110 s on two busy cores.
    test.setTimeout(240_000);
    await openDemoInstrument(page, harness.url, NO_CALIBRATOR.serial);
    await startCalibration(page, NO_CALIBRATOR.referenceDb);

    const verdict = page.getByRole('dialog', { name: /^Calibrate/ }).getByTestId('verdict');
    await expect(verdict.getByTestId('verdict-word')).toHaveText('FAIL');
    await expect(verdict).toContainText('Calibration failed');
    const message = verdict.getByTestId('verdict-message');
    await expect(message).toContainText('reported the calibration as “Failed”');
    await expect(message).toContainText('outside the ±0.5 dB tolerance');
    await expect(message).toContainText('Check that the calibrator is fitted firmly');
    await keepScreenshot(page, testInfo, 'calibration-fail');
  });

  test('with the other calibrator level chosen, the verdict says which level the calibrator is on', async ({
    page,
    harness,
  }, testInfo) => {
    // A calibration followed to its verdict, then the history read again: about 90 s on two busy cores.
    test.setTimeout(240_000);
    const chosen = HEALTHY.referenceDb === 94 ? 114 : 94;
    const fitted = HEALTHY.referenceDb.toFixed(1);
    await openDemoInstrument(page, harness.url, HEALTHY.serial);
    const chart = page.getByTestId('calibration-chart');
    const failedCount = async () =>
      Number((await chart.locator('figcaption').innerText()).match(/(\d+) failed/)?.[1]);
    await expect(chart.locator('figcaption')).toContainText('failed');
    const failedBefore = await failedCount();
    await startCalibration(page, chosen);

    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    const verdict = dialog.getByTestId('verdict');
    await expect(verdict.getByTestId('verdict-word')).toHaveText('FAIL');
    await expect(verdict.getByTestId('verdict-message')).toContainText(
      `the calibrator is probably set to ${fitted} dB, not ${chosen.toFixed(1)} dB`,
    );
    // FieldDesk's verdict and the instrument's, side by side, each named.
    await expect(verdict.getByTestId('verdict-fielddesk')).toContainText(`Fail (`);
    await expect(verdict.getByTestId('verdict-fielddesk')).toContainText(`from ${chosen.toFixed(1)} dB)`);
    await expect(verdict.getByTestId('verdict-instrument')).toHaveText('“Success”');
    await keepScreenshot(page, testInfo, 'calibration-mismatch');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The local record and the service's history agree, each saying whose verdict it shows.
    const kept = page.getByTestId('action-record-table').locator('tbody tr').first();
    await expect(kept).toContainText('FieldDesk: Fail');
    await expect(kept.getByTestId('record-verdicts')).toContainText('; the instrument reported “Success”');
    const newest = page.getByTestId('calibration-table').locator('tbody tr').first();
    await expect(newest).toContainText('Success');
    await expect(newest).toContainText('Fail');

    // One calibration, one truth: the card, the history chart's failure count, the list and Needs
    // attention all say it failed, by FieldDesk's verdict, the instrument's "Success" beside it.
    await page.setViewportSize({ width: 1366, height: 768 });
    const result = page.getByTestId('last-calibration').getByTestId('calibration-result');
    await expect(result).toContainText('Fail');
    await expect(result).toContainText('FieldDesk’s verdict; the instrument reported “Success”');
    await page.getByTestId('last-calibration').scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, 'failed-calibration-card-1366', false);
    // The instrument said "Success", yet the chart counts it among the failed: FieldDesk's verdict.
    await expect.poll(failedCount).toBe(failedBefore + 1);
    await chart.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, 'failed-calibration-history-1366', false);

    await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
    const listed = page.getByRole('table').getByRole('row').filter({ hasText: HEALTHY.serial });
    await expect(listed.locator('.cell-health').nth(1)).toContainText(/^Fail · /);
    await keepScreenshot(page, testInfo, 'failed-calibration-list-1366', false);

    await page.getByTestId('attention-link').click();
    const attention = page
      .getByTestId('attention-table')
      .locator('tbody tr')
      .filter({ hasText: HEALTHY.serial });
    await expect(attention.locator('li[data-kind="calibrationFailed"]')).toContainText(
      'Last calibration failed',
    );
    await expect(attention.locator('li[data-kind="calibrationFailed"]')).toContainText(
      'FieldDesk’s verdict; the instrument reported “Success”',
    );
    await keepScreenshot(page, testInfo, 'failed-calibration-attention-1366', false);
  });

  test('after a calibration, the history shows it first and charts it', async ({
    page,
    harness,
  }, testInfo) => {
    // A calibration followed to its verdict, then the history read again and both charts redrawn:
    // about 85 s on two busy cores.
    test.setTimeout(240_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await openDemoInstrument(page, harness.url, HEALTHY.serial);
    const chart = page.getByTestId('calibration-chart');
    await expect(chart.locator('canvas')).toBeVisible();
    const pointsBefore = Number(await chart.getAttribute('data-points'));
    expect(pointsBefore).toBeGreaterThan(0);

    await startCalibration(page, HEALTHY.referenceDb);
    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    await expect(dialog.getByTestId('verdict-word')).toHaveText('PASS');
    const measured = (
      await dialog
        .getByTestId('verdict')
        .locator('.verdict-fact', { hasText: 'Measured level' })
        .locator('dd')
        .innerText()
    ).trim();
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The newest row is the new result, and the chart has one more calibration.
    await expect(chart).toHaveAttribute('data-points', String(pointsBefore + 1));
    await expect(chart).toHaveAttribute('data-datasets', '5');
    await expect(chart.locator('canvas')).toHaveAttribute('aria-label', /calibrations?/);
    // Really drawn, not an empty canvas: axes, lines and the tolerance band cover thousands of pixels.
    await expect.poll(() => drawnPixels(chart.locator('canvas'))).toBeGreaterThan(5_000);
    const newest = page.getByTestId('calibration-table').locator('tbody tr').first();
    await expect(newest).toContainText('Success');
    await expect(newest).toContainText(measured);
    const sicChart = page.getByTestId('sic-chart');
    await expect(sicChart.locator('canvas')).toBeVisible();
    // The three tones, the failed marks, and each tone's allowed band (upper and lower edge).
    await expect(sicChart).toHaveAttribute('data-datasets', '10');
    await expect.poll(() => drawnPixels(sicChart.locator('canvas'))).toBeGreaterThan(5_000);
    // The local record has the action too, readable without the service.
    // Each verdict says whose it is: FieldDesk's beside the instrument's, in both tables.
    const kept = page.getByTestId('action-record-table').locator('tbody tr').first();
    await expect(kept).toContainText('FieldDesk: Pass');
    await expect(kept.getByTestId('record-verdicts')).toContainText(
      /^Pass \(FieldDesk\): .*; the instrument reported “Success”$/,
    );
    await expect(newest).toContainText('Pass');
    await page.getByTestId('history').scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, 'history-charts');
    expect(pageErrors).toEqual([]);
  });
});

test.describe('identify and SIC against a fast demo', () => {
  test.use({ demoTimeScale: 0.01, demoHoldActions: true });

  test('Identify says the LED is flashing; a SIC shows progress, then PASS with its three bands', async ({
    page,
    harness,
  }, testInfo) => {
    // Identify, then a SIC held, released and followed to its verdict by the backend's polls: about
    // 80 s on two busy cores.
    test.setTimeout(240_000);
    expect(HEALTHY.hasSic).toBe(true);
    await openDemoInstrument(page, harness.url, HEALTHY.serial);
    await page.getByRole('button', { name: 'Identify', exact: true }).click();
    await expect(page.getByTestId('identify-outcome')).toContainText("The instrument's LED is flashing.");

    await page.getByRole('button', { name: 'Run SIC', exact: true }).click();
    const run = page.getByTestId('action-run');
    await expect(run).toContainText('System integrity check (SIC) running');
    await expect(run.getByTestId('action-progress')).toContainText(/\d:\d\d of about 0:30/);
    await releaseHeld(harness, HEALTHY.serial);
    const verdict = run.getByTestId('verdict');
    await expect(verdict.getByTestId('verdict-word')).toHaveText('PASS');
    for (const band of ['500 Hz', '1 kHz', '8 kHz']) {
      const value = verdict.locator('.verdict-fact', { hasText: band }).locator('dd');
      await expect(value).toHaveText(/^\d{2,3}\.\d dB\s*$/);
    }
    await expect(verdict.getByTestId('verdict-message')).toContainText('System integrity check passed');
    await keepScreenshot(page, testInfo, 'sic-result');
  });
});

test.describe('re-attaching after a reload', () => {
  // Held until released: it is still running after the reload however long the reload takes.
  test.use({ demoTimeScale: 0.01, demoHoldActions: true });

  test('a running calibration is still shown after the window reloads', async ({
    page,
    harness,
  }, testInfo) => {
    // The app loaded twice (a reload re-attaches to the held run), then the run released and followed
    // to its verdict: about 130 s on two busy cores.
    test.setTimeout(360_000);
    await openDemoInstrument(page, harness.url, HEALTHY.serial);
    await startCalibration(page, HEALTHY.referenceDb);
    await expect(page.getByTestId('calibration-progress')).toBeVisible();

    await page.reload();
    const run = page.getByTestId('action-run');
    await expect(run).toContainText('Calibration running');
    await expect(run.getByTestId('action-progress')).toContainText(/\d:\d\d of about 0:40/);
    await expect(page.getByTestId('activity')).toContainText('Calibration running');
    // While it runs, no second action can start on this instrument.
    await expect(page.getByRole('button', { name: 'Identify', exact: true })).toBeDisabled();
    await expect(
      page.getByText('Calibration is running on this instrument. Wait for it to finish.'),
    ).toBeVisible();
    await page.setViewportSize({ width: 1024, height: 640 });
    await keepScreenshot(page, testInfo, 'reattached-1024');

    // "Show calibration" re-opens the guided flow on the same run, which still reaches its result.
    await run.getByRole('button', { name: 'Show calibration' }).click();
    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    await expect(dialog.getByTestId('calibration-progress')).toBeVisible();
    await releaseHeld(harness, HEALTHY.serial);
    await expect(dialog.getByTestId('verdict-word')).toHaveText('PASS');
  });
});

test('a key without instruments:action is refused, and the actions say why', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  const service = await externalService({
    keys: { k: ['instruments:read', 'instruments:write', 'data.system:read'] },
  });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Survey office', baseUrl: service.baseUrl, apiKey: 'k' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await page.goto(`${harness.url}#/instruments/${HEALTHY.serial}`);

  const identify = page.getByRole('button', { name: 'Identify', exact: true });
  await expect(identify).toBeEnabled();
  await identify.click();
  await expect(page.getByTestId('identify-outcome')).toContainText(
    'This key cannot run Identify, Calibration and SIC: it lacks instruments:action.',
  );
  for (const name of ['Identify', 'Calibrate', 'Run SIC']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeDisabled();
  }
  const reason = page.getByText('This key cannot run actions: it lacks instruments:action.', { exact: true });
  await expect(reason).toBeVisible();
  // The reason is tied to the buttons for screen readers too.
  await expect(identify).toHaveAccessibleDescription(
    'This key cannot run actions: it lacks instruments:action.',
  );
  await keepScreenshot(page, testInfo, 'actions-missing-scope');
});
