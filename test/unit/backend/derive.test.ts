/** The offline derivations as pure functions, against IEC 61672-1's table and values worked by hand. */
import { describe, expect, it } from 'vitest';
import {
  bandCorrection,
  combinationOf,
  exposureOf,
  isStatistical,
} from '../../../src/main/backend/data/derive/acoustics';
import { energeticMean, energeticSum, exactMidBand, weightingDb } from '../../../src/shared/acoustics';
import {
  combine,
  fromRecords,
  fromSeries,
  overall,
  reweight,
  toOctaves,
  toRecords,
  toSeries,
  type Readings,
} from '../../../src/main/backend/data/derive/readings';
import { parseCachedParams, targetOf } from '../../../src/main/backend/data/derive/plan';
import { canonicalParameters } from '../../../src/main/backend/cache/cache-key';
import type { RecordTable } from '../../../src/shared/data';

/** IEC 61672-1:2013 Table 3: A and C weightings (dB) at the nominal frequencies, to 0.1 dB. */
const IEC_TABLE: ReadonlyArray<readonly [number, number, number]> = [
  [10, -70.4, -14.3],
  [12.5, -63.4, -11.2],
  [16, -56.7, -8.5],
  [20, -50.5, -6.2],
  [25, -44.7, -4.4],
  [31.5, -39.4, -3.0],
  [40, -34.6, -2.0],
  [50, -30.2, -1.3],
  [63, -26.2, -0.8],
  [80, -22.5, -0.5],
  [100, -19.1, -0.3],
  [125, -16.1, -0.2],
  [160, -13.4, -0.1],
  [200, -10.9, 0.0],
  [250, -8.6, 0.0],
  [315, -6.6, 0.0],
  [400, -4.8, 0.0],
  [500, -3.2, 0.0],
  [630, -1.9, 0.0],
  [800, -0.8, 0.0],
  [1000, 0.0, 0.0],
  [1250, 0.6, 0.0],
  [1600, 1.0, -0.1],
  [2000, 1.2, -0.2],
  [2500, 1.3, -0.3],
  [3150, 1.2, -0.5],
  [4000, 1.0, -0.8],
  [5000, 0.5, -1.3],
  [6300, -0.1, -2.0],
  [8000, -1.1, -3.0],
  [10000, -2.5, -4.4],
  [12500, -4.3, -6.2],
  [16000, -6.6, -8.5],
  [20000, -9.3, -11.2],
];

const round1 = (x: number) => Math.round(x * 10) / 10 + 0; // + 0 turns −0 into 0

describe('A and C weighting per band (IEC 61672-1)', () => {
  it('is exactly 0 dB at 1 kHz', () => {
    expect(weightingDb('A', 1000)).toBeCloseTo(0, 12);
    expect(weightingDb('C', 1000)).toBeCloseTo(0, 12);
    expect(bandCorrection('1KHz', 'Z', 'A')).toBeCloseTo(0, 12);
  });

  it.each(IEC_TABLE)('at %s Hz: A %s dB, C %s dB, as the standard tabulates them', (f, a, c) => {
    const exact = exactMidBand(f);
    expect(round1(weightingDb('A', exact))).toBe(a);
    expect(round1(weightingDb('C', exact))).toBe(c);
  });

  it('reads band names as the service spells them and turns any weighting into any other', () => {
    expect(bandCorrection('31.5Hz', 'Z', 'A')).toBeCloseTo(-39.44, 2);
    expect(bandCorrection('1.25KHz', 'Z', 'A')).toBeCloseTo(0.59, 2);
    expect(bandCorrection('16KHz', 'Z', 'C')).toBeCloseTo(-8.53, 2);
    // A to C at 63 Hz: undo A (−26.20), apply C (−0.82).
    expect(bandCorrection('63Hz', 'A', 'C')).toBeCloseTo(26.2 - 0.82, 1);
    expect(bandCorrection('LAeq', 'Z', 'A')).toBeNull();
  });
});

describe('energetic arithmetic, worked by hand', () => {
  it('averages and sums levels by their energies', () => {
    // 10·log10((10^6 + 10^7) / 2) = 67.40 dB
    expect(energeticMean([60, 70])).toBeCloseTo(67.404, 3);
    // 70 dB for 1 s and 60 dB for 3 s: 10·log10((10^7 + 3·10^6) / 4) = 65.119 dB
    expect(energeticMean([70, 60], [1, 3])).toBeCloseTo(65.119, 3);
    // Two equal levels add 3.01 dB.
    expect(energeticSum([60, 60])).toBeCloseTo(63.01, 2);
  });

  it('knows how each value combines, and that statistical levels do not', () => {
    expect(combinationOf('LAeq')).toBe('mean');
    expect(combinationOf('LCE')).toBe('sum');
    expect(combinationOf('LEX8')).toBe('sum');
    expect(combinationOf('LAFMax')).toBe('max');
    expect(combinationOf('LCPeak')).toBe('max');
    expect(combinationOf('LASMin')).toBe('min');
    expect(combinationOf('LAF90')).toBe('none');
    expect(isStatistical('LAF90')).toBe(true);
    // LEX8 = LAeq + 10·log10(T) − 10·log10(28,800 s): an hour at 80 dB is 80 + 35.56 − 44.59 = 70.97 dB.
    const lex8 = exposureOf('LEX8')!;
    expect(lex8.leq).toBe('LAeq');
    expect(80 + 10 * Math.log10(3600) + lex8.offsetDb).toBeCloseTo(70.97, 2);
    expect(exposureOf('LCE')).toEqual({ leq: 'LCeq', offsetDb: 0 });
    expect(exposureOf('LAFMax')).toBeNull();
    expect(isStatistical('LAFMax')).toBe(false);
  });
});

const Q = 900_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 10);

/** Measurement records as the parser builds them. */
function records(
  rows: Array<
    { at: number; duration?: number; overload?: boolean } & Record<string, number | boolean | undefined>
  >,
): RecordTable {
  const names = ['LAeq', 'LAE', 'LAFMax', 'LAFMin', 'LAF90'];
  return {
    timeKey: 'startTime',
    columns: [
      { key: 'startTime', label: 'Start', unit: null, type: 'time' },
      { key: 'endTime', label: 'End', unit: null, type: 'time' },
      { key: 'duration', label: 'Duration', unit: 's', type: 'number' },
      { key: 'overload', label: 'Overload', unit: null, type: 'boolean' },
      ...names.map((key) => ({ key, label: key, unit: 'dB', type: 'number' as const })),
    ],
    rows: rows.map(({ at, duration = 900, overload = false, ...values }) => ({
      startTime: at,
      endTime: at + Q,
      duration,
      overload,
      ...Object.fromEntries(names.map((n) => [n, typeof values[n] === 'number' ? values[n] : null])),
    })),
  };
}

const COMBINE = new Map([
  ['LAeq', 'mean'],
  ['LAE', 'sum'],
  ['LAFMax', 'max'],
  ['LAFMin', 'min'],
  ['LAF90', 'none'],
] as const);

describe('a longer period from a shorter one', () => {
  const quarter = (i: number, LAeq: number, extra: Record<string, number | boolean> = {}) => ({
    at: T0 + i * Q,
    LAeq,
    LAE: LAeq + 10 * Math.log10(900),
    LAFMax: LAeq + 10 + i,
    LAFMin: LAeq - 8 - i,
    LAF90: LAeq - 5,
    ...extra,
  });

  it('combines 15-minute records into an hour: Leq by energy, exposure summed, maxima and minima as such', () => {
    const table = records([
      quarter(0, 60),
      quarter(1, 70, { overload: true }),
      quarter(2, 60),
      quarter(3, 70),
    ]);
    const { readings, spoiled } = combine(fromRecords(table), HOUR, COMBINE);
    expect(spoiled.size).toBe(0);
    expect([...readings.starts]).toEqual([T0]);
    expect(readings.durations[0]).toBe(3600);
    expect(readings.overload[0]).toBe(true);
    expect(readings.channels.get('LAeq')![0]).toBeCloseTo(67.404, 3);
    // Exposure over the hour: the hour's Leq + 10·log10(3600 s).
    expect(readings.channels.get('LAE')![0]).toBeCloseTo(67.404 + 10 * Math.log10(3600), 3);
    expect(readings.channels.get('LAFMax')![0]).toBe(83);
    expect(readings.channels.get('LAFMin')![0]).toBe(50);
    // A statistical level is never combined.
    expect(readings.channels.has('LAF90')).toBe(false);
  });

  it('weights a partly recorded period by what was recorded, and refuses periods a record runs across', () => {
    const table = records([quarter(0, 60, { duration: 300 }), quarter(1, 70)]);
    const { readings } = combine(fromRecords(table), HOUR, COMBINE);
    expect(readings.durations[0]).toBe(1200);
    // 60 dB for 300 s, 70 dB for 900 s: 10·log10((300·10^6 + 900·10^7) / 1200) = 68.893 dB
    expect(readings.channels.get('LAeq')![0]).toBeCloseTo(68.893, 3);
    const straddling = records([{ at: T0 + 3 * Q + Q / 2, LAeq: 60 }]);
    expect([...combine(fromRecords(straddling), HOUR, COMBINE).spoiled]).toEqual([T0]);
  });

  it('combines time history samples, keeping only whole periods and skipping gap markers', () => {
    const n = 120;
    const times = new Float64Array(n + 1);
    const values = new Float32Array(n + 1);
    for (let i = 0; i < n; i++) {
      times[i] = T0 + i * 1000;
      values[i] = i < 60 ? 60 : 70;
    }
    // A gap marker where the readings stop, then nothing for the third minute.
    times[n] = T0 + n * 1000;
    values[n] = Number.NaN;
    const samples = fromSeries([{ name: 'LAeq', unit: 'dB', times, values }], 1000);
    expect(samples.starts.length).toBe(n);
    const minutes = combine(samples, 60_000, COMBINE, 60).readings;
    expect([...minutes.starts]).toEqual([T0, T0 + 60_000]);
    expect([...minutes.channels.get('LAeq')!]).toEqual([60, 70].map((l) => expect.closeTo(l, 5) as number));
    // Channels sampled at different times are joined by time.
    const other = {
      name: 'LAFMax',
      unit: 'dB',
      times: Float64Array.of(T0 + 500),
      values: Float32Array.of(80),
    };
    const joined = fromSeries([{ name: 'LAeq', unit: 'dB', times, values }, other], 1000);
    expect(joined.starts.length).toBe(n + 1);
    expect(joined.starts[1]).toBe(T0 + 500);
    expect(joined.channels.get('LAFMax')![1]).toBe(80);
    expect(Number.isNaN(joined.channels.get('LAeq')![1]!)).toBe(true);
    // Two minutes into one of 3 minutes: not whole, so left out.
    expect(combine(samples, 180_000, COMBINE, 180).readings.starts.length).toBe(0);
  });
});

describe('weightings and overall levels of bands', () => {
  const bands = (levels: Record<string, number>): Readings =>
    fromRecords({
      timeKey: 'startTime',
      columns: [
        { key: 'startTime', label: 'Start', unit: null, type: 'time' },
        { key: 'endTime', label: 'End', unit: null, type: 'time' },
        { key: 'duration', label: 'Duration', unit: 's', type: 'number' },
        ...Object.keys(levels).map((key) => ({ key, label: key, unit: 'dB', type: 'number' as const })),
      ],
      rows: [{ startTime: T0, endTime: T0 + Q, duration: 900, ...levels }],
    });

  it('A-weights Z bands per band', () => {
    const a = reweight(bands({ '125Hz': 70, '1KHz': 60, '4KHz': 50 }), 'Z', 'A');
    expect(a.channels.get('125Hz')![0]).toBeCloseTo(70 - 16.1, 2);
    expect(a.channels.get('1KHz')![0]).toBeCloseTo(60, 10);
    expect(a.channels.get('4KHz')![0]).toBeCloseTo(50 + 0.97, 2);
  });

  it('makes octaves of third octaves: the energetic sum of the three in each', () => {
    const thirds = bands({ '25Hz': 60, '31.5Hz': 60, '40Hz': 60, '800Hz': 50, '1KHz': 60, '1.25KHz': 50 });
    const octaves = toOctaves(thirds);
    // 10·log10(3) = 4.77 dB over three equal bands; 10·log10(10^5 + 10^6 + 10^5) = 60.79 dB.
    expect(octaves.channels.get('31.5Hz')![0]).toBeCloseTo(64.77, 2);
    expect(octaves.channels.get('1KHz')![0]).toBeCloseTo(60.79, 2);
    // Without all three thirds there is no octave.
    expect([...octaves.channels.keys()]).toEqual(['31.5Hz', '1KHz']);
  });

  it('sums bands energetically into an overall level, weighted as asked', () => {
    const z = bands({ '500Hz': 60, '1KHz': 60 });
    expect(overall(z, 'Z', 'Z', 'LZeq', false).channels.get('LZeq')![0]).toBeCloseTo(63.01, 2);
    // A: 10·log10(10^((60 − 3.23)/10) + 10^6) = 61.69 dB (A at 500 Hz is −3.23 dB)
    expect(overall(z, 'Z', 'A', 'LAeq', false).channels.get('LAeq')![0]).toBeCloseTo(61.69, 2);
    // An exposure over 900 s adds 10·log10(900) = 29.54 dB.
    expect(overall(z, 'Z', 'Z', 'LZE', true).channels.get('LZE')![0]).toBeCloseTo(63.01 + 29.54, 2);
  });
});

describe('back to the shapes of parsed answers', () => {
  it('writes records (to 0.0001 dB) and series with a gap marker where readings stop', () => {
    const table = records([
      { at: T0, LAeq: 60.00004 },
      { at: T0 + 2 * Q, LAeq: 61.05 },
    ]);
    const readings = fromRecords(table);
    const out = toRecords(readings, ['LAeq', 'LCeq']);
    expect(out.columns.map((c) => c.key)).toEqual(['startTime', 'endTime', 'duration', 'overload', 'LAeq']);
    expect(out.rows.map((r) => r.LAeq)).toEqual([60, 61.05]);
    const [series] = toSeries(readings, ['LAeq'], { start: T0, end: T0 + 4 * Q });
    expect([...series!.times]).toEqual([T0, T0 + Q, T0 + 2 * Q, T0 + 3 * Q]);
    expect(Number.isNaN(series!.values[1])).toBe(true);
    expect(Number.isNaN(series!.values[3])).toBe(true);
  });
});

describe('cached queries read back from their cache keys', () => {
  it('reads values, bands, weighting and period as the cache key wrote them', () => {
    const params = canonicalParameters('frequencyMeasurements', {
      bands: 'Third',
      weighting: 'A',
      period: 'PT1H',
    });
    expect(parseCachedParams('frequencyMeasurements', params)).toMatchObject({
      bands: 'Third',
      weighting: 'A',
      periodMs: HOUR,
    });
    const th = parseCachedParams(
      'noiseTimeHistory',
      canonicalParameters('noiseTimeHistory', { values: ['LAeq'] }),
    );
    expect(th).toMatchObject({ values: ['LAeq'], periodMs: 1000 });
    const asRecorded = parseCachedParams('noiseMeasurements', canonicalParameters('noiseMeasurements', {}));
    expect(asRecorded).toMatchObject({ values: ['LAFMax', 'LAeq', 'LCPeak'], periodMs: null });
    expect(
      targetOf({
        serial: 'QT1',
        dataset: 'noiseMeasurements',
        start: 0,
        end: 1,
        options: { period: 'PT1H' },
      }),
    ).toMatchObject({ channels: ['LAeq', 'LCPeak', 'LAFMax'], periodMs: HOUR, timeHistory: false });
  });
});
