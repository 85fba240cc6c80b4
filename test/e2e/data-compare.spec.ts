/**
 * Comparing instruments: a second noise monitor's levels on the same time axis as the first, its
 * own line and its own row of figures, named after it; removing it leaves the first alone.
 */
import { readFile } from 'node:fs/promises';
import { generateDemoFleet } from '../../src/simulator';
import { chartFacts } from './charts';
import { addAccount, chooseExport, expect, keepScreenshot, openFleet, test, tryTheDemo } from './fixtures';
import { measurementSamples, within, type Samples } from './service-data';

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

test('three noise monitors compared: a colour each, a dash per value, a grouped legend, a taller chart, and a CSV that holds every line; comparisons stay with their account', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Three instruments' levels drawn, exported and read back from the service, then a second account:
  // about 90 s on two busy cores.
  test.setTimeout(300_000);
  const service = await openFleet(page, harness, externalService);
  const measuring = generateDemoFleet(1, Date.now()).filter(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  );
  expect(measuring.length).toBeGreaterThanOrEqual(3);
  const three = measuring.slice(0, 3).map((instrument) => instrument.wire);
  const [first] = three;
  await page.goto(`${harness.url}#/instruments/${first!.serialNumber}/data/noiseMeasurements`);
  await page.getByLabel('Times', { exact: true }).selectOption('utc');
  const chart = page.getByTestId('data-chart');
  await expect(chart).toHaveAttribute('data-series', '3');
  const singleHeight = (await chart.locator('.data-chart-canvas').boundingBox())!.height;

  const compare = page.getByTestId('compare');
  for (const other of three.slice(1)) {
    await compare.getByLabel('Compare with').selectOption({ label: `${other.name} (${other.serialNumber})` });
  }
  await expect(chart).toHaveAttribute('data-series', '9');
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');

  // A legend row per instrument, each in a colour of its own, its three values by dash.
  const legend = page.getByTestId('compare-legend');
  const rows = legend.getByRole('listitem');
  await expect(rows).toHaveCount(3);
  const colours = new Set<string>();
  for (const [index, instrument] of three.entries()) {
    const row = rows.nth(index);
    await expect(row).toContainText(`${instrument.name} (${instrument.serialNumber})`);
    const strokes = await row
      .locator('line')
      .evaluateAll((lines) =>
        lines.map((line) => [line.getAttribute('stroke'), line.getAttribute('stroke-dasharray') ?? 'solid']),
      );
    expect(strokes).toHaveLength(3);
    expect(new Set(strokes.map(([colour]) => colour)).size).toBe(1);
    expect(new Set(strokes.map(([, dash]) => dash)).size).toBe(3);
    colours.add(strokes[0]![0]!);
  }
  expect(colours.size).toBe(3);
  // The canvas legend is hidden (the grouped one says it better), and the chart grew.
  expect((await chartFacts(chart.locator('canvas'))).legend).toEqual([]);
  expect((await chart.locator('.data-chart-canvas').boundingBox())!.height).toBeGreaterThan(
    singleHeight + 100,
  );
  await keepScreenshot(page, testInfo, 'data-compare-three');

  // The CSV: one column per instrument and value, every row read back against the service.
  const view = {
    start: Number(await chart.getAttribute('data-view-start')),
    end: Number(await chart.getAttribute('data-view-end')),
  };
  await chooseExport(page, 'Export CSV');
  const exported = page.getByTestId('data-exported');
  await expect(exported).toContainText('CSV saved.');
  const csv = (await readFile((await exported.locator('.export-path').innerText()).trim(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const values = ['LAeq', 'LCPeak', 'LAFMax'];
  const columns = three.flatMap((instrument) =>
    values.map((value) => ({
      serial: instrument.serialNumber,
      value,
      head: `${value} · ${instrument.name} (${instrument.serialNumber}) (dB)`,
    })),
  );
  expect(csv[0]!.split(',')).toEqual(['Interval start (UTC)', ...columns.map((column) => column.head)]);
  const expected = new Map<string, Samples>();
  for (const instrument of three) {
    const records = await service.get('/data/noise/measurements', instrument.serialNumber, view, {
      values: values.join(','),
    });
    for (const value of values)
      expected.set(`${instrument.serialNumber}|${value}`, within(measurementSamples(records, value), view));
  }
  const times = new Set([...expected.values()].flatMap((samples) => [...samples.keys()]));
  expect(csv).toHaveLength(times.size + 1);
  for (const line of csv.slice(1)) {
    const [time, ...cells] = line.split(',');
    const at = Date.parse(time!);
    cells.forEach((cell, index) => {
      const { serial, value } = columns[index]!;
      const reading = expected.get(`${serial}|${value}`)!.get(at);
      if (reading === undefined) expect(cell, `${time} ${serial} ${value}`).toBe('');
      else expect(Number(cell), `${time} ${serial} ${value}`).toBeCloseTo(reading, 4);
    });
  }

  // Another account, the same monitor: none of the first account's comparisons come with it.
  const other = await externalService({ keys: { other: '*' } });
  // Moved around inside the app (a page load would start every view afresh anyway).
  const openInApp = (hash: string) =>
    page.evaluate((to) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = to;
    }, hash);
  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByRole('button', { name: 'Add account' }).click();
  await addAccount(page, { name: 'Second office', baseUrl: other.baseUrl, apiKey: 'other' });
  // An account added is the one in use.
  const switcher = page.getByLabel('Account', { exact: true });
  await expect(switcher.locator('option:checked')).toHaveText('Second office');
  await openInApp(`#/instruments/${first!.serialNumber}/data/noiseMeasurements`);
  await expect(chart).toHaveAttribute('data-series', '3');
  await expect(compare.locator('.compare-chip')).toHaveCount(0);
  await expect(legend).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'data-compare-other-account');
  // Back in the first account, its comparison is as it was left.
  await switcher.selectOption({ label: 'Demo fleet' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await openInApp(`#/instruments/${first!.serialNumber}/data/noiseMeasurements`);
  await expect(chart).toHaveAttribute('data-series', '9');
  await expect(compare.locator('.compare-chip')).toHaveCount(2);
});
