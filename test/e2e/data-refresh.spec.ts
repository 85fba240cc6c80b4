/**
 * Online, an open data view reads its recent readings again by itself once they were fetched longer
 * ago than "Refresh cached data older than N minutes" (set on the Settings page), with no click.
 * The page's clock is Playwright's, paused and moved on by the test, so nothing waits for minutes
 * and nothing depends on how fast the machine is: the backend keeps real time, and the test bounds
 * when it fetched by the real time before and after.
 */
import { generateDemoFleet } from '../../src/simulator';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const MINUTE = 60_000;

test('an open data view reads its recent readings again once older than the setting', async ({
  page,
  harness,
}, testInfo) => {
  await page.clock.install();
  await tryTheDemo(page, harness);

  // Settings: refresh cached data older than 2 minutes (5 at first).
  await page.goto(`${harness.url}#/settings`);
  const form = page.getByRole('form', { name: 'Cached data settings' });
  const minutes = form.getByLabel('Refresh cached data older than (minutes)');
  await expect(minutes).toHaveValue('5');
  await minutes.fill('2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  await keepScreenshot(page, testInfo, 'settings-refresh-age');

  const serial = generateDemoFleet(1, Date.now()).find(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  )!.wire.serialNumber;
  const refreshes: number[] = [];
  const reads: Array<{ withEvents?: boolean; refresh?: boolean }> = [];
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/invoke/data.read')) return;
    const arg = JSON.parse(request.postData() ?? '{}') as { withEvents?: boolean; refresh?: boolean };
    reads.push(arg);
    if (arg.refresh === true) refreshes.push(Date.now());
  });

  // From here the page's time stands still unless the test moves it.
  const frozenAt = Date.now() + 1_000;
  await page.clock.pauseAt(frozenAt);
  const before = Date.now();
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseTimeHistory`);
  await expect(page.getByTestId('data-chart')).toHaveAttribute('data-samples', /^[1-9]\d+$/);
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
  const after = Date.now();
  const provenance = page.getByTestId('provenance');
  await expect(provenance).toHaveAttribute('data-source', 'fresh');
  // Opened by its address (the app starting anew), the view reads once, levels and event marks
  // together, after the instrument is known: not the levels alone, then all again with the marks.
  expect(reads).toEqual([expect.objectContaining({ withEvents: true })]);

  // The backend fetched the open hour between `before` and `after`: not two minutes old yet...
  await page.clock.runFor(before + 2 * MINUTE - 2_000 - frozenAt);
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
  expect(refreshes).toEqual([]);
  // ...and now older than two minutes: read again by itself, the open part fetched again.
  await page.clock.runFor(after + 2 * MINUTE + 1_000 - (before + 2 * MINUTE - 2_000));
  await expect.poll(() => refreshes.length).toBe(1);
  await expect(provenance).toHaveAttribute('data-source', 'cached');
  await expect(provenance).toContainText(/From the cache, fetched .*; .* fetched again/);
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
  expect(refreshes).toHaveLength(1);
});

test('a data view opened before its instrument is known reads once, levels and event marks together', async ({
  page,
  harness,
}) => {
  await tryTheDemo(page, harness);
  const serial = generateDemoFleet(1, Date.now()).find(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  )!.wire.serialNumber;
  const reads: Array<{ withEvents?: boolean }> = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/invoke/data.read'))
      reads.push(JSON.parse(request.postData() ?? '{}') as { withEvents?: boolean });
  });
  // The app starts anew at the data view's address, and the instrument arrives only when the test
  // lets it: the list and the instrument's own detail are held (as on a slow link or a busy laptop).
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route(/\/api\/invoke\/instruments\.(list|get)$/, async (route) => {
    held.push(route.request().url());
    await released;
    await route.continue();
  });
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseTimeHistory`);
  await expect.poll(() => held.some((url) => url.endsWith('/instruments.get'))).toBe(true);
  // Whether the chart carries event marks is not known yet: nothing is read.
  expect(reads).toEqual([]);

  release();
  await expect(page.getByTestId('data-chart')).toHaveAttribute('data-samples', /^[1-9]\d+$/);
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('provenance')).toHaveAttribute('data-source', 'fresh');
  expect(reads).toEqual([expect.objectContaining({ withEvents: true })]);
});
