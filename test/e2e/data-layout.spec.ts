/**
 * The data explorer on a laptop screen (1366×768): the chart (or the dataset's table) starts in the
 * upper half of the first screen for every dataset of the demo fleet, the controls condensed into one
 * bar above it.
 */
import { availableDatasetsFor, DATASET_LABELS, type Dataset } from '../../src/shared/data';
import { EVENT_LANE } from '../../src/shared/event-marks';
import { generateDemoFleet } from '../../src/simulator';
import { chartFacts, pixelOf } from './charts';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const SCREEN_HEIGHT = 768;

test('every dataset shows its chart or table in the upper half of a 1366×768 screen', async ({
  page,
  harness,
}, testInfo) => {
  // A dataset walk over three instrument types is long; each step waits for its state, not time.
  test.setTimeout(300_000);
  await tryTheDemo(page, harness);
  const fleet = generateDemoFleet(1, Date.now()).filter((instrument) => instrument.condition.measuring);
  const byType = new Map<string, (typeof fleet)[number]>();
  for (const instrument of fleet)
    if (!byType.has(instrument.wire.type)) byType.set(instrument.wire.type, instrument);
  const seen = new Set<Dataset>();
  for (const instrument of byType.values()) {
    const serial = instrument.wire.serialNumber;
    for (const dataset of availableDatasetsFor(instrument.wire)) {
      if (seen.has(dataset)) continue;
      seen.add(dataset);
      await page.goto(`${harness.url}#/instruments/${serial}/data/${dataset}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(DATASET_LABELS[dataset]);
      const content = page.locator('[data-main-content]').first();
      await expect(content).toBeVisible({ timeout: 60_000 });
      const box = await content.boundingBox();
      expect(box, `${dataset}: its main content has a box`).not.toBeNull();
      expect(box!.y, `${dataset}: the chart or table starts at ${box!.y} px`).toBeLessThan(SCREEN_HEIGHT / 2);
      await keepScreenshot(page, testInfo, `layout-${dataset}`, false);
    }
  }
  expect(seen.size).toBeGreaterThanOrEqual(12);
});

test("a week's noise events in a lane over the plot: crowded ones counted, hover says when, how long and how loud, a click on a count zooms in", async ({
  page,
  harness,
}, testInfo) => {
  test.setTimeout(240_000);
  await tryTheDemo(page, harness);
  const serial = generateDemoFleet(1, Date.now()).find(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  )!.wire.serialNumber;
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseMeasurements`);
  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 7 days' });
  const chart = page.getByTestId('data-chart');
  await expect(page.getByTestId('event-marks')).toContainText(/^\s*\d+ noise events marked in the lane/);
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
  const canvas = chart.locator('canvas');
  const y0 = (await chartFacts(canvas)).axes.find((axis) => axis.id === 'y0')!;
  const laneY = (await pixelOf(canvas, 'y0', y0.max)) - EVENT_LANE.gap - EVENT_LANE.height / 2;
  const box = (await canvas.boundingBox())!;
  await keepScreenshot(page, testInfo, 'events-lane-week', false);

  // Walk along the lane until a numbered block answers: a week crowds events together.
  const label = page.getByTestId('event-mark-label');
  let clusterX: number | null = null;
  for (let x = box.x + 60; x < box.x + box.width - 20 && clusterX === null; x += 4) {
    await page.mouse.move(x, laneY);
    if ((await label.count()) > 0 && /^\d+ noise events,/.test(await label.innerText())) clusterX = x;
  }
  expect(clusterX, 'a numbered block somewhere in a week').not.toBeNull();
  await expect(label).toContainText(
    /^\d+ noise events, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC.* · click to zoom in to them$/,
  );
  await keepScreenshot(page, testInfo, 'events-lane-cluster-hover', false);
  const before =
    Number(await chart.getAttribute('data-view-end')) - Number(await chart.getAttribute('data-view-start'));
  await page.mouse.click(clusterX!, laneY);
  await expect
    .poll(
      async () =>
        Number(await chart.getAttribute('data-view-end')) -
        Number(await chart.getAttribute('data-view-start')),
    )
    .toBeLessThan(before / 10);
  // The label belonged to the view before the zoom: it is gone.
  await expect(label).toHaveCount(0);
});
