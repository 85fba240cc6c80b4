/**
 * The data explorer on a laptop screen (1366×768): the chart (or the dataset's table) starts in the
 * upper half of the first screen for every dataset of the demo fleet, the controls condensed into one
 * bar above it.
 */
import { availableDatasetsFor, DATASET_LABELS, type Dataset } from '../../src/shared/data';
import { generateDemoFleet } from '../../src/simulator';
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
