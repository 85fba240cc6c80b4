/**
 * Statistics by quantity kind, from hand-worked values: a level's mean is energetic, a peak has
 * only its highest, a dose (VDV) combines by fourth powers (BS 6472-1), signal quality and plain
 * quantities average arithmetically. And one precision per quantity: the formatter the tooltips,
 * the range figures and the record table share, and the export's.
 */
import { describe, expect, it } from 'vitest';
import type { SeriesChannel } from '../../../src/shared/data';
import {
  COMBINED_FIGURE_NAMES,
  decimalsFor,
  exportValueText,
  noiseValueQuantity,
  quantityOf,
  quantityValueText,
  type Precision,
  type QuantityKind,
} from '../../../src/shared/quantities';
import { channelFigures, circularMean, counterIncrease } from '../../../src/shared/series-figures';
import { numberText } from '../../../src/shared/format';

const T0 = Date.UTC(2026, 10, 16);

function declared(
  name: string,
  unit: string | null,
  kind: QuantityKind,
  precision: Precision,
  values: number[],
): SeriesChannel {
  return {
    name,
    unit,
    kind,
    precision,
    times: Float64Array.from(values, (_, i) => T0 + i * 60_000),
    values: Float32Array.from(values),
  };
}

const whole = (channel: SeriesChannel) => ({ start: T0, end: T0 + channel.times.length * 60_000 });
const figuresOf = (channel: SeriesChannel) => channelFigures(channel, whole(channel));

describe('statistics by quantity kind', () => {
  it('combines VDV by fourth powers: 0.1, 0.2 and 0.3 m/s¹·⁷⁵ make 0.3146, not their mean 0.2', () => {
    const vdv = declared('vdvZ', 'm/s¹·⁷⁵', 'dose', { significant: 3 }, [0.1, 0.2, 0.3, Number.NaN]);
    const figures = figuresOf(vdv);
    // (0.1⁴ + 0.2⁴ + 0.3⁴)^¼ = (0.0001 + 0.0016 + 0.0081)^¼ = 0.0098^¼ = 0.31464…
    expect(figures.total).toBeCloseTo(0.31464, 4);
    expect(figures.totalKind).toBe('fourthPower');
    expect(figures.mean).toBeNull();
    expect(figures.meanKind).toBeNull();
    expect(figures.max?.value).toBeCloseTo(0.3, 6);
    expect(figures.readings).toBe(3);
    expect(quantityValueText(figures.total, figures.precision, 'm/s¹·⁷⁵')).toBe('0.315 m/s¹·⁷⁵');
  });

  it('keeps RSRQ negative and averages it arithmetically: −10, −8 and −12 dB make −10 dB', () => {
    const rsrq = declared('lteRsrq', 'dB', 'signal', { decimals: 1 }, [-10, -8, -12]);
    const figures = figuresOf(rsrq);
    expect(figures).toMatchObject({
      kind: 'signal',
      readings: 3,
      meanKind: 'arithmetic',
      l10: null,
      l90: null,
    });
    expect(figures.mean).toBeCloseTo(-10, 6);
    expect(figures.min?.value).toBe(-12);
    expect(figures.max?.value).toBe(-8);
  });

  it('averages SINR arithmetically: 10 and 20 dB make 15 dB, not the energetic 17.40 dB', () => {
    const sinr = declared('lteSinr', 'dB', 'signal', { decimals: 1 }, [10, 20]);
    expect(figuresOf(sinr).mean).toBeCloseTo(15, 6);
    // The same readings as a sound level: 10·log10((10 + 100) / 2) = 17.40 dB.
    const asLevel = declared('LAeq', 'dB', 'level', { decimals: 1 }, [10, 20]);
    expect(figuresOf(asLevel).mean).toBeCloseTo(17.404, 3);
  });

  it('gives LCPeak its highest and when, and no Leq, L10 or L90', () => {
    const peak = declared('LCPeak', 'dB', noiseValueQuantity('LCPeak').kind, { decimals: 1 }, [90, 110, 100]);
    const figures = figuresOf(peak);
    expect(figures.kind).toBe('peak');
    expect(figures.max).toEqual({ value: 110, time: T0 + 60_000 });
    expect(figures).toMatchObject({ mean: null, meanKind: null, total: null, l10: null, l90: null });
  });

  it('adds exposure levels up: two periods of LAE 80 dB make 83.0 dB in total', () => {
    const exposure = declared('LAE', 'dB', noiseValueQuantity('LAE').kind, { decimals: 1 }, [80, 80]);
    const figures = figuresOf(exposure);
    // 10·log10(2 · 10^8) = 83.0103 dB.
    expect(figures.total).toBeCloseTo(83.0103, 3);
    expect(figures.totalKind).toBe('energySum');
    expect(figures.mean).toBeNull();
  });

  it('gives a running total its increase and last value, never a mean: 100 → 130 → 160 kbit is +60, last 160', () => {
    const received = declared('netRx', 'kbit', 'counter', { decimals: 0 }, [100, 130, Number.NaN, 160]);
    const figures = figuresOf(received);
    // 160 − 100 = 60; the missing reading between adds nothing.
    expect(figures).toMatchObject({ kind: 'counter', mean: null, meanKind: null, totalKind: 'increase' });
    expect(figures.total).toBe(60);
    expect(figures.latest).toEqual({ value: 160, time: T0 + 3 * 60_000 });
    expect(COMBINED_FIGURE_NAMES.counter).toBe('Increase');
  });

  it('counts a running total that restarts from zero: 100 → 160 → 20 → 50 grew by 60 + 20 + 30 = 110', () => {
    const today = [100, 160, 20, 50];
    expect(counterIncrease(Float32Array.from(today))).toBe(110);
    expect(figuresOf(declared('dTot', 'MB', 'counter', { decimals: 1 }, today)).total).toBe(110);
    // One reading grew by nothing in the range; none has no increase at all.
    expect(figuresOf(declared('netTx', 'kbit', 'counter', { decimals: 0 }, [5])).total).toBe(0);
    expect(figuresOf(declared('netTx', 'kbit', 'counter', { decimals: 0 }, [Number.NaN])).total).toBeNull();
  });

  it('averages a declared direction as bearings: 350° and 10° make 0°, 80° and 100° make 90°', () => {
    const wind = (values: number[]) => declared('windDirection', '°', 'direction', { decimals: 0 }, values);
    expect(figuresOf(wind([350, 10]))).toMatchObject({ mean: 0, meanKind: 'circular' });
    expect(figuresOf(wind([80, 100])).mean).toBeCloseTo(90, 6);
    // 270° and 0° (west and north): the vectors sum to (−1, 1), north-west, 315°; arithmetic says 135°.
    expect(figuresOf(wind([270, 0])).mean).toBeCloseTo(315, 6);
    expect(figuresOf(wind([0, 180])).mean).toBeNull();
    expect(circularMean([359, 1])).toBe(0);
    // Kept apart from a direction nothing declares too: degrees are a direction by their unit.
    expect(quantityOf({ unit: '°' }).kind).toBe('direction');
  });

  it('names each noise value’s kind: peaks and maxima, exposures, statistical levels, levels', () => {
    const kinds = ['LAeq', 'LCPeak', 'LAFMax', 'LeqT1Max', 'LAE', 'LAF90', 'LEX8'].map(
      (name) => noiseValueQuantity(name).kind,
    );
    expect(kinds).toEqual(['level', 'peak', 'peak', 'peak', 'exposure', 'plain', 'level']);
    // Every noise value lies within what an instrument measures, and reads to a tenth of a dB.
    expect(noiseValueQuantity('LCPeak')).toMatchObject({
      precision: { decimals: 1 },
      plausible: { min: 0, max: 200 },
    });
  });

  it('reads a channel nothing declares by its unit: dB a level to 0.1 dB, others as they came', () => {
    expect(quantityOf({ unit: 'dB' })).toEqual({ kind: 'level', precision: { decimals: 1 } });
    expect(quantityOf({ unit: 'm/s' })).toEqual({ kind: 'plain', precision: null });
    expect(quantityOf({ unit: 'dB', kind: 'signal', precision: { decimals: 0 } })).toEqual({
      kind: 'signal',
      precision: { decimals: 0 },
    });
  });
});

describe('one precision per quantity', () => {
  it('writes a value at its precision, evenly: "59.0" beside "58.1", "5,560 MB", "3.0 µg/m³"', () => {
    expect(quantityValueText(59, { decimals: 1 }, 'dB')).toBe('59.0 dB');
    expect(quantityValueText(58.1, { decimals: 1 }, 'dB')).toBe('58.1 dB');
    expect(quantityValueText(Math.fround(5560.4), { decimals: 0 }, 'MB')).toBe('5,560 MB');
    expect(quantityValueText(3.038, { decimals: 1 }, 'µg/m³')).toBe('3.0 µg/m³');
    // Thousands separated, through the one number formatter: a running total of 1,847,702 kbit.
    expect(quantityValueText(1_847_702, { decimals: 0 }, 'kbit')).toBe('1,847,702 kbit');
    expect(numberText(1_847_702.25, { decimals: 1 })).toBe('1,847,702.3');
    expect(numberText(-1234.5, { maxDecimals: 4 })).toBe('-1,234.5');
    expect(quantityValueText(-9, { decimals: 1 }, 'dB')).toBe('-9.0 dB');
    // A negative that rounds to zero is zero.
    expect(quantityValueText(-0.04, { decimals: 1 }, 'dB')).toBe('0.0 dB');
    expect(quantityValueText(null, { decimals: 1 }, 'dB')).toBe('—');
    expect(quantityValueText(Number.NaN, { decimals: 1 }, 'dB')).toBe('—');
    // No declared precision: as it came, a Float32's tail cut at four decimals.
    expect(quantityValueText(Math.fround(1.0082), null, 'bar')).toBe('1.0082 bar');
  });

  it('writes VDV to three significant digits, as the assessment states it', () => {
    const vdv: Precision = { significant: 3 };
    expect(quantityValueText(0.002134, vdv)).toBe('0.00213');
    expect(quantityValueText(0.1633, vdv)).toBe('0.163');
    expect(quantityValueText(1.5, vdv)).toBe('1.50');
    expect(quantityValueText(123.4, vdv)).toBe('123');
    expect([decimalsFor(vdv, 0.002134), decimalsFor(vdv, 12), decimalsFor(vdv, null)]).toEqual([5, 1, 2]);
  });

  it('exports at least the precision, and every digit the reading carries', () => {
    expect(exportValueText(Math.fround(61), { decimals: 1 })).toBe('61.0');
    expect(exportValueText(Math.fround(62.3), { decimals: 1 })).toBe('62.3');
    // More digits sent than declared: kept, an export loses nothing.
    expect(exportValueText(Math.fround(62.35), { decimals: 1 })).toBe('62.35');
    expect(exportValueText(Math.fround(5560.4), { decimals: 0 })).toBe('5560.4');
    expect(exportValueText(Math.fround(3.2), null)).toBe('3.2');
    expect(exportValueText(Number.NaN, { decimals: 1 })).toBe('');
  });
});
