/**
 * The data explorer's time chart: the backend sends a reduced series with exact figures, and the
 * engineer zooms with the buttons, the keyboard and back to the whole range; each step is a new
 * read of the visible range, and the figures follow it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { generateDemoFleet } from '../../src/simulator';
import { chooseExport, expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const attribute = async (locator: Locator, name: string) => Number(await locator.getAttribute(name));

test('a day of 1 s noise levels: reduced where the data is, exact figures, zoom in, move, and back', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  // A noise monitor of the demo fleet that measured all day.
  const serial = generateDemoFleet(1, Date.now()).find(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  )!.wire.serialNumber;
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseTimeHistory`);

  const chart = page.getByTestId('data-chart');
  await expect(chart).toHaveAttribute('data-samples', /^[1-9]\d{4,}$/);
  const samples = await attribute(chart, 'data-samples');
  const drawn = await attribute(chart, 'data-drawn');
  // Thousands of points drawn for tens of thousands of readings: reduced in the backend.
  expect(drawn).toBeLessThan(samples);
  const figures = page.getByTestId('range-figures');
  const laeq = figures.locator('tr[data-name="LAeq"]');
  await expect(laeq.locator('[data-figure="combined"]')).toHaveText(/^\d{2,3}\.\d dB$/);
  await expect(laeq.locator('[data-figure="l10"]')).toHaveText(/^\d{2,3}\.\d dB$/);
  const wholeReadings = Number((await laeq.getByRole('cell').nth(1).innerText()).replace(/,/g, ''));
  expect(wholeReadings).toBeGreaterThan(10_000);
  await expect(page.getByRole('button', { name: 'Whole range' })).toBeDisabled();

  const start = await attribute(chart, 'data-view-start');
  const end = await attribute(chart, 'data-view-end');
  const rangeMenu = page.getByLabel('Range', { exact: true });
  const preset = await rangeMenu.inputValue();
  expect(preset).not.toBe('custom');

  // Zoom in: half the span around the middle, read again; the figures follow the view.
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(chart).toHaveAttribute('data-view-start', String(start + (end - start) / 4));
  await expect(chart).toHaveAttribute('data-view-end', String(end - (end - start) / 4));
  await expect
    .poll(async () => Number((await laeq.getByRole('cell').nth(1).innerText()).replace(/,/g, '')))
    .toBeLessThan(wholeReadings * 0.6);
  // What is shown is no longer the preset: the range menu says Custom, with the times shown.
  await expect(rangeMenu).toHaveValue('custom');
  await expect(rangeMenu.locator('option:checked')).toHaveText('Custom…');
  await keepScreenshot(page, testInfo, 'data-zoomed');

  // The keyboard moves the view earlier by a quarter of it; 0 shows the whole range again.
  const zoomedStart = await attribute(chart, 'data-view-start');
  await page.locator('.data-chart-canvas').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(chart).toHaveAttribute('data-view-start', String(zoomedStart - (end - start) / 8));
  await page.keyboard.press('0');
  await expect(chart).toHaveAttribute('data-view-start', String(start));
  await expect(chart).toHaveAttribute('data-view-end', String(end));
  await expect(page.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
  await expect(rangeMenu).toHaveValue(preset);

  // Export what is shown at full resolution: every reading the figures count, one row each — and the
  // seconds recorded since they were read (the range ends now, and the interval being recorded is
  // served as it fills), a few, never more.
  await chooseExport(page, 'Export CSV');
  const exported = page.getByTestId('data-exported');
  await expect(exported).toContainText(/[\d,]+ rows/);
  const rows = Number(/([\d,]+) rows/.exec(await exported.innerText())![1]!.replace(/,/g, ''));
  expect(rows).toBeGreaterThanOrEqual(wholeReadings);
  expect(rows - wholeReadings).toBeLessThan(600);
  const path = (await exported.locator('.export-path').innerText()).trim();
  const text = await readFile(path, 'utf8');
  // A byte order mark first (Excel then reads UTF-8), and the time said to be each second's start.
  expect(text.startsWith('\uFEFF')).toBe(true);
  const csv = text.slice(1).trimEnd().split('\r\n');
  expect(csv[0]).toBe('Interval start (UTC),LAeq (dB)');
  expect(csv).toHaveLength(rows + 1);
  expect(csv[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z,\d{2,3}(\.\d)?$/);

  // The chart as drawn, as a PNG as wide as the chart's canvas (and a title and notes above and below).
  const canvasWidth = await chart
    .locator('canvas')
    .evaluate((canvas) => (canvas as unknown as { width: number }).width);
  await chooseExport(page, 'Save chart image');
  await expect(exported).toContainText('Chart image saved.');
  const png = await readFile((await exported.locator('.export-path').innerText()).trim());
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  expect(width).toBeGreaterThan(canvasWidth);
  expect(height).toBeGreaterThan(300);
  await mkdir('test-results/screens', { recursive: true });
  await writeFile('test-results/screens/data-chart-image.png', png);
});

test('spectra as bars by band, and one chart per quantity (PPV apart from its frequency)', async ({
  page,
  harness,
}, testInfo) => {
  // Spectra in both band widths and weightings, then a vibration monitor's charts: about 130 s on
  // two busy cores.
  test.setTimeout(300_000);
  await tryTheDemo(page, harness);
  const fleet = generateDemoFleet(1, Date.now());
  const noise = fleet.find((i) => i.wire.type === 'Noise' && i.condition.measuring)!.wire.serialNumber;
  const vibration = fleet.find((i) => i.wire.type === 'Vibration')!.wire.serialNumber;

  await page.goto(`${harness.url}#/instruments/${noise}/data/frequencyMeasurements`);
  const spectrum = page.getByTestId('spectrum-chart');
  await expect(spectrum).toHaveAttribute('data-bands', '10');
  await expect(spectrum).toContainText(
    /10 bands, Z-weighted Leq of the range; loudest band \d+(\.\d)? k?Hz at \d+\.\d dB/,
  );
  // Legends and figures use band names, never wire names such as "_500Hz".
  await expect(page.getByTestId('range-figures')).toContainText('500 Hz');
  await expect(page.getByTestId('range-figures')).toContainText('1 kHz');
  await expect(page.getByText('_500Hz')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'data-spectrum');

  // Frequency time history: a spectrogram, bands up the side, levels as colour with a legend.
  await page.goto(`${harness.url}#/instruments/${noise}/data/frequencyTimeHistory`);
  const spectrogram = page.getByTestId('spectrogram');
  await expect(spectrogram).toHaveAttribute('data-bands', '10');
  await expect(spectrogram).not.toHaveAttribute('data-cells', '0');
  await expect(spectrogram).toContainText(
    /10 bands in 240 time slots, Z-weighted, from -?\d+\.\d dB \(dark\) to \d+\.\d dB \(yellow\)/,
  );
  await keepScreenshot(page, testInfo, 'data-spectrogram');

  await page.goto(`${harness.url}#/instruments/${vibration}/data/vibrationPPV`);
  const charts = page.getByTestId('data-chart');
  await expect(charts).toHaveCount(2);
  await expect(page.getByRole('heading', { name: 'PPV X, PPV Y, PPV Z (mm/s)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Dominant frequency X, .* \(Hz\)$/ })).toBeVisible();
  // Linked: zooming the first chart zooms the second.
  const start = await attribute(charts.nth(1), 'data-view-start');
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(charts.nth(1)).not.toHaveAttribute('data-view-start', String(start));
  await expect(charts.nth(0)).toHaveAttribute(
    'data-view-start',
    (await charts.nth(1).getAttribute('data-view-start'))!,
  );
  await keepScreenshot(page, testInfo, 'data-vibration');
});

test("the events table reads as events and opens an event's own time history", async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const noise = generateDemoFleet(1, Date.now()).find(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  )!.wire.serialNumber;
  await page.goto(`${harness.url}#/instruments/${noise}/data/events`);
  const rows = page.getByTestId('event-row');
  await expect(rows.first()).toBeVisible();
  // Times, a trigger, a duration and the overall values as sent, without a guessed unit; never raw ids.
  await expect(rows.first()).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  await expect(rows.first()).toContainText(/\d+ (s|min)/);
  await expect(rows.first().getByRole('cell').nth(4)).toHaveText(
    /^\d+(\.\d+)? \/ \d+(\.\d+)? \/ \d+(\.\d+)?$/,
  );
  // Each column named from the event's field; the undocumented overall values say so in their head.
  await expect(page.getByTestId('events-table').locator('thead th')).toContainText([
    'Start',
    'Trigger',
    'Trigger level',
    'Duration',
    'Overall values (undocumented)',
    'Audio',
  ]);
  await expect(page.getByTestId('events-table')).not.toContainText('th_');

  await rows
    .first()
    .getByRole('button', { name: /^Open the event at / })
    .click();
  const detail = page.getByTestId('event-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toContainText(/^Event at \d{4}-\d\d-\d\d/);
  await expect(detail.getByTestId('data-chart')).toHaveAttribute('data-samples', /^[1-9]\d*$/);
  await expect(detail.getByTestId('range-figures').locator('tr[data-name="LAeq"]')).toBeVisible();
  await expect(rows.first()).toHaveAttribute('aria-current', 'true');
  await keepScreenshot(page, testInfo, 'data-event');
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(detail).toHaveCount(0);
});
