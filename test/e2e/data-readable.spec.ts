/**
 * The data explorer read as engineers read it: wind direction as arrows with a wind rose, system
 * health in groups with the useful metrics first, wide record tables with a fixed time column,
 * and a dataset list the keyboard moves through without loading every dataset on the way.
 */
import { generateDemoFleet } from '../../src/simulator';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const fleet = () => generateDemoFleet(1, Date.now());

test('weather: wind direction as arrows on a compass axis, and a wind rose of the range', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const serial = fleet().find((i) => i.condition.measuring && i.wire.feature.includes('Weather'))!.wire
    .serialNumber;
  await page.goto(`${harness.url}#/instruments/${serial}/data/weather`);

  const direction = page.locator('.data-chart-group', {
    has: page.getByRole('heading', { name: 'Wind direction (°)' }),
  });
  await expect(direction.getByTestId('data-chart')).toHaveAttribute('data-drawn', /^[1-9]\d*$/);
  // No more arrows than fit across the chart, however many readings.
  expect(Number(await direction.getByTestId('data-chart').getAttribute('data-drawn'))).toBeLessThanOrEqual(
    72,
  );

  const rose = page.getByTestId('wind-rose');
  await expect(rose).toHaveAttribute('data-readings', /^[1-9]\d*$/);
  await expect(rose).toContainText(
    /Wind rose, .*: [\d,]+ readings, mostly from [NESW]{1,3} \(\d+ % of readings\); calm \d+(\.\d)? %\./,
  );
  const legend = page.getByTestId('wind-rose-legend');
  await expect(legend.getByRole('row')).toHaveCount(1 + 5 + 1);
  await expect(legend).toContainText('8 m/s and more');
  await expect(legend).toContainText('Calm (below 0.5 m/s)');
  await rose.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'data-weather-wind');
  await page.screenshot({ path: 'test-results/screens/data-weather-rose-viewport.png' });
  await direction.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/data-weather-arrows-viewport.png' });
});

test('system health in four groups, the useful metrics drawn and the rest a tick away', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const serial = fleet().find((i) => i.condition.measuring && /Quantum/.test(i.wire.model))!.wire
    .serialNumber;
  await page.goto(`${harness.url}#/instruments/${serial}/data/monitorStats`);

  const groups = page.locator('.data-chart-group');
  await expect(groups).toHaveCount(4);
  await expect(groups.getByRole('heading', { level: 3 })).toHaveText([
    'Compute',
    'Environment',
    'Power',
    'Network',
  ]);
  const network = groups.nth(3);
  const chart = network.getByTestId('data-chart');
  await expect(chart).toHaveAttribute('data-series', '2');
  await expect(chart).toHaveAttribute('data-samples', /^[1-9]\d*$/);
  const sinr = network.getByRole('checkbox', { name: 'LTE SINR (dB)' });
  await expect(sinr).not.toBeChecked();
  await expect(network.getByRole('checkbox', { name: 'LTE RSRP (dBm)' })).toBeChecked();
  await expect(network.getByRole('checkbox', { name: 'Ping (ms)' })).toBeChecked();
  // One click draws a metric on request, with its own axis, without reading again.
  await sinr.check();
  await expect(chart).toHaveAttribute('data-series', '3');
  await expect(chart.getByRole('img')).toHaveAttribute(
    'aria-label',
    /LTE RSRP, Ping, LTE SINR|LTE RSRP, LTE SINR, Ping/,
  );
  await expect(groups.nth(0).getByTestId('data-chart')).toHaveAttribute('data-series', '3');
  await keepScreenshot(page, testInfo, 'data-system-health');
  await groups.nth(0).evaluate((group) => group.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: 'test-results/screens/data-system-health-viewport.png' });
  await network.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/data-system-health-network.png' });
});

test('wide record tables keep the time column in place and render only the rows in view', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const noise = fleet().find((i) => i.wire.type === 'Noise' && i.condition.measuring)!.wire.serialNumber;
  await page.goto(`${harness.url}#/instruments/${noise}/data/frequencyMeasurements`);
  await page.getByRole('radio', { name: 'Third-octave' }).check();
  const table = page.getByTestId('record-table');
  const scroller = page.getByTestId('record-scroller');
  // Third-octave bands: dozens of columns, far wider than the screen (their answer takes a while).
  await expect.poll(() => table.getByRole('columnheader').count()).toBeGreaterThan(30);
  await expect(scroller).toHaveAccessibleName(/records$/);

  const timeHeader = table.getByRole('columnheader').first();
  await expect(timeHeader).toHaveText(/^Start/);
  const firstRowTime = table.getByRole('row').nth(1).getByRole('rowheader');
  await expect(firstRowTime).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d/);
  await scroller.scrollIntoViewIfNeeded();
  const before = (await timeHeader.boundingBox())!;
  const rowBefore = (await firstRowTime.boundingBox())!;
  const lastHeader = table.getByRole('columnheader').last();
  await expect(lastHeader).not.toBeInViewport();

  // Scrolled sideways to the last band: the time column and its times stay where they were.
  const width = await scroller.evaluate((box) => {
    box.scrollLeft = box.scrollWidth;
    return box.scrollWidth;
  });
  expect(width).toBeGreaterThan(3000);
  await expect(lastHeader).toBeInViewport();
  expect((await timeHeader.boundingBox())!.x).toBe(before.x);
  expect((await firstRowTime.boundingBox())!.x).toBe(rowBefore.x);
  await expect(firstRowTime).toBeInViewport();
  await page.screenshot({ path: 'test-results/screens/data-third-octave-table-scrolled.png' });
  await keepScreenshot(page, testInfo, 'data-third-octave-table');
});

test('a long record table renders only the rows in view, and scrolls to its oldest record', async ({
  page,
  harness,
}) => {
  await tryTheDemo(page, harness);
  const serial = fleet().find((i) => i.condition.measuring && i.wire.feature.includes('Weather'))!.wire
    .serialNumber;
  await page.goto(`${harness.url}#/instruments/${serial}/data/weather`);
  const table = page.getByTestId('record-table');
  await expect(table).toHaveAttribute('aria-rowcount', /^\d{4}$/);
  const total = Number(await table.getAttribute('aria-rowcount')) - 1;
  const rows = table.locator('tbody tr[data-index]');
  // The rows in view are rendered once the scroll box is measured.
  await expect.poll(() => rows.count()).toBeGreaterThan(5);
  expect(await rows.count()).toBeLessThan(60);
  const scroller = page.getByTestId('record-scroller');
  await scroller.scrollIntoViewIfNeeded();
  await scroller.evaluate((box) => (box.scrollTop = box.scrollHeight));
  // The oldest record is rendered, inside the scroll box's visible part.
  const oldest = table.locator(`tr[aria-rowindex="${total + 1}"]`);
  await expect(oldest).toBeAttached();
  const box = (await scroller.boundingBox())!;
  const row = (await oldest.boundingBox())!;
  expect(row.y).toBeGreaterThanOrEqual(box.y);
  expect(row.y + row.height).toBeLessThanOrEqual(box.y + box.height + 1);
  expect(await rows.count()).toBeLessThan(60);
  await expect(page.locator('.record-table .table-more')).toContainText(
    `${total.toLocaleString('en-GB')} records.`,
  );
});

test('arrowing through the dataset list loads only the dataset chosen with Enter', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const noise = fleet().find((i) => i.wire.type === 'Noise' && i.condition.measuring)!.wire.serialNumber;
  await page.goto(`${harness.url}#/instruments/${noise}/data/noiseMeasurements`);
  await expect(page.getByTestId('data-chart').first()).toHaveAttribute('data-samples', /^[1-9]\d*$/);

  const read: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/invoke/data.read'))
      read.push((request.postDataJSON() as { dataset: string }).dataset);
  });
  const select = page.getByTestId('dataset-select');
  const options = await select
    .locator('option')
    .evaluateAll((all) =>
      all.map((option) => [option.getAttribute('value') ?? '', option.textContent?.trim() ?? '']),
    );
  const start = options.findIndex(([value]) => value === 'noiseMeasurements');
  const [chosen, chosenLabel] = options[start + 3]!;

  await select.focus();
  for (let i = 0; i < 3; i++) await select.press('ArrowDown');
  await expect(select).toHaveValue(chosen!);
  await expect(page.getByText(`Press Enter to show ${chosenLabel}.`)).toBeAttached();
  await expect(page.getByText('· press Enter to show')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Noise levels');
  await page.screenshot({ path: 'test-results/screens/data-dataset-arrowed.png' });

  await select.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(chosenLabel!);
  await expect(page.getByText(/Press Enter to show/)).toHaveCount(0);
  await expect.poll(() => read.length).toBeGreaterThan(0);
  // Every read since the arrows was for the dataset chosen: none for those passed over.
  expect(new Set(read)).toEqual(new Set([chosen]));
  await keepScreenshot(page, testInfo, 'data-dataset-chosen');
});
