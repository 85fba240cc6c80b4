/**
 * Every chart kind of the data explorer, as an engineer reads it after a site visit: the chart
 * appears, its legend and axes name the quantities and units properly (never wire names), and
 * hovering a known reading shows the value the service answered for that time. Expected values are
 * asked of the demo service over HTTP in the test; the point hovered is found through Chart.js.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { DATASET_LABELS, type Dataset } from '../../src/shared/data';
import { EVENT_LANE } from '../../src/shared/event-marks';
import { generateDemoFleet, type DemoInstrument } from '../../src/simulator';
import type { RunningHarness } from '../../src/harness/server';
import {
  chartFacts,
  datasetNamed,
  hoverPoint,
  keepChartScreenshot,
  pixelOf,
  type ChartFacts,
} from './charts';
import { chooseExport, expect, openFleet, setNoiseValues, test } from './fixtures';
import {
  blockSamples,
  decimalsOf,
  energeticMean,
  measurementSamples,
  recordSamples,
  within,
  type Samples,
  type WireBlock,
  type WireRecord,
} from './service-data';

/** Wire names that must never reach a legend or an axis. */
const WIRE_NAMES =
  /\b(pM1|pM2p5|pM4p25|pM10|nO2|sO2|cO2|h2S|o3|windSpeed|windDirection|vMax[XYZ]|fDom[XYZ]|vdv[XYZ]|lteRsrp|lteRsrq|lteSinr|mTot|dTot|netRx|netTx|_\d+K?Hz|\d+K?Hz)\b/;

const fleet = (): DemoInstrument[] => generateDemoFleet(1, Date.now());

/** Opens a dataset of an instrument in the data view (times in UTC) and waits for its answer. */
async function openDataset(
  page: Page,
  harness: RunningHarness,
  serial: string,
  dataset: Dataset,
): Promise<void> {
  await page.goto(`${harness.url}#/instruments/${serial}/data/${dataset}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(DATASET_LABELS[dataset]);
  const times = page.getByLabel('Times', { exact: true });
  if ((await times.inputValue()) !== 'utc') await times.selectOption('utc');
  await settled(page);
}

/** Waits until the data view has its answer and is not reading again. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('provenance')).toBeVisible();
}

/** The range a data chart shows (its view), epoch ms. */
async function viewOf(figure: Locator): Promise<{ start: number; end: number }> {
  return {
    start: Number(await figure.getAttribute('data-view-start')),
    end: Number(await figure.getAttribute('data-view-end')),
  };
}

/** "2026-11-24 07:44:08": how a tooltip names a time in UTC. */
const utcText = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');

/** The first date and time in a text ("2026-11-24 07:44:08", "… 07:44:08.3"), read as UTC; NaN without one. */
function utcTimeIn(text: string): number {
  const match = /(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)/.exec(text);
  return match ? Date.parse(`${match[1]}T${match[2]}Z`) : Number.NaN;
}

/**
 * A tooltip line shows `expected` as precisely as the service sent it (at least its decimals, and the
 * same value at them): "0.00" for 0.0021 is wrong, "7.10" for 7.1 is right.
 */
function expectReading(line: string | undefined, expected: number, what: string, significant?: number): void {
  expect(line, `a tooltip line for ${what}`).toBeDefined();
  // Thousands separated on screen ("1,013.2 hPa"): read without the separators.
  const plain = line!.replace(/\u2212/g, '-').replace(/(\d),(?=\d{3}\b)/g, '$1');
  const shown = /(-?\d+(?:\.\d+)?)(?!.*\d)/.exec(plain)?.[1];
  expect(shown, `a number in "${line}"`).toBeDefined();
  if (significant !== undefined) {
    // A quantity stated to significant digits (VDV, as the assessment states it).
    expect(Number(shown), `"${line}" reads ${what} = ${expected}`).toBe(
      Number(expected.toPrecision(significant)),
    );
    return;
  }
  const decimals = decimalsOf(String(expected));
  expect(
    decimalsOf(shown!),
    `"${line}" shows ${what} = ${expected} to the service's precision`,
  ).toBeGreaterThanOrEqual(decimals);
  expect(Number(Number(shown).toFixed(decimals)), `"${line}" reads ${what} = ${expected}`).toBe(expected);
}

/** The legend entries and the y axes' titles of a line chart: proper names with units, no wire names. */
function expectNamed(facts: ChartFacts, entries: ReadonlyArray<readonly [name: string, unit: string]>): void {
  for (const [name, unit] of entries) {
    expect(facts.legend, `a legend entry for ${name}`).toContainEqual(
      expect.stringMatching(new RegExp(`^${escape(name)}\\b.*${escape(unit)}`)),
    );
  }
  for (const text of [...facts.legend, ...facts.axes.map((a) => a.title)])
    expect(text).not.toMatch(WIRE_NAMES);
  const time = facts.axes.find((a) => a.id === 'x');
  expect(time?.title, 'the time axis says it is time, in UTC').toMatch(/time|UTC/i);
  expect(time?.title).toMatch(/UTC/);
  // Each unit shown has an axis that says so.
  const shownUnits = new Set(
    entries.filter(([name]) => !facts.datasets[datasetNamed(facts, name)]!.hidden).map(([, unit]) => unit),
  );
  const yTitles = facts.axes.filter((a) => a.id !== 'x' && a.visible).map((a) => a.title);
  for (const unit of shownUnits)
    expect(yTitles, `an axis in ${unit}`).toContainEqual(expect.stringContaining(unit));
}

/** The highest or lowest of many numbers (too many to spread into Math.max). */
function extremeOf(values: Iterable<number>, pick: 'max' | 'min'): number {
  let extreme = pick === 'max' ? -Infinity : Infinity;
  for (const value of values) if (pick === 'max' ? value > extreme : value < extreme) extreme = value;
  return extreme;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The highest (or lowest) reading of `name` in the range shown, as the service answered it: drawn
 * at its time (a min-max reduction keeps it), and its tooltip reads that time and value.
 */
async function expectExtremeTooltip(
  page: Page,
  figure: Locator,
  name: string,
  samples: Samples,
  pick: 'max' | 'min' = 'max',
  significant?: number,
): Promise<void> {
  const canvas = figure.locator('canvas');
  const facts = await chartFacts(canvas);
  const d = datasetNamed(facts, name);
  const dataset = facts.datasets[d]!;
  const view = await viewOf(figure);
  // The time axis may show another zone than UTC: its left edge is the view's start.
  const shift = facts.axes.find((a) => a.id === 'x')!.min - view.start;
  const points = dataset.data as Array<{ x: number; y: number }>;
  const drawn = points.filter((p) => !Number.isNaN(p.y)).map((p) => p.x - shift);
  expect(drawn.length, `${name} has readings drawn`).toBeGreaterThan(0);
  // A reading the service made after the app read is not on screen yet.
  const shown = within(samples, { start: view.start, end: Math.min(view.end, extremeOf(drawn, 'max') + 1) });
  expect(shown.size, `the service has ${name} readings in the range shown`).toBeGreaterThan(0);
  const extreme = extremeOf(shown.values(), pick);
  const index = points.findIndex((p) => !Number.isNaN(p.y) && shown.get(p.x - shift) === extreme);
  expect(
    index,
    `the ${pick === 'max' ? 'highest' : 'lowest'} ${name} (${extreme}) is drawn`,
  ).toBeGreaterThanOrEqual(0);
  const time = points[index]!.x - shift;
  expect(points[index]!.y).toBeCloseTo(extreme, 3);

  // Readings closer together than a pixel (a day of minutes) cannot all be pointed at: the tooltip
  // shows the one nearest the pointer, which must be this one or its neighbour, read right.
  const tooltip = await hoverPoint(page, canvas, d, index);
  const title = tooltip.title.join(' ');
  const named = utcTimeIn(title);
  expect(named, `a time in the tooltip's title "${title}"`).not.toBeNaN();
  const [at, atNamed] = [await pixelOf(canvas, 'x', time + shift), await pixelOf(canvas, 'x', named + shift)];
  expect(
    Math.abs(at - atNamed),
    `"${title}" is the time under the pointer, ${utcText(time)}`,
  ).toBeLessThanOrEqual(1.5);
  const expected = named === time ? extreme : samples.get(named);
  expect(expected, `the service has a ${name} reading at ${utcText(named)}`).toBeDefined();
  expectReading(
    tooltip.lines.find((line) => line.startsWith(dataset.label)),
    expected!,
    `${name} at ${utcText(named)}`,
    significant,
  );
}

/** A noise monitor of the demo fleet that is measuring now, with a weather station and a system monitor. */
const noiseMonitor = (): DemoInstrument =>
  fleet().find(
    (i) => i.wire.type === 'Noise' && i.condition.measuring && i.wire.feature.includes('Weather'),
  )!;

/** The data chart on the page that draws `name` (several charts stand one above another). */
async function figureDrawing(page: Page, name: string): Promise<Locator> {
  const figures = page.getByTestId('data-chart');
  await expect(figures.first()).toBeVisible();
  const count = await figures.count();
  for (let i = 0; i < count; i++) {
    const facts = await chartFacts(figures.nth(i).locator('canvas'));
    if (facts.datasets.some((d) => d.label === name || d.label.startsWith(`${name} (`)))
      return figures.nth(i);
  }
  throw new Error(`No chart on the page draws ${name}.`);
}

/** The card of the data view that holds its charts. */
const chartCard = (page: Page): Locator => page.locator('section.data-card').first();

/** Every legend entry and axis title of the data charts on the page. */
async function allChartText(page: Page): Promise<string[]> {
  const figures = page.getByTestId('data-chart');
  const texts: string[] = [];
  for (let i = 0; i < (await figures.count()); i++) {
    const facts = await chartFacts(figures.nth(i).locator('canvas'));
    texts.push(...facts.legend, ...facts.axes.map((a) => a.title));
  }
  return texts;
}

/** "1 kHz" for the service's "1KHz", "31.5 Hz" for "31.5Hz". */
const bandText = (name: string): string =>
  name.replace(/^(\d+(?:\.\d+)?)KHz$/, '$1 kHz').replace(/^(\d+(?:\.\d+)?)Hz$/, '$1 Hz');

/** The bar of a spectrum reads `expected` (a level to a tenth of a dB) in its tooltip. */
async function expectBarTooltip(
  page: Page,
  canvas: Locator,
  index: number,
  band: string,
  expected: number,
): Promise<void> {
  const tooltip = await hoverPoint(page, canvas, 0, index);
  expect(tooltip.title.join(' ')).toContain(band);
  const line = tooltip.lines.join(' ');
  const shown = /(-?\d+\.\d)\s*dB/.exec(line)?.[1];
  expect(shown, `a level to a tenth of a dB in "${line}"`).toBeDefined();
  expect(
    Math.abs(Number(shown) - expected),
    `"${line}" reads ${band} = ${expected.toFixed(2)} dB`,
  ).toBeLessThanOrEqual(0.051);
}

test('noise levels and the 1 s time history: statistical values chosen, named with units, extreme readings read back', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Two datasets drawn (a day of 1 s readings among them) and read back from the service to compare
  // tooltips with: about 180 s on two busy cores.
  test.setTimeout(360_000);
  const service = await openFleet(page, harness, externalService);
  const serial = noiseMonitor().wire.serialNumber;

  await openDataset(page, harness, serial, 'noiseMeasurements');
  // The engineer adds the statistical levels LAF10 and LAF90 to the service's defaults.
  await setNoiseValues(page, ['LAF10', 'LAF90']);
  const levels = page.getByTestId('data-chart');
  await expect.poll(async () => (await chartFacts(levels.locator('canvas'))).legend.length).toBe(5);
  await settled(page);
  expectNamed(await chartFacts(levels.locator('canvas')), [
    ['LAeq', 'dB'],
    ['LCPeak', 'dB'],
    ['LAFMax', 'dB'],
    ['LAF10', 'dB'],
    ['LAF90', 'dB'],
  ]);
  const records = await service.get('/data/noise/measurements', serial, await viewOf(levels), {
    values: 'LAeq,LCPeak,LAFMax,LAF10,LAF90',
  });
  await expectExtremeTooltip(page, levels, 'LAeq', measurementSamples(records, 'LAeq'));
  await expectExtremeTooltip(page, levels, 'LAF90', measurementSamples(records, 'LAF90'), 'min');
  await keepChartScreenshot(page, testInfo, 'noise-levels', chartCard(page));

  // The 1 s time history (LAeq, as a site sync caches it): a day of readings, reduced for drawing.
  await openDataset(page, harness, serial, 'noiseTimeHistory');
  const history = page.getByTestId('data-chart');
  await expect(history).toHaveAttribute('data-samples', /^[1-9]\d{4,}$/);
  expectNamed(await chartFacts(history.locator('canvas')), [['LAeq', 'dB']]);
  const answer = await service.get<Array<{ type: string; blocks: WireBlock[] }>>(
    '/data/noise/timehistory',
    serial,
    await viewOf(history),
    { values: 'LAeq', period: 'PT1S' },
  );
  const laeq = blockSamples(answer.find((record) => record.type === 'LAeq')!.blocks);
  // Far more readings than points drawn: the loudest second must still be there, and read right.
  expect(laeq.size).toBeGreaterThan(10_000);
  await expectExtremeTooltip(page, history, 'LAeq', laeq);
  await expectExtremeTooltip(page, history, 'LAeq', laeq, 'min');
  await keepChartScreenshot(page, testInfo, 'noise-time-history', chartCard(page));

  // The instrument's events are in a lane over the plot; pointing at one says its trigger, start,
  // duration and measured levels; clicking opens it.
  const view = await viewOf(history);
  const events = (await service.get('/data/events', serial, view)).map((e) => ({
    start: Date.parse(String(e['startTime'])),
    name: String(e['name']),
  }));
  const canvas = history.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const xs = await Promise.all(events.map((e) => pixelOf(canvas, 'x', e.start)));
  // One that stands apart at this zoom (crowded ones share a numbered block, which zooms instead).
  const lone = events
    .map((e, i) => ({ ...e, x: xs[i]! }))
    .filter(
      (e) =>
        e.start > view.start + (view.end - view.start) * 0.05 &&
        e.start < view.end &&
        xs.every((x) => x === e.x || Math.abs(x - e.x) > 30),
    );
  expect(lone.length).toBeGreaterThan(0);
  const inner = lone;
  await expect(page.getByTestId('event-marks')).toContainText(/^\s*\d+ noise events? marked in the lane/);
  const facts = await chartFacts(canvas);
  const y0 = facts.axes.find((axis) => axis.id === 'y0')!;
  const plotTop = await pixelOf(canvas, 'y0', y0.max);
  const [x, y] = [inner[0]!.x + 2, plotTop - EVENT_LANE.gap - EVENT_LANE.height / 2];
  await page.mouse.move(x, y);
  const label = page.getByTestId('event-mark-label');
  await expect(label).toContainText(inner[0]!.name);
  await expect(label).toContainText(/started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC.*, lasted \d+ (s|min)/);
  await expect(label).toContainText(/overall values \(undocumented\) \d+\.\d \/ \d+\.\d \/ \d+\.\d/);
  // Pointing into the plot itself says nothing of events: the readings are not covered.
  await page.mouse.move(x, plotTop + 60);
  await expect(label).toHaveCount(0);
  await page.mouse.move(x, y);
  await expect(label).toBeVisible();
  await page.mouse.click(x, y);
  const opened = new Date(inner[0]!.start).toISOString().replace('T', ' ').slice(0, 19);
  await expect(
    page.getByRole('heading', { level: 2, name: new RegExp(`^Event at ${opened} UTC`) }),
  ).toBeVisible();
});

test('octave and third-octave spectra as bars by band with their weighting, and the spectrogram, read back from the service', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Spectra in both band widths and weightings, and a day's spectrogram, each read back from the
  // service and summed energetically here: about 200 s on two busy cores.
  test.setTimeout(360_000);
  const service = await openFleet(page, harness, externalService);
  const serial = noiseMonitor().wire.serialNumber;

  await openDataset(page, harness, serial, 'frequencyMeasurements');
  const spectrum = page.getByTestId('spectrum-chart');
  const bars = spectrum.locator('canvas');
  // The range asked for is the one the bands-over-time chart below shows.
  const range = await viewOf(page.getByTestId('data-chart').first());

  for (const [bands, weighting] of [
    ['Octave', 'Z'],
    ['Third', 'A'],
  ] as const) {
    if (bands === 'Third') {
      await page.getByRole('radio', { name: 'Third-octave', exact: true }).check();
      await page.getByRole('radio', { name: 'A', exact: true }).check();
    }
    const records = await service.get('/data/frequency/measurements', serial, range, { bands, weighting });
    const names = (records[0]!['values'] as Array<{ name: string }>).map((v) => v.name);
    await expect(spectrum).toHaveAttribute('data-bands', String(names.length));
    await settled(page);
    const facts = await chartFacts(bars);
    expect(facts.type).toBe('bar');
    // Bands along the x axis by their centre frequency, lowest first: "31.5 Hz" … "16 kHz".
    expect(facts.labels).toEqual(names.map(bandText));
    const [x, y] = [facts.axes.find((a) => a.id === 'x')!, facts.axes.find((a) => a.id === 'y')!];
    expect(x.title).toMatch(/band|frequency/i);
    expect(y.title).toMatch(/dB/);
    expect(y.title, `the level axis says the levels are ${weighting}-weighted`).toMatch(
      new RegExp(`\\b${weighting}\\b`),
    );
    await expect(spectrum).toContainText(`${weighting}-weighted`);

    // The loudest band's Leq over the range, computed energetically from every record the service sent.
    const leqs = names.map((name) =>
      energeticMean([...within(measurementSamples(records, name), range).values()]),
    );
    const loudest = leqs.indexOf(Math.max(...leqs));
    await expectBarTooltip(page, bars, loudest, bandText(names[loudest]!), leqs[loudest]!);
    // And a quiet one (the 1 kHz band, where A-weighting is 0 dB).
    const kHz = names.indexOf('1KHz');
    await expectBarTooltip(page, bars, kHz, '1 kHz', leqs[kHz]!);
    await keepChartScreenshot(
      page,
      testInfo,
      bands === 'Octave' ? 'octave-spectrum' : 'third-octave-spectrum',
      chartCard(page),
    );
  }

  // Frequency time history: a spectrogram, bands up the side, time across, level as colour.
  await openDataset(page, harness, serial, 'frequencyTimeHistory');
  const spectrogram = page.getByTestId('spectrogram');
  await expect(spectrogram).not.toHaveAttribute('data-cells', '0');
  const cellsCanvas = spectrogram.locator('canvas');
  const facts = await chartFacts(cellsCanvas);
  const answer = await service.get<Array<{ blocks: WireBlock[] }>>(
    '/data/frequency/timehistory',
    serial,
    range,
  );
  const names = answer[0]!.blocks[0]!.bands!.map((b) => b.name);
  const bandAxis = facts.axes.find((a) => a.id === 'y')!;
  expect(bandAxis.title).toMatch(/band/i);
  expect(facts.axes.find((a) => a.id === 'x')!.title).toMatch(/UTC/);
  // The colour legend says what the colours mean, in dB, with the weighting.
  await expect(spectrogram).toContainText(/-?\d+(\.\d)? dB.*-?\d+(\.\d)? dB/);
  await expect(spectrogram).toContainText('Z-weighted');

  // The loudest cell: the highest level of any band in the range, in the slot of its time.
  const cells = facts.datasets[0]!.data as unknown as Array<{
    level: number;
    band: string;
    start: number;
    end: number;
  }>;
  const top = cells.reduce((best, cell, i) => (cell.level > cells[best]!.level ? i : best), 0);
  const cell = cells[top]!;
  const band = names.find((name) => bandText(name) === cell.band)!;
  expect(band, `the band ${cell.band} is one the service sent`).toBeDefined();
  const perBand = names.map((name) => within(blockSamples(answer[0]!.blocks, name), range));
  const highest = extremeOf(
    perBand.map((samples) => extremeOf(samples.values(), 'max')),
    'max',
  );
  expect(cell.level).toBeCloseTo(highest, 3);
  const inSlot = [...within(blockSamples(answer[0]!.blocks, band), cell).values()];
  expect(Math.max(...inSlot)).toBeCloseTo(highest, 3);
  const tooltip = await hoverPoint(page, cellsCanvas, 0, top);
  expect(tooltip.title.join(' ')).toContain(cell.band);
  expect(tooltip.title.join(' ')).toContain(utcText(cell.start));
  expectReading(tooltip.lines.join(' '), highest, `the highest ${cell.band} level`);
  await keepChartScreenshot(page, testInfo, 'spectrogram', spectrogram);
});

test("a noise event's own time history and octave spectrum read what the service recorded", async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  const service = await openFleet(page, harness, externalService);
  const serial = noiseMonitor().wire.serialNumber;
  await openDataset(page, harness, serial, 'events');
  const open = page
    .getByTestId('event-row')
    .first()
    .getByRole('button', { name: /^Open the event at / });
  const label = (await open.getAttribute('aria-label'))!;
  await open.click();
  // The event opened, as the service lists it (found by its start, shown in UTC).
  const start = Date.parse(`${/(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/.exec(label)![1]!.replace(' ', 'T')}Z`);
  const events = await service.get('/data/events', serial, { start: start - 60_000, end: start + 60_000 });
  const event = events.find((e) => Date.parse(String(e['startTime'])) === start)!;
  expect(event, `the service lists an event at ${utcText(start)}`).toBeDefined();

  const detail = page.getByTestId('event-detail');
  const figure = detail.getByTestId('data-chart');
  await expect(figure).toHaveAttribute('data-samples', /^[1-9]\d*$/);
  expectNamed(await chartFacts(figure.locator('canvas')), [
    ['LAeq', 'dB'],
    ['LAFMax', 'dB'],
  ]);
  const history = await service.getPath<Array<{ type: string; blocks: WireBlock[] }>>(
    `/data/events/timehistory/${String(event['timeHistoryId'])}`,
  );
  for (const name of ['LAFMax', 'LAeq']) {
    const samples = blockSamples(history.find((record) => record.type === name)!.blocks);
    await expectExtremeTooltip(page, figure, name, samples);
  }

  // The event's octave spectrum: a bar per band as the event record carries it.
  const bars = detail.getByTestId('spectrum-chart').locator('canvas');
  const octave = event['octave'] as number[];
  const facts = await chartFacts(bars);
  expect(facts.labels).toHaveLength(octave.length);
  expect(facts.labels[0]).toBe('31.5 Hz');
  const loudest = octave.indexOf(Math.max(...octave));
  await expectBarTooltip(page, bars, loudest, facts.labels[loudest]!, octave[loudest]!);
  await keepChartScreenshot(page, testInfo, 'noise-event', detail);
});

test('weather, system health, calibrations and SICs of a noise monitor: named with units, readings read back', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Four datasets, a dozen charts, each one's extreme reading hovered and read back from the
  // service: about 185 s on two busy cores.
  test.setTimeout(360_000);
  const service = await openFleet(page, harness, externalService);
  const serial = noiseMonitor().wire.serialNumber;

  await openDataset(page, harness, serial, 'weather');
  const weatherText = await allChartText(page);
  for (const name of [
    'Wind speed (m/s)',
    'Temperature (°C)',
    // Sent in bar, read in hPa.
    'Pressure (hPa)',
    'Humidity (%)',
    'Precipitation (mm/h)',
  ])
    expect(weatherText).toContain(name);
  for (const text of weatherText) expect(text).not.toMatch(WIRE_NAMES);
  const temperatureChart = await figureDrawing(page, 'Temperature');
  const weather = await service.get('/data/weather', serial, await viewOf(temperatureChart));
  await expectExtremeTooltip(
    page,
    temperatureChart,
    'Temperature',
    recordSamples(weather, 'time', 'temperature'),
  );
  const windChart = await figureDrawing(page, 'Wind speed');
  await expectExtremeTooltip(page, windChart, 'Wind speed', recordSamples(weather, 'time', 'windSpeed'));
  const pressureChart = await figureDrawing(page, 'Pressure');
  await expectExtremeTooltip(
    page,
    pressureChart,
    'Pressure',
    // 1 bar = 1000 hPa: the service's 0.0001 bar is 0.1 hPa.
    new Map(
      [...recordSamples(weather, 'time', 'pressure')].map(([time, bar]) => [
        time,
        Number((bar * 1000).toFixed(1)),
      ]),
    ),
    'min',
  );
  await keepChartScreenshot(page, testInfo, 'weather', chartCard(page));

  await openDataset(page, harness, serial, 'monitorStats');
  for (const text of await allChartText(page)) expect(text).not.toMatch(WIRE_NAMES);
  const cpu = await figureDrawing(page, 'CPU');
  const stats = await service.get('/data/monitor/stats', serial, await viewOf(cpu));
  expectNamed(await chartFacts(cpu.locator('canvas')), [['CPU', '%']]);
  await expectExtremeTooltip(page, cpu, 'CPU', recordSamples(stats, 'time', 'cpu'));
  const voltage = await figureDrawing(page, 'Supply voltage');
  expectNamed(await chartFacts(voltage.locator('canvas')), [['Supply voltage', 'V']]);
  await expectExtremeTooltip(page, voltage, 'Supply voltage', recordSamples(stats, 'time', 'voltage'), 'min');
  await keepChartScreenshot(page, testInfo, 'system-health', chartCard(page));

  // Calibrations and SICs are weeks and days apart: a month of them.
  await openDataset(page, harness, serial, 'calibrations');
  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 31 days' });
  await settled(page);
  const level = await figureDrawing(page, 'Level');
  const offset = await figureDrawing(page, 'Offset');
  // One quantity per axis: the level (about 94 dB) and the offset (tenths of a dB) apart.
  expect(await level.getAttribute('data-view-start')).toBe(await offset.getAttribute('data-view-start'));
  const levelFacts = await chartFacts(level.locator('canvas'));
  expect(levelFacts.datasets.map((d) => d.label)).not.toContainEqual(expect.stringMatching(/^Offset/));
  expectNamed(levelFacts, [['Level', 'dB']]);
  expectNamed(await chartFacts(offset.locator('canvas')), [['Offset', 'dB']]);
  const calibrations = await service.get('/data/calibrations', serial, await viewOf(level));
  expect(calibrations.length, 'the service has calibrations in the last 31 days').toBeGreaterThan(0);
  await expectExtremeTooltip(page, level, 'Level', recordSamples(calibrations, 'time', 'level'));
  await expectExtremeTooltip(page, offset, 'Offset', recordSamples(calibrations, 'time', 'offset'), 'min');
  await keepChartScreenshot(page, testInfo, 'calibrations', chartCard(page));

  await openDataset(page, harness, serial, 'sic');
  const sic = await figureDrawing(page, '1 kHz');
  expectNamed(await chartFacts(sic.locator('canvas')), [
    ['500 Hz', 'dB'],
    ['1 kHz', 'dB'],
    ['8 kHz', 'dB'],
  ]);
  const checks = await service.get('/data/sic', serial, await viewOf(sic));
  await expectExtremeTooltip(page, sic, '1 kHz', recordSamples(checks, 'time', '_1KHz'));
  await expectExtremeTooltip(page, sic, '8 kHz', recordSamples(checks, 'time', '_8KHz'), 'min');
  await keepChartScreenshot(page, testInfo, 'sic', chartCard(page));
});

test('vibration: PPV per axis apart from the dominant frequency, and VDV per axis, read back', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Two datasets of three axes each, their figures and tooltips read back from the service: about
  // 120 s on two busy cores.
  test.setTimeout(240_000);
  const service = await openFleet(page, harness, externalService);
  const serial = fleet().find((i) => i.wire.type === 'Vibration' && i.condition.measuring)!.wire.serialNumber;

  await openDataset(page, harness, serial, 'vibrationPPV');
  const ppv = await figureDrawing(page, 'PPV X');
  const frequency = await figureDrawing(page, 'Dominant frequency X');
  const ppvFacts = await chartFacts(ppv.locator('canvas'));
  expectNamed(ppvFacts, [
    ['PPV X', 'mm/s'],
    ['PPV Y', 'mm/s'],
    ['PPV Z', 'mm/s'],
  ]);
  // PPV apart from frequency: no frequency on the PPV chart, not even as a hidden second axis.
  expect(ppvFacts.datasets.map((d) => d.label).join(' ')).not.toMatch(/Hz|frequency/i);
  expectNamed(await chartFacts(frequency.locator('canvas')), [
    ['Dominant frequency X', 'Hz'],
    ['Dominant frequency Y', 'Hz'],
    ['Dominant frequency Z', 'Hz'],
  ]);
  const records = await service.get('/data/vibration/ppv', serial, await viewOf(ppv));
  await expectExtremeTooltip(page, ppv, 'PPV Z', recordSamples(records, 'startTime', 'vMaxZ'));
  await expectExtremeTooltip(
    page,
    frequency,
    'Dominant frequency X',
    recordSamples(records, 'startTime', 'fDomX'),
  );
  await keepChartScreenshot(page, testInfo, 'vibration-ppv', chartCard(page));

  await openDataset(page, harness, serial, 'vibrationVDV');
  const vdv = await figureDrawing(page, 'VDV X');
  expectNamed(await chartFacts(vdv.locator('canvas')), [
    ['VDV X', 'm/s'],
    ['VDV Y', 'm/s'],
    ['VDV Z', 'm/s'],
  ]);
  const doses = await service.get('/data/vibration/vdv', serial, await viewOf(vdv));
  await expectExtremeTooltip(page, vdv, 'VDV Z', recordSamples(doses, 'startTime', 'vdvZ'), 'max', 3);
  await keepChartScreenshot(page, testInfo, 'vibration-vdv', chartCard(page));
  // The figures of the range read as the assessment states VDV, to three significant digits: doses
  // of a few thousandths are not 0.00. The range's own VDV combines the doses by fourth powers
  // (BS 6472-1), never their mean.
  const vdvZ = within(recordSamples(doses, 'startTime', 'vdvZ'), await viewOf(vdv));
  const row = page.getByTestId('range-figures').locator('tr[data-name="vdvZ"]');
  const threeDigits = (value: number) => Number(value.toPrecision(3));
  const shownNumber = async (figure: string) =>
    Number(/^-?[\d.]+/.exec((await row.locator(`[data-figure="${figure}"]`).innerText()).trim())?.[0]);
  await expect(row.locator('[data-figure="max"]')).toContainText(' m/s');
  expect(await shownNumber('max')).toBe(threeDigits(extremeOf(vdvZ.values(), 'max')));
  expect(await shownNumber('min')).toBe(threeDigits(extremeOf(vdvZ.values(), 'min')));
  const combined = [...vdvZ.values()].reduce((sum, value) => sum + value ** 4, 0) ** 0.25;
  expect(await shownNumber('combined'), `the VDV Z of the range, ${combined}`).toBe(threeDigits(combined));
  await expect(page.getByTestId('range-figures').locator('thead')).toContainText('VDV of the range');
});

/** The records whose time lies in [start, end). */
const startingWithin = (
  records: readonly WireRecord[],
  timeKey: string,
  range: { start: number; end: number },
): WireRecord[] =>
  records.filter(
    (r) => Date.parse(String(r[timeKey])) >= range.start && Date.parse(String(r[timeKey])) < range.end,
  );

/** The gases as the service names them, and as a person reads them. */
const GASES = [
  ['co', 'CO', 'ppb'],
  ['h2S', 'H₂S', 'ppb'],
  ['no', 'NO', 'ppb'],
  ['nO2', 'NO₂', 'ppb'],
  ['o3', 'O₃', 'ppb'],
  ['sO2', 'SO₂', 'ppb'],
  ['cO2', 'CO₂', 'ppm'],
  ['voc', 'VOC', ''],
] as const;

/** The decimals each gas is written with (its declared precision): whole CO, CO₂ and VOC, H₂S and SO₂ to 0.01. */
const GAS_DECIMALS: Readonly<Record<string, number>> = {
  co: 0,
  h2S: 2,
  no: 1,
  nO2: 1,
  o3: 1,
  sO2: 2,
  cO2: 0,
  voc: 0,
};

test('air quality: particulates and gases properly named; drag and wheel zoom, the whole range again, and the zoomed view exported as the service sent it', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Two datasets, a drag and a wheel zoom each redrawing every chart, and a full-resolution export
  // read back: about 245 s on two busy cores.
  test.setTimeout(480_000);
  const service = await openFleet(page, harness, externalService);
  const serial = fleet().find((i) => i.wire.type === 'AirQuality' && i.condition.measuring)!.wire
    .serialNumber;

  await openDataset(page, harness, serial, 'particulates');
  const pm = await figureDrawing(page, 'PM2.5');
  expectNamed(await chartFacts(pm.locator('canvas')), [
    ['PM1', 'µg/m³'],
    ['PM2.5', 'µg/m³'],
    ['PM4.25', 'µg/m³'],
    ['PM10', 'µg/m³'],
  ]);
  const dust = await service.get('/data/particulates', serial, await viewOf(pm));
  await expectExtremeTooltip(page, pm, 'PM2.5', recordSamples(dust, 'startTime', 'pM2p5'));
  await expectExtremeTooltip(page, pm, 'PM10', recordSamples(dust, 'startTime', 'pM10'), 'min');
  await keepChartScreenshot(page, testInfo, 'particulates', chartCard(page));

  await openDataset(page, harness, serial, 'gases');
  const texts = await allChartText(page);
  for (const [, name, unit] of GASES) {
    expect(texts, `a legend entry for ${name}`).toContainEqual(
      unit === '' ? name : expect.stringMatching(new RegExp(`^${escape(name)} .*${escape(unit)}`)),
    );
  }
  for (const text of texts) expect(text).not.toMatch(WIRE_NAMES);
  const no2 = await figureDrawing(page, 'NO₂');
  const co2 = await figureDrawing(page, 'CO₂');
  const whole = await viewOf(no2);
  const gases = startingWithin(await service.get('/data/gases', serial, whole), 'startTime', whole);
  await expectExtremeTooltip(page, no2, 'NO₂', recordSamples(gases, 'startTime', 'nO2'));
  await expectExtremeTooltip(page, co2, 'CO₂', recordSamples(gases, 'startTime', 'cO2'));
  await keepChartScreenshot(page, testInfo, 'gases', chartCard(page));

  // Drag across the second quarter of the NO₂ chart: that stretch becomes the view of every chart.
  const canvas = no2.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const shift = (await chartFacts(canvas)).axes.find((a) => a.id === 'x')!.min - whole.start;
  const span = whole.end - whole.start;
  const [from, to] = [whole.start + span / 4, whole.start + span / 2];
  const [x1, x2] = [await pixelOf(canvas, 'x', from + shift), await pixelOf(canvas, 'x', to + shift)];
  const box = (await canvas.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(x1, y);
  await page.mouse.down();
  await page.mouse.move(x2, y, { steps: 8 });
  await page.mouse.up();
  await expect(no2).not.toHaveAttribute('data-view-start', String(whole.start));
  await settled(page);
  const zoomed = await viewOf(no2);
  // To within a few pixels of where the drag began and ended.
  const pixelMs = (to - from) / (x2 - x1);
  expect(Math.abs(zoomed.start - from)).toBeLessThan(3 * pixelMs);
  expect(Math.abs(zoomed.end - to)).toBeLessThan(3 * pixelMs);
  const figures = page.getByTestId('data-chart');
  for (let i = 0; i < (await figures.count()); i++) {
    await expect(figures.nth(i)).toHaveAttribute('data-view-start', String(zoomed.start));
  }
  // The figures and the tooltip follow the view: the service's readings in it, no more.
  // The service also sends the record whose minute holds the view's start; the app keeps a record
  // in the interval its time is in, so the view holds those that start inside it.
  const inView = startingWithin(await service.get('/data/gases', serial, zoomed), 'startTime', zoomed);
  expect(inView.length).toBeLessThan(gases.length / 2);
  await expect(
    page.getByTestId('range-figures').locator('tr[data-name="nO2"]').getByRole('cell').nth(1),
  ).toHaveText(recordSamples(inView, 'startTime', 'nO2').size.toLocaleString('en-GB'));
  await expectExtremeTooltip(page, no2, 'NO₂', recordSamples(inView, 'startTime', 'nO2'), 'min');

  // Export what is shown, at full resolution: one row per reading of the view, as the service sent it.
  await chooseExport(page, 'Export CSV');
  const exported = page.getByTestId('data-exported');
  await expect(exported).toContainText(`${inView.length.toLocaleString('en-GB')} rows`);
  const csv = (await readFile((await exported.locator('.export-path').innerText()).trim(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const header = csv[0]!.split(',');
  // Gas records are stamped with their interval's start (`startTime`).
  expect(header[0]).toBe('Interval start (UTC)');
  const fields = header.slice(1).map((column) => {
    const gas = GASES.find(([, name, unit]) => column === (unit === '' ? name : `${name} (${unit})`));
    expect(gas, `the column "${column}" is a gas with its unit`).toBeDefined();
    return gas![0];
  });
  expect(new Set(fields).size).toBe(GASES.length);
  expect(csv.slice(1)).toEqual(
    inView.map((record) =>
      [
        new Date(Date.parse(String(record['startTime']))).toISOString(),
        // As the service sent it, written evenly to at least the gas's precision ("12.0" beside "12.4").
        ...fields.map((field) => {
          const value = record[field];
          if (typeof value !== 'number') return '';
          const sent = String(value).split('.')[1]?.length ?? 0;
          return value.toFixed(Math.max(sent, GAS_DECIMALS[field]!));
        }),
      ].join(','),
    ),
  );

  // The wheel zooms in around the pointer; "Whole range" shows the range chosen again.
  const middle = (zoomed.start + zoomed.end) / 2;
  // The export's banner moved the charts down: where the canvas is now.
  await canvas.scrollIntoViewIfNeeded();
  const now = (await canvas.boundingBox())!;
  await page.mouse.move(await pixelOf(canvas, 'x', middle + shift), now.y + now.height / 2);
  await page.mouse.wheel(0, -200);
  await expect(no2).not.toHaveAttribute('data-view-start', String(zoomed.start));
  await settled(page);
  const closer = await viewOf(no2);
  // One notch is a real step: a quarter of the span or more (the plugin's default was a tenth).
  expect(closer.end - closer.start).toBeLessThanOrEqual((zoomed.end - zoomed.start) * 0.76);
  expect(closer.start).toBeLessThanOrEqual(middle);
  expect(closer.end).toBeGreaterThanOrEqual(middle);
  await page.getByRole('button', { name: 'Whole range' }).click();
  await expect(no2).toHaveAttribute('data-view-start', String(whole.start));
  await expect(no2).toHaveAttribute('data-view-end', String(whole.end));
  await expect(page.getByRole('button', { name: 'Whole range' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
  await settled(page);
  await expect(
    page.getByTestId('range-figures').locator('tr[data-name="nO2"]').getByRole('cell').nth(1),
  ).toHaveText(recordSamples(gases, 'startTime', 'nO2').size.toLocaleString('en-GB'));
});
