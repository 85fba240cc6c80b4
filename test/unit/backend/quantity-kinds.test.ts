/**
 * Each channel's kind, precision and plausible range as declared (record specs, noise value names),
 * on the path users run: the demo service's answers read through the backend. RSRQ, negative by
 * nature, is kept and averaged arithmetically; a VDV of the range is the fourth-power combination;
 * LCPeak has its highest and no Leq. And the plausibility check per channel, with a note that names
 * the channel and its range.
 */
import { describe, expect, it } from 'vitest';
import { leaveOutImplausible } from '../../../src/main/backend/service/parse/plausibility';
import type { DataReadResult, Dataset, SeriesChannel } from '../../../src/shared/data';
import { isQuantumModel } from '../../../src/simulator';
import { startDemoBackend } from './backend-helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The readings of a channel (NaN gap markers left out). */
const readingsOf = (channel: SeriesChannel | undefined): number[] =>
  Array.from(channel?.values ?? []).filter((v) => !Number.isNaN(v));

const channelOf = (result: DataReadResult, name: string) => result.series.find((c) => c.name === name);
const figuresOf = (result: DataReadResult, name: string) =>
  result.chart?.figures.find((f) => f.name === name);

describe('statistics by kind, read from the demo service', () => {
  async function demo() {
    const made = await startDemoBackend();
    const fleet = await made.handlers['instruments.list']({});
    const pick = (test: (type: string, model: string) => boolean) =>
      fleet.entries.find((e) => test(e.instrument.type, e.instrument.model))!.instrument.serialNumber;
    // A settled day, a day back from the last whole hour.
    const end = Math.floor(Date.now() / HOUR) * HOUR - DAY;
    return { ...made, pick, range: { start: end - DAY, end } };
  }

  it('keeps a monitor’s LTE RSRQ (negative by nature) and averages it and SINR arithmetically', async () => {
    const { handlers, pick, range } = await demo();
    const serial = pick((type, model) => type === 'Noise' && isQuantumModel(model));
    const query = { serial, dataset: 'monitorStats' as const, ...range };
    const full = await handlers['data.read'](query);
    const rsrq = readingsOf(channelOf(full, 'lteRsrq'));
    // A day of 10-minute samples, nearly all with LTE: every one negative, and kept.
    expect(rsrq.length).toBeGreaterThan(100);
    expect(rsrq.every((v) => v < 0)).toBe(true);
    expect(full.notes ?? []).toEqual([]);
    expect(channelOf(full, 'lteRsrq')).toMatchObject({ kind: 'signal', precision: { decimals: 1 } });
    // The record table's numeric columns carry the same precision: memory in whole MB.
    expect(full.records?.columns.find((c) => c.key === 'mem')?.precision).toEqual({ decimals: 0 });

    const chart = await handlers['data.read']({ ...query, chartWidth: 600 });
    const arithmetic = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(figuresOf(chart, 'lteRsrq')).toMatchObject({ kind: 'signal', meanKind: 'arithmetic', l10: null });
    expect(figuresOf(chart, 'lteRsrq')!.mean).toBeCloseTo(arithmetic(rsrq), 4);
    const sinr = readingsOf(channelOf(full, 'lteSinr'));
    expect(figuresOf(chart, 'lteSinr')!.mean).toBeCloseTo(arithmetic(sinr), 4);
  });

  it('gives a VDV of the range by fourth powers, and PPV its highest without a mean', async () => {
    const { handlers, pick, range } = await demo();
    const serial = pick((type) => type === 'Vibration');
    const vdv = await handlers['data.read']({ serial, dataset: 'vibrationVDV', ...range });
    const doses = readingsOf(channelOf(vdv, 'vdvZ'));
    expect(doses.length).toBeGreaterThan(10);
    const fourthPowers = doses.reduce((sum, v) => sum + v ** 4, 0);
    const chart = await handlers['data.read']({ serial, dataset: 'vibrationVDV', ...range, chartWidth: 600 });
    const figures = figuresOf(chart, 'vdvZ')!;
    expect(figures).toMatchObject({ kind: 'dose', totalKind: 'fourthPower', mean: null });
    expect(figures.total).toBeCloseTo(fourthPowers ** 0.25, 6);
    // Above every single interval's VDV, as a dose over a longer time is.
    expect(figures.total!).toBeGreaterThanOrEqual(Math.max(...doses));

    const ppv = await handlers['data.read']({ serial, dataset: 'vibrationPPV', ...range, chartWidth: 600 });
    expect(figuresOf(ppv, 'vMaxZ')).toMatchObject({ kind: 'peak', mean: null, l10: null });
    expect(figuresOf(ppv, 'fDomZ')).toMatchObject({ kind: 'plain', meanKind: 'arithmetic' });
  });

  it('gives LCPeak and LAFMax their highest, LAeq its Leq and L10/L90', async () => {
    const { handlers, pick, range } = await demo();
    const serial = pick((type) => type === 'Noise');
    const chart = await handlers['data.read']({
      serial,
      dataset: 'noiseMeasurements',
      ...range,
      chartWidth: 600,
    });
    for (const name of ['LCPeak', 'LAFMax']) {
      expect(figuresOf(chart, name)).toMatchObject({ kind: 'peak', mean: null, l10: null, l90: null });
      expect(figuresOf(chart, name)!.max).not.toBeNull();
    }
    expect(figuresOf(chart, 'LAeq')).toMatchObject({ kind: 'level', meanKind: 'energetic' });
    expect(figuresOf(chart, 'LAeq')!.l10).not.toBeNull();
  });
});

describe('plausibility per channel', () => {
  const T0 = Date.UTC(2026, 10, 16);
  const channel = (name: string, unit: string | null, values: number[]): SeriesChannel => ({
    name,
    unit,
    times: Float64Array.from(values, (_, i) => T0 + i * 600_000),
    values: Float32Array.from(values),
  });
  const check = (dataset: Dataset, ...series: SeriesChannel[]) => leaveOutImplausible(dataset, series, null);
  const kept = (result: ReturnType<typeof check>, i: number) => Array.from(result.series[i]!.values);

  it('keeps signal quality within what a modem reports, and names the channel and range of what it leaves out', () => {
    const result = check(
      'monitorStats',
      channel('lteRsrq', 'dB', [-10, -8, -60, 25]),
      channel('lteRsrp', 'dBm', [-95, -200]),
      channel('lteSinr', 'dB', [-5, 30]),
    );
    expect(kept(result, 0).slice(0, 2)).toEqual([-10, -8]);
    expect(kept(result, 0).slice(2).every(Number.isNaN)).toBe(true);
    expect(kept(result, 1)[0]).toBe(-95);
    expect(Number.isNaN(kept(result, 1)[1]!)).toBe(true);
    expect(kept(result, 2)).toEqual([-5, 30]);
    expect(result.notes).toEqual([
      '2 readings of LTE RSRQ are not shown: outside −40 to 20 dB, which no instrument measures.',
      '1 reading of LTE RSRP is not shown: outside −160 to −30 dBm, which no instrument measures.',
    ]);
    // The sound level rule is not theirs: nothing says "level" or blames the service.
    expect(result.notes.join(' ')).not.toMatch(/level|service/i);
  });

  it('keeps sound levels within 0–200 dB, band levels within −100–200 dB, and leaves unbounded quantities alone', () => {
    const noise = check('noiseTimeHistory', channel('LAeq', 'dB', [55, -4, 250]));
    expect(kept(noise, 0)[0]).toBe(55);
    expect(kept(noise, 0).slice(1).every(Number.isNaN)).toBe(true);
    expect(noise.notes).toEqual([
      '2 readings of LAeq are not shown: outside 0 to 200 dB, which no instrument measures.',
    ]);
    const bands = check('frequencyMeasurements', channel('31.5Hz', 'dB', [-40, -150]));
    expect(kept(bands, 0)[0]).toBe(-40);
    expect(bands.notes).toEqual([
      '1 reading of 31.5 Hz is not shown: outside −100 to 200 dB, which no instrument measures.',
    ]);
    const particulates = check('particulates', channel('pM10', 'µg/m³', [-2, 5000]));
    expect(kept(particulates, 0)).toEqual([-2, 5000]);
    expect(particulates.notes).toEqual([]);
  });
});
