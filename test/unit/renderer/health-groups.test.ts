/**
 * System health as engineers check a monitor: four charts (compute, environment, power, network)
 * instead of fifteen lines on one, the useful metrics drawn at once and the rest a tick away.
 */
import { describe, expect, it } from 'vitest';
import type { SeriesChannel } from '../../../src/shared/data';
import type { ChannelFigures } from '../../../src/shared/series-figures';
import { buildDataChart, chartGroups } from '../../../src/renderer/src/features/data/chart';

/** The health channels as the backend labels them (test/unit/backend/labels.test.ts checks that side). */
const HEALTH: ReadonlyArray<[string, string, string | null, string, boolean]> = [
  ['cpu', 'CPU', '%', 'Compute', false],
  ['mem', 'Memory', 'MB', 'Compute', false],
  ['cache', 'Cache', 'MB', 'Compute', true],
  ['temp', 'Temperature', '°C', 'Environment', false],
  ['voltage', 'Supply voltage', 'V', 'Power', false],
  ['disk', 'Disk', 'MB', 'Compute', false],
  ['netRx', 'Received (total)', 'kbit', 'Network', true],
  ['netTx', 'Sent (total)', 'kbit', 'Network', true],
  ['mTot', 'Data this month', 'MB', 'Network', true],
  ['dTot', 'Data today', 'MB', 'Network', true],
  ['lteRsrp', 'LTE RSRP', 'dBm', 'Network', false],
  ['lteRsrq', 'LTE RSRQ', 'dB', 'Network', true],
  ['lteSinr', 'LTE SINR', 'dB', 'Network', true],
  ['lteSignal', 'LTE signal', null, 'Network', true],
  ['ping', 'Ping', 'ms', 'Network', false],
];

function healthAnswer(): SeriesChannel[] {
  return HEALTH.map(([name, label, unit, group, onRequest]) => ({
    name,
    label,
    unit,
    group,
    ...(onRequest ? { onRequest } : {}),
    times: Float64Array.from([0, 600_000]),
    values: Float32Array.from([1, 2]),
  }));
}

describe('system health groups', () => {
  it('draws four groups, each with its useful metrics shown and the rest on request', () => {
    const groups = chartGroups(healthAnswer());
    expect(groups.map((g) => [g.title, g.series.map((c) => c.label)])).toEqual([
      ['Compute', ['CPU', 'Memory', 'Disk']],
      ['Environment', ['Temperature']],
      ['Power', ['Supply voltage']],
      ['Network', ['LTE RSRP', 'Ping']],
    ]);
    // A one-metric group has nothing to choose; the others list every metric with its unit.
    expect(groups[1]!.choices).toBeUndefined();
    expect(groups[3]!.choices?.filter((c) => !c.shown).map((c) => c.label)).toEqual([
      'Received (total) (kbit)',
      'Sent (total) (kbit)',
      'Data this month (MB)',
      'Data today (MB)',
      'LTE RSRQ (dB)',
      'LTE SINR (dB)',
      'LTE signal',
    ]);
  });

  it('shows a metric the user ticked, hides one unticked, and keeps the figures to those drawn', () => {
    const series = healthAnswer();
    const figures = series.map((c) => ({ name: c.name, label: c.label }) as ChannelFigures);
    const network = chartGroups(series, figures, { lteSinr: true, ping: false }).find(
      (g) => g.title === 'Network',
    )!;
    expect(network.series.map((c) => c.name)).toEqual(['lteRsrp', 'lteSinr']);
    expect(network.figures?.map((f) => f.name)).toEqual(['lteRsrp', 'lteSinr']);
    expect(network.choices?.find((c) => c.name === 'ping')?.shown).toBe(false);
  });

  it('draws every chosen metric of a group, an axis per unit, none left hidden', () => {
    const series = healthAnswer();
    const network = chartGroups(series, undefined, { lteSinr: true, dTot: true }).find(
      (g) => g.title === 'Network',
    )!;
    const model = buildDataChart(network.series, {
      zone: 'utc',
      range: { start: 0, end: 3_600_000 },
      now: 0,
    });
    expect(model.datasets.map((d) => [d.label, d.hidden])).toEqual([
      ['Data today (MB)', false],
      ['LTE RSRP (dBm)', false],
      ['LTE SINR (dB)', false],
      ['Ping (ms)', false],
    ]);
    expect(Object.keys(model.options.scales ?? {})).toEqual(['x', 'y0', 'y1', 'y2', 'y3']);
  });

  it('leaves the grouping of other datasets by unit', () => {
    const plain = (name: string, unit: string): SeriesChannel => ({
      name,
      unit,
      times: new Float64Array(0),
      values: new Float32Array(0),
    });
    const groups = chartGroups([plain('a', 'dB'), plain('b', 'Hz'), plain('c', 'dB')], undefined, {
      a: false,
    });
    expect(groups.map((g) => [g.title, g.series.length, g.choices])).toEqual([
      ['a, c (dB)', 2, undefined],
      ['b (Hz)', 1, undefined],
    ]);
  });
});
