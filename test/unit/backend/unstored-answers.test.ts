/**
 * What a read shows of an answer it did not store (records of it could not be read): its data put
 * into the cached data where the cache holds nothing, in time order, nothing outside its place.
 */
import { describe, expect, it } from 'vitest';
import { withUnstored } from '../../../src/main/backend/data/unstored-answers';
import type { RecordTable, SeriesChannel } from '../../../src/shared/data';

const channel = (name: string, times: number[]): SeriesChannel => ({
  name,
  unit: 'dB',
  times: Float64Array.from(times),
  values: Float32Array.from(times, (t) => t / 10),
});

const table = (times: number[]): RecordTable => ({
  timeKey: 'time',
  columns: [
    { key: 'time', label: 'Time', unit: null, type: 'time' },
    { key: 'level', label: 'Level', unit: 'dB', type: 'number' },
  ],
  rows: times.map((time) => ({ time, level: time / 10 })),
});

describe('withUnstored', () => {
  it('puts an unstored answer between cached parts, in time order, clipped to where it is shown', () => {
    // Cached: [0, 100) and [200, 300); fetched again but not stored: [100, 200), answering a little
    // on each side as services do.
    const cached = { series: [channel('LAeq', [0, 50, 200, 250])], records: table([0, 50, 200, 250]) };
    const fetched = {
      series: [channel('LAeq', [90, 100, 150, 200]), channel('LCPeak', [100, 150])],
      records: {
        ...table([100, 150, 200]),
        columns: [...table([]).columns, { key: 'note', label: 'Note', unit: null, type: 'text' as const }],
      },
    };
    const shown = withUnstored(cached, [{ shownIn: [{ start: 100, end: 200 }], data: fetched }]);
    const laeq = shown.series.find((c) => c.name === 'LAeq')!;
    expect([...laeq.times]).toEqual([0, 50, 100, 150, 200, 250]);
    expect([...laeq.values]).toEqual([0, 5, 10, 15, 20, 25]);
    expect([...shown.series.find((c) => c.name === 'LCPeak')!.times]).toEqual([100, 150]);
    expect(shown.records?.rows.map((r) => r.time)).toEqual([0, 50, 100, 150, 200, 250]);
    // A column only the unstored answer has is there for every row, empty where it has no value.
    expect(shown.records?.columns.map((c) => c.key)).toEqual(['time', 'level', 'note']);
    expect(shown.records?.rows[0]).toEqual({ time: 0, level: 0, note: null });
  });

  it('leaves the cached data as it is when nothing is unstored, or an answer is shown nowhere', () => {
    const cached = { series: [channel('LAeq', [0, 50])], records: table([0, 50]) };
    expect(withUnstored(cached, [])).toBe(cached);
    const nowhere = withUnstored(cached, [
      { shownIn: [], data: { series: [channel('LAeq', [70])], records: null } },
    ]);
    expect(nowhere).toBe(cached);
  });
});
