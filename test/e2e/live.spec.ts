/**
 * The live check end to end: a demo noise instrument's newest 1 s LAeq in large digits, rising to
 * the calibrator's 94 dB while a calibration runs (held by the demo service, so the test watches
 * states, not the clock), polling that stops when the view is left, and the finished calibration
 * recorded as a desktop notice while the window is in the background.
 *
 * The page's clock is Playwright's (`page.clock`): it runs as usual, and the test moves it on to
 * show that a view left behind reads nothing however long it waits, without waiting itself.
 */
import type { Page } from '@playwright/test';
import { generateDemoFleet } from '../../src/simulator';
import { buildHealthProfiles } from '../../src/simulator/health-profiles';
import { expect, keepScreenshot, test } from './fixtures';

/** An online, healthy noise instrument of the seed-1 demo whose calibrator is a 94 dB one. */
function healthy94(): string {
  const createdAt = Date.now();
  const fleet = generateDemoFleet(1, createdAt);
  const profiles = buildHealthProfiles(1, fleet, createdAt);
  const match = fleet
    .filter((i) => i.wire.type === 'Noise' && i.condition.online && i.condition.measuring)
    .map((i) => profiles.get(i.wire.serialNumber))
    .find((profile) => profile?.fault === 'none' && profile.referenceDb === 94);
  if (match === undefined) throw new Error('The seed-1 demo fleet has no healthy 94 dB noise instrument.');
  return match.serial;
}

const SERIAL = healthy94();
const LIVE_READ = '/api/invoke/data.liveLevels';

/** The big digits as a number, or null while they show none. */
async function bigLevel(page: Page): Promise<number | null> {
  const text = (await page.getByTestId('live-level').textContent()) ?? '';
  const match = /(\d+\.\d)/.exec(text);
  return match === null ? null : Number(match[1]);
}

test.describe('the live check', () => {
  test.use({ demoTimeScale: 0.01, demoHoldActions: true });

  test('rises to the calibrator level during a calibration, and stops reading when left', async ({
    page,
    harness,
  }, testInfo) => {
    // The demo opened, two visits to the live view with a calibration started between them, and
    // the backend's polls bringing its verdict: about 90 s on two busy cores.
    test.setTimeout(300_000);
    let liveReads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === LIVE_READ) liveReads += 1;
    });
    await page.clock.install();
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(harness.url);
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
    await page.goto(`${harness.url}#/instruments/${SERIAL}`);
    await expect(page.getByText(SERIAL).first()).toBeVisible();

    // Before: the street, read near-live and said so.
    await page.getByTestId('live-check-link').click();
    await expect(page.getByRole('heading', { name: /^Live check/ })).toContainText(SERIAL);
    await expect(page.getByTestId('live-near')).toContainText('Near-live: the service has no live feed');
    await expect(page.getByTestId('live-behind')).toContainText(/Newest reading \d+ s ago/);
    await expect.poll(() => bigLevel(page)).not.toBeNull();
    await keepScreenshot(page, testInfo, 'live-check-street');

    // A calibration, started from the live check itself and held running by the demo.
    await page.getByRole('button', { name: 'Calibrate', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    const level = dialog.getByRole('radio', { name: '94.0 dB' });
    await level.check();
    await dialog.getByRole('button', { name: 'Start calibration' }).click();
    await expect(dialog.getByTestId('calibration-progress')).toBeVisible();
    await expect.poll(() => harness.demoActions.held()).toEqual([{ serial: SERIAL, action: 'Calibration' }]);
    // Closing the dialog leaves the calibration running.
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();

    // The live view hears the calibrator: 94 dB in the big digits, the calibration marked on its chart.
    await expect(page.getByRole('heading', { name: /^Live check/ })).toBeVisible();
    await expect.poll(async () => Math.abs(((await bigLevel(page)) ?? 0) - 94)).toBeLessThan(1);
    await expect(page.getByTestId('live-chart')).toHaveAttribute('data-marked', 'Calibration running');
    await expect(page.getByTestId('live-behind')).toContainText(/Newest reading \d+ s ago/);
    await keepScreenshot(page, testInfo, 'live-check-calibrating');

    // While the view is open, moving the clock on brings another read.
    const whileOpen = liveReads;
    await expect
      .poll(async () => {
        await page.clock.runFor(3_000);
        return liveReads;
      })
      .toBeGreaterThan(whileOpen);

    // Left: however far the clock moves on, no read follows.
    await page.getByTestId('live-back').click();
    await expect(page.getByRole('button', { name: 'Calibrate', exact: true })).toBeVisible();
    const atLeaving = liveReads;
    await page.clock.runFor(5 * 60_000);
    // A request of the page's own after the clock moved: one the reader started would come before it.
    await page.evaluate(() => fetch('/').then((response) => response.status));
    expect(liveReads).toBe(atLeaving);

    // The calibration finishes while the window is in the background: a desktop notice says so.
    harness.setWindowFocused(false);
    expect(harness.demoActions.release(SERIAL)).toBe(1);
    await expect
      .poll(() => harness.notifications())
      .toContainEqual({
        title: `Calibration PASS — ${SERIAL}`,
        body: expect.stringContaining('reference 94.0 dB'),
      });
  });
});
