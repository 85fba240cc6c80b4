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
