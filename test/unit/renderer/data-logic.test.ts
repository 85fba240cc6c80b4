import { describe, expect, it } from 'vitest';
import type { Provenance, RecordColumn, RecordTable, SeriesChannel } from '../../../src/shared/data';
import { channelFigures, type ChannelFigures } from '../../../src/shared/series-figures';
import { quantityValueText, type Precision } from '../../../src/shared/quantities';
import { buildDataChart, chartGroups } from '../../../src/renderer/src/features/data/chart';
import {
  bandStyle,
  hasBreak,
  reducedPoints,
  seriesStyle,
} from '../../../src/renderer/src/features/data/chart-points';
import { OCTAVE_BAND_NAMES, THIRD_OCTAVE_BAND_NAMES } from '../../../src/shared/service/limits';
import {
  cellText,
  headerText,
  isNumericColumn,
  NO_READING,
  readingText,
  recordsNewestFirst,
  timeColumnFirst,
} from '../../../src/renderer/src/features/data/records';
import { coveredText, intervalText } from '../../../src/renderer/src/ui/time';
import {
  customRangeProblem,
  rangeMenuChoice,
  resolveRange,
} from '../../../src/renderer/src/features/data/ranges';
import { panView, zoomView } from '../../../src/renderer/src/features/data/zoom';
import {
  emptyAnswerView,
  provenanceView,
  shownCopyText,
} from '../../../src/renderer/src/features/data/provenance';
import {
  availableDatasets,
  initialChoices,
  optionsProblem,
  queryOptions,
  DEFAULT_OPTION_CHOICES,
} from '../../../src/renderer/src/features/data/datasets';
import { chosenDatasetsFor, DEFAULT_SYNC_CHOICES } from '../../../src/shared/sync-choices';

const T0 = Date.UTC(2026, 10, 12, 14, 0); // 12 Nov 2026 14:00 UTC
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function channel(
  name: string,
  values: number[],
  start = T0,
  stepMs = 1000,
  unit: string | null = 'dB',
): SeriesChannel {
  return {
    name,
    unit,
    times: Float64Array.from(values, (_, i) => start + i * stepMs),
    values: Float32Array.from(values),
  };
}

describe('times on screen', () => {
  const later = T0 + 2 * DAY;

  it('gives a range not entirely today its full dates, across midnight and to the second within one minute', () => {
    expect(intervalText({ start: T0, end: T0 + 4 * HOUR }, 'utc', later)).toBe(
      '12 Nov 2026 14:00 – 18:00 UTC',
    );
    expect(intervalText({ start: T0 + 8 * HOUR, end: T0 + 12 * HOUR }, 'utc', later)).toBe(
      '12 Nov 2026 22:00 – 13 Nov 2026 02:00 UTC',
    );
    expect(intervalText({ start: T0 + 5_000, end: T0 + 40_000 }, 'utc', later)).toBe(
      '12 Nov 2026 14:00:05 – 14:00:40 UTC',
    );
    // A range of an earlier year says its year, though both ends share it.
    expect(intervalText({ start: T0 - 365 * DAY, end: T0 - 365 * DAY + 4 * HOUR }, 'utc', T0)).toBe(
      '12 Nov 2025 14:00 – 18:00 UTC',
    );
    // Across a new year in the laptop's own zone, each date with its year.
    const localStart = new Date(2025, 11, 31, 23, 0).getTime();
    expect(intervalText({ start: localStart, end: localStart + 2 * HOUR }, 'local', later)).toBe(
      '31 Dec 2025 23:00 – 1 Jan 2026 01:00',
    );
    // From yesterday into today is not today's.
    expect(intervalText({ start: T0 + 8 * HOUR, end: T0 + 12 * HOUR }, 'utc', T0 + 12 * HOUR)).toBe(
      '12 Nov 2026 22:00 – 13 Nov 2026 02:00 UTC',
    );
  });

  it('says only the times of a range entirely today, judged in the zone shown', () => {
    const sameDay = T0 + 6 * HOUR;
    expect(intervalText({ start: T0, end: T0 + 4 * HOUR }, 'utc', sameDay)).toBe('14:00 – 18:00 UTC');
    expect(intervalText({ start: T0 + 5_000, end: T0 + 40_000 }, 'utc', sameDay)).toBe(
      '14:00:05 – 14:00:40 UTC',
    );
    // 01:00 UTC on 13 Nov is still 12 Nov in New York: there the range is today's.
    const range = { start: T0, end: T0 + HOUR };
    expect(intervalText(range, 'utc', T0 + 11 * HOUR)).toBe('12 Nov 2026 14:00 – 15:00 UTC');
    expect(intervalText(range, 'America/New_York', T0 + 11 * HOUR)).toBe('09:00 – 10:00 UTC-05:00');
  });

  it('says covered ranges briefly: days in a month, across months, always with the year', () => {
    const now = Date.UTC(2026, 10, 20);
    const nov12 = Date.UTC(2026, 10, 12);
    expect(coveredText({ start: nov12, end: Date.UTC(2026, 10, 20) }, 'utc', now)).toBe('12–19 Nov 2026');
    expect(coveredText({ start: Date.UTC(2026, 9, 28), end: Date.UTC(2026, 10, 4) }, 'utc', now)).toBe(
      '28 Oct – 3 Nov 2026',
    );
    expect(coveredText({ start: Date.UTC(2025, 11, 28), end: Date.UTC(2026, 0, 4) }, 'utc', now)).toBe(
      '28 Dec 2025 – 3 Jan 2026',
    );
    expect(coveredText({ start: Date.UTC(2025, 10, 2), end: Date.UTC(2025, 10, 9) }, 'utc', now)).toBe(
      '2–8 Nov 2025',
    );
    // Under two days the times matter.
    expect(coveredText({ start: T0, end: T0 + DAY }, 'utc', now)).toBe(
      '12 Nov 2026 14:00 – 13 Nov 2026 14:00 UTC',
    );
  });
});

describe('ranges', () => {
  it('ends a preset at the next whole minute, so reads in the same minute ask the same', () => {
    const now = T0 + 25_000;
    expect(resolveRange({ kind: 'preset', preset: '24h' }, now)).toEqual({
      start: T0 + 60_000 - DAY,
      end: T0 + 60_000,
    });
    expect(resolveRange({ kind: 'preset', preset: '7d' }, now + 10_000)).toEqual(
      resolveRange({ kind: 'preset', preset: '7d' }, now),
    );
    expect(resolveRange({ kind: 'custom', start: 1, end: 2 }, now)).toEqual({ start: 1, end: 2 });
  });

  it('names what is wrong with a custom range', () => {
    expect(customRangeProblem(null, T0)).toBe('Enter both a start and an end.');
    expect(customRangeProblem(T0, T0)).toBe('The end must be after the start.');
    expect(customRangeProblem(T0, T0 + 11 * 366 * DAY)).toBe('Choose a range of at most ten years.');
    expect(customRangeProblem(T0, T0 + HOUR)).toBeNull();
  });

  it('says "Custom" once a zoom or a pan shows part of a preset, and the preset while all of it shows', () => {
    const week = { kind: 'preset', preset: '7d' } as const;
    const full = resolveRange(week, T0);
    expect(rangeMenuChoice(week, null)).toBe('7d');
    // Zoomed in on the last day of the week, or panned by an hour: no longer "Last 7 days".
    const zoomed = zoomView(full, full, 1 / 7);
    expect(rangeMenuChoice(week, zoomed)).toBe('custom');
    expect(rangeMenuChoice(week, panView(zoomed, full, -1))).toBe('custom');
    expect(rangeMenuChoice({ kind: 'custom', start: T0, end: T0 + HOUR }, null)).toBe('custom');
  });
});

describe('provenance', () => {
  const now = T0 + 2 * DAY;

  it('says live, cached with its age, or partial with the gaps and why', () => {
    expect(provenanceView({ source: 'fresh', fetchedAt: T0 + 42 * 60_000 }, T0 + HOUR, 'utc')).toMatchObject({
      tone: 'ok',
      text: 'Live from the service, fetched 14:42 UTC',
      copyAt: null,
    });
    // Fetched another day: that day is said, with its year.
    expect(provenanceView({ source: 'fresh', fetchedAt: T0 + 42 * 60_000 }, now, 'utc').text).toBe(
      'Live from the service, fetched 12 Nov 2026 14:42 UTC',
    );
    // Derived offline: said first, with where the rest came from.
    expect(provenanceView({ source: 'cached', cachedAt: T0 }, now, 'utc', true, true).text).toMatch(
      /^Derived offline from cached data, not fetched\. From the cache, fetched .*offline copy\)$/,
    );
    expect(provenanceView({ source: 'cached', cachedAt: T0 }, now, 'utc', true)).toMatchObject({
      tone: 'info',
      text: 'From the cache, fetched 2 days ago (12 Nov 2026 14:00 UTC, offline copy)',
      copyAt: T0,
    });
    // Online it is no offline copy, and the part fetched again for this read is said, with when.
    expect(
      provenanceView(
        {
          source: 'cached',
          cachedAt: T0,
          refreshed: { intervals: [{ start: now - HOUR, end: now }], fetchedAt: now },
        },
        now,
        'utc',
      ).text,
    ).toBe(
      'From the cache, fetched 2 days ago (12 Nov 2026 14:00 UTC); 13:00 – 14:00 UTC fetched again just now',
    );
    // Fetched earlier today, how long ago is enough. Today is judged in the zone shown: at 16:00 UTC
    // it is already the next day in Tokyo.
    expect(provenanceView({ source: 'cached', cachedAt: T0 }, T0 + 2 * HOUR, 'utc').text).toBe(
      'From the cache, fetched 2 hours ago',
    );
    expect(provenanceView({ source: 'cached', cachedAt: T0 }, T0 + 2 * HOUR, 'Asia/Tokyo').text).toBe(
      'From the cache, fetched 2 hours ago (12 Nov 2026 23:00 UTC+09:00)',
    );
    const partial = provenanceView(
      {
        source: 'partial',
        cachedAt: null,
        missing: [{ start: T0, end: T0 + 4 * HOUR }],
        reason: { code: 'offline', message: 'x', retryable: true },
      },
      now,
      'utc',
    );
    expect(partial.text).toBe('Partly available: missing 12 Nov 2026 14:00 – 18:00 UTC (offline)');
    expect(partial.tone).toBe('warning');
  });

  it('says "nothing to show", not "partly available", when an answer with gaps holds no readings', () => {
    const offline = { code: 'offline', message: 'x', retryable: true } as const;
    const missing = [{ start: T0, end: T0 + 4 * HOUR }];
    const none = { source: 'partial', cachedAt: null, missing, reason: offline } as const;
    expect(provenanceView(none, now, 'utc', true, false, true)).toMatchObject({
      tone: 'warning',
      text: 'Nothing to show: 12 Nov 2026 14:00 – 18:00 UTC could not be fetched (offline), and none of it is cached',
    });
    // A cached rest without readings is said as such, with its age.
    expect(provenanceView({ ...none, cachedAt: T0 }, now, 'utc', true, false, true).text).toBe(
      'Nothing to show: 12 Nov 2026 14:00 – 18:00 UTC could not be fetched (offline); the rest, from the cache (fetched 2 days ago (12 Nov 2026 14:00 UTC)), has no readings',
    );
  });

  it('in place of the chart: why nothing came, never "choose a longer range" for what was not fetched', () => {
    const offline = { code: 'offline', message: 'x', retryable: true } as const;
    const none: Provenance = { source: 'partial', cachedAt: null, missing: [], reason: offline };
    // Left out of the sync: the note above says which box to tick.
    expect(emptyAnswerView('Spectrum time history', none, true)).toEqual({
      title: 'Nothing to show for this range',
      text: 'Spectrum time history could not be fetched for this range (offline) and none of it is cached. See the note above.',
    });
    expect(emptyAnswerView('Spectrum time history', none, false).text).toBe(
      'Spectrum time history could not be fetched for this range (offline) and none of it is cached. Read it again once online, or keep it with a site sync before going to site.',
    );
    const forbidden: Provenance = {
      source: 'partial',
      cachedAt: T0,
      missing: [],
      reason: { code: 'forbidden', message: 'x', retryable: false, missingScope: 'data.noise:read' },
    };
    expect(emptyAnswerView('Noise levels', forbidden, false).text).toBe(
      'Noise levels could not be fetched for this range (the key lacks data.noise:read).',
    );
    // Fetched, and truly nothing there: then a longer range is the advice.
    expect(emptyAnswerView('Weather', { source: 'fresh', fetchedAt: T0 }, false)).toEqual({
      title: 'No readings in this range',
      text: 'Weather has nothing between these times. Choose a longer range or another dataset.',
    });
  });

  it('names a missing scope and counts gaps beyond the first two', () => {
    const view = provenanceView(
      {
        source: 'partial',
        cachedAt: T0,
        missing: [0, 1, 2, 3].map((i) => ({ start: T0 + i * DAY, end: T0 + i * DAY + HOUR })),
        reason: { code: 'forbidden', message: 'x', retryable: false, missingScope: 'data.enviro:read' },
      },
      now,
      'utc',
    );
    expect(view.text).toContain('and 2 more (the key lacks data.enviro:read)');
    expect(view.text).toMatch(/^Partly available/);
    expect(view.text).toContain('The rest is from the cache, fetched 2 days ago (12 Nov 2026 14:00 UTC)');
    expect(shownCopyText(view.copyAt, now)).toBe('The data shown was fetched 2 days ago.');
    expect(shownCopyText(null, now)).toBeNull();
  });
});

describe('chart model', () => {
  it('draws the shared reduction as points in time order, a break kept once (src/shared/series-reduce.ts is tested on its own)', () => {
    const points = reducedPoints(
      Float64Array.from([1, 2, 3, 4, 5]),
      Float32Array.from([50, Number.NaN, Number.NaN, 52, 53]),
      { start: 0, end: 10 },
      100,
    );
    expect(points.map((p) => p.x)).toEqual([1, 2, 4, 5]);
    expect(Number.isNaN(points[1]!.y)).toBe(true);
  });

  it('draws a reading with none beside it as a dot, so one weather reading is never an empty chart', () => {
    const one = buildDataChart([channel('Wind', [Number.NaN, 4, Number.NaN], T0, 60_000, 'm/s')], {
      zone: 'utc',
      range: { start: T0, end: T0 + 3 * 60_000 },
      now: T0,
    });
    const radius = one.datasets[0]!.pointRadius as (context: { dataIndex: number }) => number;
    const dotted = one.datasets[0]!.data.map((_, dataIndex) => radius({ dataIndex }));
    expect(dotted).toEqual([0, 4, 0]);
    expect(one.summary).toContain(': 1 reading, taken ');
  });

  it('gives each quantity its own chart: PPV apart from frequency, a calibration offset apart from the level', () => {
    const groups = chartGroups([
      { ...channel('vMaxX', [1], T0, 1000, 'mm/s'), label: 'PPV X' },
      { ...channel('fDomX', [20], T0, 1000, 'Hz'), label: 'Dominant frequency X' },
      { ...channel('vMaxY', [1], T0, 1000, 'mm/s'), label: 'PPV Y' },
    ]);
    expect(groups.map((g) => [g.title, g.series.length])).toEqual([
      ['PPV X, PPV Y (mm/s)', 2],
      ['Dominant frequency X (Hz)', 1],
    ]);
    const calibration = chartGroups([
      { ...channel('level', [94.1]), label: 'Level' },
      { ...channel('offset', [0.1]), label: 'Offset', quantity: 'level difference' },
    ]);
    expect(calibration.map((g) => g.title)).toEqual(['Level (dB)', 'Offset (dB)']);
    // With the backend's figures, each group carries those of its own channels.
    const figure = (name: string) => ({ name, label: name }) as ChannelFigures;
    const withFigures = chartGroups(
      [channel('vMaxX', [1], T0, 1000, 'mm/s'), channel('fDomX', [20], T0, 1000, 'Hz')],
      [figure('fDomX'), figure('vMaxX')],
    );
    expect(withFigures.map((g) => g.figures?.map((f) => f.name))).toEqual([['vMaxX'], ['fDomX']]);
  });

  it('builds one line per channel with an axis per unit, Chart.js set up for big series', () => {
    const model = buildDataChart(
      [
        channel('LAeq', [50, 51, Number.NaN]),
        channel('LAFMax', [60, 61, 62]),
        channel('Wind', [3, 4, 5], T0, 1000, 'm/s'),
        channel('Pressure', [1.01, 1.02, 1.01], T0, 1000, 'bar'),
      ],
      { zone: 'local', range: { start: T0, end: T0 + 3000 }, now: T0 },
    );
    expect(model.datasets.map((d) => [d.label, d.yAxisID, d.hidden])).toEqual([
      ['LAeq (dB)', 'y0', false],
      ['LAFMax (dB)', 'y0', false],
      ['Wind (m/s)', 'y1', false],
      ['Pressure (bar)', 'y2', true],
    ]);
    expect(model.options).toMatchObject({ parsing: false, normalized: true, animation: false });
    expect(model.options.plugins?.decimation).toMatchObject({ enabled: true, algorithm: 'min-max' });
    expect(model.datasets.every((d) => d.pointRadius === 0 && d.spanGaps === false)).toBe(true);
    const scales = model.options.scales as Record<
      string,
      { title?: { text?: string }; type?: string; min?: number }
    >;
    expect(scales['x']?.type).toBe('time');
    expect(scales['x']?.min).toBe(T0);
    expect(scales['y0']?.title?.text).toBe('dB');
    expect(scales['y2']?.title?.text).toBe('bar');
    // Readings, not gap markers: the missing LAeq value is not counted.
    expect(model.sampleCount).toBe(11);
    expect(model.summary).toContain(': 2–3 readings, taken ');
    // The missing LAeq value ends its line: nothing breaks, so no word of breaks.
    expect(model.summary).not.toContain('Gaps in the readings');
  });

  it('draws records taken now and then as points, on a dB axis at least 1 dB tall', () => {
    const levels = channel('level', [94.21, 94.23, 94.22], T0, 14 * 86_400_000);
    const model = buildDataChart([levels], {
      zone: 'utc',
      range: { start: T0, end: T0 + 40 * 86_400_000 },
      now: T0,
      pointsOnly: true,
    });
    expect(model.datasets[0]).toMatchObject({ showLine: false, pointRadius: 5 });
    const y = (model.options.scales as Record<string, { min?: number; max?: number }>)['y0']!;
    expect([y.min, y.max]).toEqual([93.7, 94.7]);
    // A noise level that moves more than a dB keeps Chart.js's own range.
    const noise = buildDataChart([channel('LAeq', [50, 61, 72])], {
      zone: 'utc',
      range: { start: T0, end: T0 + 3000 },
      now: T0,
    });
    expect((noise.options.scales as Record<string, { min?: number }>)['y0']!.min).toBeUndefined();
  });

  it('speaks of breaks in the line only where a gap lies between readings', () => {
    const at = (ys: number[]) => ys.map((y, i) => ({ x: T0 + i * 1000, y }));
    expect(hasBreak(at([50, Number.NaN, 51]))).toBe(true);
    // A marker where the answer ends (or before it starts) breaks nothing drawn.
    expect(hasBreak(at([50, 51, Number.NaN]))).toBe(false);
    expect(hasBreak(at([Number.NaN, 50, 51]))).toBe(false);
    expect(hasBreak(at([Number.NaN, Number.NaN]))).toBe(false);
  });

  it('says when the readings were taken, so a chart mostly empty is explained', () => {
    const day = { start: T0, end: T0 + 24 * HOUR };
    const later = T0 + 2 * DAY;
    const readings = [channel('LAeq', [50, 51, 52, 53], T0, 15 * 60_000)];
    const stopped = buildDataChart(readings, { zone: 'utc', range: day, now: later });
    expect(stopped.summary).toBe(
      'LAeq, 12 Nov 2026 14:00 – 13 Nov 2026 14:00 UTC: 4 readings, taken 12 Nov 2026 14:00 – 14:45 UTC.',
    );
    const silent = buildDataChart([channel('LAeq', [Number.NaN, Number.NaN])], {
      zone: 'utc',
      range: day,
      now: later,
    });
    expect(silent.summary).toBe(
      'LAeq, 12 Nov 2026 14:00 – 13 Nov 2026 14:00 UTC: no readings in this range.',
    );
    // Looked at the same day, a range within it says only its times.
    const today = buildDataChart(readings, {
      zone: 'utc',
      range: { start: T0, end: T0 + 4 * HOUR },
      now: T0 + 5 * HOUR,
    });
    expect(today.summary).toBe('LAeq, 14:00 – 18:00 UTC: 4 readings, taken 14:00 – 14:45 UTC.');
  });

  it('reads a reading in its tooltip at its channel’s precision, as the figures and the record table do', () => {
    const range = { start: T0, end: T0 + 3000 };
    const declared = (made: SeriesChannel, precision: Precision): SeriesChannel => ({ ...made, precision });
    const vdv = declared(channel('VDV X', [0.0021, 0.1633, 12], T0, 1000, 'm/s¹·⁷⁵'), { significant: 3 });
    const memory = declared(channel('Memory', [Math.fround(5560.4), 59, 58.1], T0, 1000, 'MB'), {
      decimals: 0,
    });
    const model = buildDataChart(
      [
        vdv,
        channel('Pressure', [1.0082, Number.NaN, 1.01], T0, 1000, 'bar'),
        declared(channel('LAeq', [64.2, 59, 80.15], T0, 1000), { decimals: 1 }),
        memory,
      ],
      { zone: 'utc', range, now: T0 },
    );
    const label = model.options.plugins!.tooltip!.callbacks!.label! as (item: unknown) => string;
    const read = (dataset: number, index: number) =>
      label({
        dataset: model.datasets[dataset],
        datasetIndex: dataset,
        raw: model.datasets[dataset]!.data[index],
      });
    // Three significant digits, as the assessment states VDV: a dose of 0.0021 is not 0.00.
    expect([0, 1, 2].map((i) => read(0, i))).toEqual([
      'VDV X (m/s¹·⁷⁵): 0.00210',
      'VDV X (m/s¹·⁷⁵): 0.163',
      'VDV X (m/s¹·⁷⁵): 12.0',
    ]);
    // A channel nothing declares reads as it came, to four decimals at most.
    expect([0, 1, 2].map((i) => read(1, i))).toEqual([
      'Pressure (bar): 1.0082',
      'Pressure (bar): no reading',
      'Pressure (bar): 1.01',
    ]);
    // One precision per channel: "59.0" beside "58.1", never "59"; the Float32 tail of 5560.4 MB cut.
    expect([0, 1, 2].map((i) => read(2, i))).toEqual([
      'LAeq (dB): 64.2',
      'LAeq (dB): 59.0',
      'LAeq (dB): 80.2',
    ]);
    expect(read(3, 0)).toBe('Memory (MB): 5,560');
    // The tooltip, the range figures and the record table write a value with the same formatter.
    const figures = channelFigures(memory, range);
    expect(quantityValueText(figures.max!.value, figures.precision, null)).toBe('5,560');
    expect(
      cellText(
        Math.fround(5560.4),
        { key: 'mem', label: 'Memory', unit: 'MB', type: 'number', precision: { decimals: 0 } },
        'utc',
      ),
    ).toBe('5,560');
    expect(readingText(0.0021)).toBe(
      cellText(0.0021, { key: 'v', label: 'V', unit: null, type: 'number' }, 'utc'),
    );
  });

  it('draws up to 32 lines each in a style of its own: ten octave bands never share one', () => {
    const styles = Array.from({ length: 32 }, (_, i) => JSON.stringify(seriesStyle(i)));
    expect(new Set(styles).size).toBe(32);
    const bands = buildDataChart(
      Array.from({ length: 10 }, (_, i) => channel(`band ${i}`, [50, 51])),
      { zone: 'utc', range: { start: T0, end: T0 + 2000 }, now: T0 },
    );
    const drawn = bands.datasets.map((d) => JSON.stringify([d.borderColor, d.borderDash]));
    expect(new Set(drawn).size).toBe(10);
  });

  it('gives every frequency band a colour of its own along the spectrum: 31.5 Hz and 8 kHz never alike', () => {
    const drawn = (names: readonly string[]) =>
      buildDataChart(
        names.map((name) => channel(name, [50, 51])),
        { zone: 'utc', range: { start: T0, end: T0 + 2000 }, now: T0, bands: true },
      ).datasets;
    const octaves = drawn(OCTAVE_BAND_NAMES);
    const colours = octaves.map((d) => String(d.borderColor));
    expect(new Set(colours).size).toBe(OCTAVE_BAND_NAMES.length);
    // The ends of the ramp: the lowest band deep purple (#3b0f70), the highest crimson (#8e0038).
    expect(colours[0]).toBe('rgb(59, 15, 112)');
    expect(colours.at(-1)).toBe('rgb(142, 0, 56)');
    // Halfway along eight stops lies halfway between the fourth (#2e7d32) and the fifth (#6b7d00):
    // (46 + 107) / 2 = 76.5 → 77, 125, (50 + 0) / 2 = 25.
    expect(bandStyle(1, 3).color).toBe('rgb(77, 125, 25)');
    const rgb = (c: string) => c.match(/\d+/g)!.map(Number);
    const distance = (a: string, b: string) => Math.hypot(...rgb(a).map((v, i) => v - rgb(b)[i]!));
    const [lowest, eightKilohertz] = [colours[0]!, colours[OCTAVE_BAND_NAMES.indexOf('8KHz')]!];
    expect(distance(lowest, eightKilohertz)).toBeGreaterThan(100);
    // Any two octave bands stay clearly apart; neighbours also differ by dash.
    for (let i = 0; i < colours.length; i++)
      for (let j = i + 1; j < colours.length; j++)
        expect(distance(colours[i]!, colours[j]!)).toBeGreaterThan(30);
    const thirds = drawn(THIRD_OCTAVE_BAND_NAMES);
    expect(new Set(thirds.map((d) => String(d.borderColor))).size).toBe(THIRD_OCTAVE_BAND_NAMES.length);
    thirds.slice(1).forEach((d, i) => expect(d.borderDash).not.toEqual(thirds[i]!.borderDash));
  });

  it("names each of an event's 100 ms readings by its own time in the tooltip", () => {
    const range = { start: T0, end: T0 + 3000 };
    const time = (m: ReturnType<typeof buildDataChart>) =>
      (m.options.scales as Record<string, { time?: { tooltipFormat?: string } }>)['x']?.time?.tooltipFormat;
    expect(time(buildDataChart([channel('LAeq', [70, 71, 72])], { zone: 'utc', range, now: T0 }))).toBe(
      'yyyy-MM-dd HH:mm:ss',
    );
    // Ten readings a second: each its own time, never ten alike.
    expect(
      time(buildDataChart([channel('LAeq', [70, 71, 72], T0, 100)], { zone: 'utc', range, now: T0 })),
    ).toBe('yyyy-MM-dd HH:mm:ss.S');
  });
});

describe('record table', () => {
  const table: RecordTable = {
    timeKey: 'startTime',
    columns: [
      { key: 'startTime', label: 'Start', unit: null, type: 'time' },
      { key: 'endTime', label: 'End', unit: null, type: 'time' },
      { key: 'LAeq', label: 'LAeq', unit: 'dB', type: 'number' },
      { key: 'note', label: 'Note', unit: null, type: 'text' },
      { key: 'overload', label: 'Overload', unit: null, type: 'boolean' },
      { key: 'octave', label: 'Octave bands', unit: 'dB', type: 'list' },
      // Named like a time, but the backend says it is a number of seconds.
      { key: 'runTime', label: 'Run time', unit: null, type: 'number' },
    ],
    rows: [
      { startTime: T0, endTime: T0 + 900_000, LAeq: 52.345678, note: 'a', overload: false, octave: null },
      {
        startTime: T0 + 1_800_000,
        endTime: T0 + 2_700_000,
        LAeq: null,
        note: 'c',
        overload: true,
        octave: '',
      },
      { startTime: T0 + 900_000, endTime: T0 + 1_800_000, LAeq: 50, note: 'b', overload: null, octave: null },
    ],
  };
  const column = (key: string): RecordColumn => table.columns.find((c) => c.key === key)!;

  it('orders newest first by the table’s time column, and puts that column first', () => {
    expect(recordsNewestFirst(table).map((r) => r['note'])).toEqual(['c', 'b', 'a']);
    const byEnd = { ...table, timeKey: 'endTime' };
    expect(timeColumnFirst(byEnd).map((c) => c.key)).toEqual([
      'endTime',
      ...table.columns.map((c) => c.key).filter((k) => k !== 'endTime'),
    ]);
    expect(timeColumnFirst(table)).toEqual(table.columns);
  });

  it('orders audio recordings by their trigger, not by when the recording started', () => {
    const audio: RecordTable = {
      timeKey: 'triggerStartTime',
      columns: [
        { key: 'id', label: 'Recording id', unit: null, type: 'text' },
        { key: 'startTime', label: 'Start', unit: null, type: 'time' },
        { key: 'triggerStartTime', label: 'Trigger start', unit: null, type: 'time' },
      ],
      rows: [
        // Long pre-trigger buffer: started first, triggered last.
        { id: 'long', startTime: T0, triggerStartTime: T0 + 50 * 60_000 },
        { id: 'short', startTime: T0 + 20 * 60_000, triggerStartTime: T0 + 21 * 60_000 },
        { id: 'middle', startTime: T0 + 10 * 60_000, triggerStartTime: T0 + 30 * 60_000 },
      ],
    };
    expect(recordsNewestFirst(audio).map((r) => r['id'])).toEqual(['long', 'middle', 'short']);
  });

  it('keeps the order received for rows of the same time (newest received first)', () => {
    const same: RecordTable = { ...table, rows: table.rows.map((r) => ({ ...r, startTime: T0 })) };
    expect(recordsNewestFirst(same).map((r) => r['note'])).toEqual(['b', 'c', 'a']);
  });

  it('shows each cell as its column’s type says: times in the chosen zone, numbers trimmed, Yes/No, lists as text', () => {
    expect(cellText(T0 + 900_000, column('endTime'), 'utc')).toBe('2026-11-12 14:15:00');
    // 24-hour clock in the local zone too.
    expect(cellText(new Date(2026, 10, 12, 21, 5, 9).getTime(), column('startTime'), 'local')).toBe(
      '2026-11-12 21:05:09',
    );
    // Only the column's type makes a time: not its name, not the size of the number.
    expect(cellText(90, column('runTime'), 'utc')).toBe('90');
    expect(cellText(T0, column('note'), 'utc')).toBe(String(T0));
    expect(cellText(52.345678, column('LAeq'), 'utc')).toBe('52.3457');
    // A column with its channel's precision (every declared channel; levels derived offline) shows that.
    const tenth = { ...column('LAeq'), precision: { decimals: 1 } };
    expect(cellText(-61.9532, tenth, 'utc')).toBe('-62.0');
    expect(cellText(20.056, tenth, 'utc')).toBe('20.1');
    expect(cellText(59, tenth, 'utc')).toBe('59.0');
    expect(cellText(Math.fround(5560.4), { ...tenth, precision: { decimals: 0 } }, 'utc')).toBe('5,560');
    expect(cellText(0.002134, { ...tenth, precision: { significant: 3 } }, 'utc')).toBe('0.00213');
    expect(cellText(Number.NaN, tenth, 'utc')).toBe(NO_READING);
    expect(cellText(null, column('LAeq'), 'utc')).toBe(NO_READING);
    expect(cellText(Number.NaN, column('LAeq'), 'utc')).toBe(NO_READING);
    expect(cellText(false, column('overload'), 'utc')).toBe('No');
    expect(cellText(true, column('overload'), 'utc')).toBe('Yes');
    expect(cellText('71.2, 80.1', column('octave'), 'utc')).toBe('71.2, 80.1');
    expect(isNumericColumn(column('LAeq'))).toBe(true);
    expect(isNumericColumn(column('note'))).toBe(false);
    expect(isNumericColumn(column('startTime'))).toBe(false);
    expect(headerText(column('LAeq'), 'utc')).toBe('LAeq (dB)');
    expect(headerText(column('runTime'), 'utc')).toBe('Run time');
    expect(headerText(column('startTime'), 'utc')).toBe('Start (UTC)');
    expect(headerText(column('startTime'), 'local')).toBe('Start');
  });
});

describe('datasets and options', () => {
  const noise = { type: 'Noise', model: 'CR:171 Optimus', feature: ['Modem'] };
  const airWithWeather = { type: 'AirQuality', model: 'AQ:1', feature: ['Weather'] };

  it('offers per type, always including the sync defaults', () => {
    expect(availableDatasets(noise)[0]).toBe('noiseMeasurements');
    expect(availableDatasets(airWithWeather)).toEqual(
      expect.arrayContaining(['particulates', 'gases', 'weather']),
    );
    expect(availableDatasets(airWithWeather)).not.toContain('noiseMeasurements');
    for (const instrument of [noise, airWithWeather, { type: 'Vibration', model: '', feature: [] }]) {
      const offered = availableDatasets(instrument);
      expect(chosenDatasetsFor(instrument, DEFAULT_SYNC_CHOICES).every((d) => offered.includes(d))).toBe(
        true,
      );
    }
  });

  it('offers only what an instrument can have: system health for Quantum models, SIC with the feature', () => {
    const optimus = { type: 'Noise', model: 'CR:171 Optimus+', feature: ['Modem'] };
    const quantum = { type: 'Noise', model: 'CR:900 Quantum', feature: ['SIC', 'Modem'] };
    expect(availableDatasets(optimus)).not.toContain('monitorStats');
    expect(availableDatasets(optimus)).not.toContain('monitorEvents');
    expect(availableDatasets(optimus)).not.toContain('sic');
    expect(availableDatasets(optimus)).not.toContain('weather');
    expect(availableDatasets(quantum)).toEqual(
      expect.arrayContaining(['monitorStats', 'monitorEvents', 'sic']),
    );
    // Events come right after the levels they explain.
    expect(availableDatasets(quantum).slice(0, 2)).toEqual(['noiseMeasurements', 'events']);
    // An air-quality station has no system events, a vibration monitor no weather.
    expect(availableDatasets(airWithWeather)).not.toContain('monitorEvents');
    expect(availableDatasets({ type: 'Vibration', model: 'VM:400', feature: ['Weather'] })).toEqual([
      'vibrationPPV',
      'vibrationVDV',
    ]);
  });

  it('sends only options that differ from the defaults, so default views match what a sync cached', () => {
    expect(queryOptions('noiseMeasurements', DEFAULT_OPTION_CHOICES)).toBeUndefined();
    expect(
      queryOptions('noiseMeasurements', { ...DEFAULT_OPTION_CHOICES, values: ['LAFMax', 'LAeq'] }),
    ).toEqual({
      values: ['LAeq', 'LAFMax'],
    });
    expect(queryOptions('weather', { ...DEFAULT_OPTION_CHOICES, values: ['LAeq'], period: 'PT1H' })).toEqual({
      period: 'PT1H',
    });
    expect(
      queryOptions('events', { ...DEFAULT_OPTION_CHOICES, period: 'PT1H', bands: 'Third' }),
    ).toBeUndefined();
    expect(
      queryOptions('frequencyMeasurements', { ...DEFAULT_OPTION_CHOICES, bands: 'Third', weighting: 'A' }),
    ).toEqual({
      bands: 'Third',
      weighting: 'A',
    });
    // The time history opens with what the sync fetched (LAeq at 1 s).
    expect(queryOptions('noiseTimeHistory', initialChoices('noiseTimeHistory'))).toEqual({
      values: ['LAeq'],
      period: 'PT1S',
    });
  });

  it('refuses no values, and statistical levels with a period', () => {
    expect(optionsProblem('noiseMeasurements', { ...DEFAULT_OPTION_CHOICES, values: [] })).toBe(
      'Choose at least one noise value.',
    );
    expect(
      optionsProblem('noiseMeasurements', { ...DEFAULT_OPTION_CHOICES, values: ['LAF90'], period: 'PT1H' }),
    ).toContain('LAF90');
    expect(optionsProblem('weather', { ...DEFAULT_OPTION_CHOICES, values: [] })).toBeNull();
  });
});
