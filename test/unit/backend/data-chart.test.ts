/**
 * data.read for a chart, through the whole backend against the demo service: the series arrive
 * reduced to what the chart's width can show, the figures are those of every reading (checked here
 * against the full-resolution answer, computed by hand), and a narrower range (a zoom step) is
 * answered from the cache.
 */
import { expect, it } from 'vitest';
import { startDemoBackend } from './backend-helpers';

const HOUR = 3_600_000;

it('reduces a day of 1 s levels for the chart and gives figures from every reading', async () => {
  const { handlers } = await startDemoBackend();
  const fleet = await handlers['instruments.list']({});
  const serial = fleet.entries.find((e) => e.instrument.type === 'Noise')!.instrument.serialNumber;
  const end = Math.floor(Date.now() / HOUR) * HOUR - 24 * HOUR;
  const query = {
    serial,
    dataset: 'noiseTimeHistory' as const,
    start: end - 6 * HOUR,
    end,
    options: { values: ['LAeq', 'LAFMax'], period: 'PT1S' },
  };
  const full = await handlers['data.read'](query);
  const chart = await handlers['data.read']({ ...query, chartWidth: 500 });
  expect(full.chart).toBeUndefined();
  expect(chart.chart?.columns).toBe(500);

  for (const channel of full.series) {
    const reduced = chart.series.find((c) => c.name === channel.name)!;
    expect(channel.values.length).toBeGreaterThan(20_000);
    expect(reduced.values.length).toBeLessThanOrEqual(3 * 500 + 1);

    const readings = [...channel.values].filter((v) => !Number.isNaN(v));
    const figures = chart.chart!.figures.find((f) => f.name === channel.name)!;
    expect(figures.readings).toBe(readings.length);
    expect(figures.max?.value).toBe(Math.max(...readings));
    expect(figures.min?.value).toBe(Math.min(...readings));
    // The peak survives the reduction.
    expect(Math.max(...[...reduced.values].filter((v) => !Number.isNaN(v)))).toBe(figures.max?.value);
    if (channel.name === 'LAeq') {
      const energy = readings.reduce((sum, v) => sum + 10 ** (v / 10), 0) / readings.length;
      expect(figures.mean).toBeCloseTo(10 * Math.log10(energy), 6);
    } else {
      // A maximum has no mean: its figure is the highest.
      expect(figures).toMatchObject({ kind: 'peak', mean: null, l10: null });
    }
  }

  // A zoom step: a narrower range at the same width, from the cache without asking the service.
  const zoomed = await handlers['data.read']({
    ...query,
    start: end - 2 * HOUR,
    end: end - HOUR,
    chartWidth: 500,
  });
  expect(zoomed.provenance.source).toBe('cached');
  const laeq = zoomed.chart!.figures.find((f) => f.name === 'LAeq')!;
  const fullLaeq = full.series.find((c) => c.name === 'LAeq')!;
  const inZoom = [...fullLaeq.times].filter(
    (t, i) => t >= end - 2 * HOUR && t < end - HOUR && !Number.isNaN(fullLaeq.values[i]!),
  );
  expect(laeq.readings).toBe(inZoom.length);
  expect(laeq.first).toBe(inZoom[0]);
  expect(laeq.last).toBe(inZoom[inZoom.length - 1]);
});

it("opens a noise event's own time history, labelled, with the figures of its readings", async () => {
  const { handlers } = await startDemoBackend();
  const fleet = await handlers['instruments.list']({});
  const serial = fleet.entries.find((e) => e.instrument.type === 'Noise' && e.status?.measuring)!.instrument
    .serialNumber;
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const events = await handlers['data.read']({ serial, dataset: 'events', start: end - 24 * HOUR, end });
  const event = events.records!.rows.find((row) => typeof row['timeHistoryId'] === 'string')!;
  const history = await handlers['data.eventTimeHistory']({ id: event['timeHistoryId'] as string });
  expect(history.series.length).toBeGreaterThan(0);
  const laeq = history.series.find((c) => c.name === 'LAeq')!;
  expect(laeq.label).toBe('LAeq');
  const readings = [...laeq.values].filter((v) => !Number.isNaN(v));
  const figures = history.figures.find((f) => f.name === 'LAeq')!;
  expect(figures.readings).toBe(readings.length);
  expect(figures.max?.value).toBe(Math.max(...readings));
  // It covers the event: from before its start to after its end.
  expect(history.range!.start).toBeLessThanOrEqual(event['startTime'] as number);
  expect(history.range!.end).toBeGreaterThanOrEqual(event['endTime'] as number);
});

it("reads a Quantum monitor's state now, live, and says when it has none", async () => {
  const { handlers, service } = await startDemoBackend();
  const fleet = await handlers['instruments.list']({});
  const online = fleet.entries.filter(
    (e) => /quantum/i.test(e.instrument.model ?? '') && e.status?.online === true,
  );
  // A demo monitor in one of its outages of a few hours (status still online) has no state now;
  // most are connected at any moment.
  const before = Date.now();
  let serial: string | null = null;
  let now: Awaited<ReturnType<(typeof handlers)['data.monitorCurrent']>> | null = null;
  for (const entry of online) {
    now = await handlers['data.monitorCurrent']({ serial: entry.instrument.serialNumber });
    serial = entry.instrument.serialNumber;
    if (now.state !== null) break;
  }
  if (serial === null || now === null) throw new Error('the demo fleet has an online Quantum monitor');
  expect(now.fetchedAt).toBeGreaterThanOrEqual(before);
  expect(now.state).toMatchObject({ instrument: serial });
  expect(now.state!.mem).toBeGreaterThan(0);
  expect(now.state!.mem).toBeLessThanOrEqual(100);
  expect(now.state!.uptime).toBeGreaterThan(0);

  // Offline, the service leaves it out: no state, not an error.
  service.webhooks.setOnline(serial, false);
  expect((await handlers['data.monitorCurrent']({ serial })).state).toBeNull();
});

it("answers a noise chart with the instrument's events to mark, in time order, in the same answer", async () => {
  const { handlers } = await startDemoBackend();
  const fleet = await handlers['instruments.list']({});
  const serial = fleet.entries.find((e) => e.instrument.type === 'Noise' && e.status?.measuring)!.instrument
    .serialNumber;
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const range = { start: end - 24 * HOUR, end };
  const chart = await handlers['data.read']({
    serial,
    dataset: 'noiseTimeHistory',
    ...range,
    chartWidth: 1200,
    withEvents: true,
  });
  const events = await handlers['data.read']({ serial, dataset: 'events', ...range });
  if (!chart.events || !('marks' in chart.events)) throw new Error('expected the events to mark');
  const starts = events.records!.rows.map((row) => row['startTime'] as number).sort((a, b) => a - b);
  expect(starts.length).toBeGreaterThan(0);
  expect(chart.events.marks.map((m) => m.start)).toEqual(starts);
  expect(chart.events.marks.every((m) => m.trigger !== '' && (m.end === null || m.end >= m.start))).toBe(
    true,
  );
  // Without asking, no events: other charts do not pay for them.
  expect(
    (await handlers['data.read']({ serial, dataset: 'noiseTimeHistory', ...range })).events,
  ).toBeUndefined();
});
