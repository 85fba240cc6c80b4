/**
 * Comparing instruments: a second noise monitor's levels on the same time axis as the first, its
 * own line and its own row of figures, named after it; removing it leaves the first alone.
 */
import { generateDemoFleet } from '../../src/simulator';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

test('two noise monitors on one time axis, each with its own figures, and back to one', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const measuring = generateDemoFleet(1, Date.now()).filter(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  );
  expect(measuring.length).toBeGreaterThanOrEqual(2);
  const [first, second] = measuring.map((instrument) => instrument.wire);
  await page.goto(`${harness.url}#/instruments/${first!.serialNumber}/data/noiseTimeHistory`);
  const chart = page.getByTestId('data-chart');
  await expect(chart).toHaveAttribute('data-series', '1');
  const figures = page.getByTestId('range-figures');
  await expect(figures.locator('tbody tr')).toHaveCount(1);

  const compare = page.getByTestId('compare');
  await compare
    .getByLabel('Compare with')
    .selectOption({ label: `${second!.name} (${second!.serialNumber})` });
  await expect(chart).toHaveAttribute('data-series', '2');
  await expect(figures.locator('tbody tr')).toHaveCount(2);
  await expect(figures.locator('tbody tr').nth(0)).toContainText(`LAeq · ${first!.name}`);
  const secondRow = figures.locator('tbody tr').nth(1);
  await expect(secondRow).toContainText(`LAeq · ${second!.name}`);
  await expect(secondRow.locator('[data-figure="combined"]')).toHaveText(/^\d{2,3}\.\d dB$/);
  await keepScreenshot(page, testInfo, 'data-compare');

  await compare.getByRole('button', { name: `Stop comparing with ${second!.name}` }).click();
  await expect(chart).toHaveAttribute('data-series', '1');
  await expect(figures.locator('tbody tr')).toHaveCount(1);
});
