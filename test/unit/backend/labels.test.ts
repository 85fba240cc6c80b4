/** Legends read as the tables do: proper names for wire names, bands by their frequency. */
import { describe, expect, it } from 'vitest';
import { channelLabel, withLabels } from '../../../src/main/backend/data/labels';
import type { DataReadResult } from '../../../src/shared/data';

describe('channel labels', () => {
  it.each([
    ['particulates', 'pM2p5', 'PM2.5'],
    ['gases', 'nO2', 'NO₂'],
    ['weather', 'windSpeed', 'Wind speed'],
    ['vibrationPPV', 'vMaxX', 'PPV X'],
    ['vibrationPPV', 'fDomZ', 'Dominant frequency Z'],
    ['monitorStats', 'lteRsrp', 'LTE RSRP'],
    ['frequencyMeasurements', '_500Hz', '500 Hz'],
    ['frequencyMeasurements', '31.5Hz', '31.5 Hz'],
    ['frequencyTimeHistory', '1KHz', '1 kHz'],
    ['frequencyTimeHistory', '12.5KHz', '12.5 kHz'],
    ['noiseTimeHistory', 'LAeq', 'LAeq'],
    ['noiseMeasurements', 'LAF90', 'LAF90'],
  ] as const)('%s %s reads "%s"', (dataset, name, label) => {
    expect(channelLabel(dataset, name)).toBe(label);
  });

  it('keeps the wire name as the name and adds the label to every channel of an answer', () => {
    const result = withLabels({
      query: { serial: 'AQ1', dataset: 'particulates', start: 0, end: 1 },
      provenance: { source: 'fresh', fetchedAt: 0 },
      series: [{ name: 'pM10', unit: 'µg/m³', times: new Float64Array(0), values: new Float32Array(0) }],
      records: null,
    } satisfies DataReadResult);
    expect(result.series[0]).toMatchObject({ name: 'pM10', label: 'PM10' });
  });
});

describe('quantities', () => {
  it('marks a calibration offset as its own quantity, so it never shares the level axis', () => {
    const result = withLabels({
      query: { serial: 'QT1', dataset: 'calibrations', start: 0, end: 1 },
      provenance: { source: 'fresh', fetchedAt: 0 },
      series: ['level', 'offset'].map((name) => ({
        name,
        unit: 'dB',
        times: new Float64Array(0),
        values: new Float32Array(0),
      })),
      records: null,
    } satisfies DataReadResult);
    expect(result.series.map((c) => [c.label, c.quantity])).toEqual([
      ['Level', undefined],
      ['Offset', 'level difference'],
    ]);
  });
});

describe('system health groups', () => {
  it('puts every health metric in one of four groups, the useful ones shown and the rest on request', () => {
    const names = ['cpu', 'mem', 'cache', 'temp', 'voltage', 'disk', 'netRx', 'netTx', 'mTot', 'dTot'].concat(
      ['lteRsrp', 'lteRsrq', 'lteSinr', 'lteSignal', 'ping'],
    );
    const result = withLabels({
      query: { serial: 'QT1', dataset: 'monitorStats', start: 0, end: 1 },
      provenance: { source: 'fresh', fetchedAt: 0 },
      series: names.map((name) => ({
        name,
        unit: null,
        times: new Float64Array(0),
        values: new Float32Array(0),
      })),
      records: null,
    } satisfies DataReadResult);
    const shown = (group: string) =>
      result.series.filter((c) => c.group === group && c.onRequest !== true).map((c) => c.label);
    expect(
      result.series.every((c) => ['Compute', 'Power', 'Network', 'Environment'].includes(c.group ?? '')),
    ).toBe(true);
    expect(shown('Compute')).toEqual(['CPU', 'Memory', 'Disk']);
    expect(shown('Power')).toEqual(['Supply voltage']);
    expect(shown('Environment')).toEqual(['Temperature']);
    expect(shown('Network')).toEqual(['LTE RSRP', 'Ping']);
    expect(result.series.filter((c) => c.onRequest).map((c) => c.name)).toEqual([
      'cache',
      'netRx',
      'netTx',
      'mTot',
      'dTot',
      'lteRsrq',
      'lteSinr',
      'lteSignal',
    ]);
  });

  it('marks the wind channels by quantity for the arrows and the rose', () => {
    const result = withLabels({
      query: { serial: 'W1', dataset: 'weather', start: 0, end: 1 },
      provenance: { source: 'fresh', fetchedAt: 0 },
      series: ['windSpeed', 'windDirection', 'temperature'].map((name) => ({
        name,
        unit: null,
        times: new Float64Array(0),
        values: new Float32Array(0),
      })),
      records: null,
    } satisfies DataReadResult);
    expect(result.series.map((c) => c.quantity)).toEqual(['wind speed', 'wind direction', undefined]);
  });
});

describe('units people read', () => {
  it('shows pressure in hPa: 1.0132 bar reads 1013.2 hPa in the series and the records alike', () => {
    const bar = Math.fround(1.0132);
    const answer: DataReadResult = {
      query: { serial: 'WX1', dataset: 'weather', start: 0, end: 120_000 },
      provenance: { source: 'fresh', fetchedAt: 0 },
      series: [
        {
          name: 'pressure',
          unit: 'bar',
          times: Float64Array.of(0, 60_000),
          values: Float32Array.of(bar, NaN),
        },
      ],
      records: {
        timeKey: 'time',
        columns: [
          { key: 'time', label: 'Time', unit: null, type: 'time' },
          { key: 'pressure', label: 'Pressure', unit: 'bar', type: 'number' },
        ],
        rows: [
          { time: 0, pressure: bar },
          { time: 60_000, pressure: null },
        ],
      },
    };
    const shown = withLabels(answer);
    // 1 bar = 1000 hPa: 1.0132 bar × 1000 = 1013.2 hPa, written to 0.1 hPa.
    expect(shown.series[0]).toMatchObject({ unit: 'hPa', precision: { decimals: 1 } });
    expect(shown.series[0]!.values[0]).toBeCloseTo(1013.2, 3);
    expect(shown.series[0]!.values[1]).toBeNaN();
    expect(shown.records!.columns[1]).toMatchObject({ unit: 'hPa', precision: { decimals: 1 } });
    expect(shown.records!.rows[0]!['pressure']).toBeCloseTo(1013.2, 3);
    expect(shown.records!.rows[1]!['pressure']).toBeNull();
    // The answer itself (what the cache keeps) stays in the service's unit, and labelling twice
    // converts once.
    expect(answer.records!.rows[0]!['pressure']).toBe(bar);
    expect(withLabels(shown).series[0]!.values[0]).toBeCloseTo(1013.2, 3);
  });
});
