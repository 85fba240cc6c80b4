import { describe, expect, it } from 'vitest';
import type { CalibrationRecord, SicRecord } from '../../../src/shared/operations';
import { historyRange } from '../../../src/renderer/src/features/history/logic';
import {
  newestFirst,
  sliceText,
  tableSlice,
  TABLE_ROW_LIMIT,
} from '../../../src/renderer/src/ui/table-slice';
import {
  calibrationChart,
  LEVEL_AXIS,
  levelAxisRange,
  referenceLevel,
  OFFSET_AXIS,
  offsetAxisRange,
  sicChart,
} from '../../../src/renderer/src/features/history/charts';
import type { ChartPoint } from '../../../src/renderer/src/ui/chart-base';

const DAY = 86_400_000;

function cal(time: number, level: number | null, status = 'Success'): CalibrationRecord {
  return {
    instrument: 'QT1',
    time,
    status,
    level,
    offset: level === null ? null : Math.round((level - 94) * 100) / 100,
  };
}

describe('history range and tables', () => {
  it('reads whole calendar months back from now', () => {
    const now = Date.UTC(2026, 2, 31, 12);
    const { start, end } = historyRange(3, now);
    expect(end).toBe(now);
    expect(new Date(start).getMonth()).toBe(11);
    expect(end - start).toBeGreaterThan(89 * DAY);
    expect(end - start).toBeLessThan(92 * DAY);
  });

  it('shows the newest 50 rows until "Show all"', () => {
    const rows = newestFirst(
      Array.from({ length: 120 }, (_, i) => ({ time: i })),
      (r) => r.time,
    );
    expect(rows[0]?.time).toBe(119);
    const cut = tableSlice(rows, false);
    expect(cut.rows).toHaveLength(TABLE_ROW_LIMIT);
    expect(cut.rows[0]?.time).toBe(119);
    expect(cut.hidden).toBe(70);
    expect(sliceText(cut, 'calibration')).toBe('Showing the latest 50 of 120 calibrations.');
    const all = tableSlice(rows, true);
    expect(all.rows).toHaveLength(120);
    expect(sliceText(all, 'entry', 'entries')).toBe('120 entries.');
    expect(sliceText(tableSlice([1], false), 'entry', 'entries')).toBe('1 entry.');
  });
});

describe('calibration chart', () => {
  const records = [cal(3 * DAY, 94.2), cal(1 * DAY, 94.1), cal(2 * DAY, 45.3, 'Failed'), cal(4 * DAY, null)];
  const model = calibrationChart(records, 0.5);
  const byLabel = (label: string) => model.datasets.find((d) => d.label?.startsWith(label));

  it('draws level and offset on their own axes in time order, with a real time axis', () => {
    const offset = byLabel('Offset');
    const level = byLabel('Level');
    expect(offset?.yAxisID).toBe(OFFSET_AXIS);
    expect(level?.yAxisID).toBe(LEVEL_AXIS);
    expect((level?.data as ChartPoint[]).map((p) => p.x)).toEqual([1 * DAY, 2 * DAY, 3 * DAY]);
    expect(model.options.scales?.['x']?.type).toBe('time');
    expect(model.options).toMatchObject({ parsing: false, normalized: true, animation: false });
  });

  it('draws the tolerance band as two lines across the range, filled between', () => {
    const upper = byLabel('Tolerance +');
    const lower = byLabel('Tolerance −');
    expect(upper?.data).toEqual([
      { x: 1 * DAY, y: 0.5 },
      { x: 4 * DAY, y: 0.5 },
    ]);
    expect(lower?.data).toEqual([
      { x: 1 * DAY, y: -0.5 },
      { x: 4 * DAY, y: -0.5 },
    ]);
    expect(upper?.fill).toBe('+1');
  });

  it('marks failed calibrations, drawing a far-off value at the edge of the scale', () => {
    const failed = byLabel('Failed');
    expect(failed?.data).toHaveLength(1);
    expect(failed?.pointStyle).toBe('crossRot');
    expect(model.failedCount).toBe(1);
    const offsetScale = model.options.scales?.[OFFSET_AXIS] as { min: number; max: number };
    expect((failed?.data as ChartPoint[])[0]?.y).toBe(offsetScale.min);
    // The −48.7 dB offset and the 45.3 dB level are both off the scale.
    expect(model.offScaleCount).toBe(2);
    expect(model.summary).toContain('4 calibrations');
    expect(model.summary).toContain('1 failed');
    expect(model.summary).toContain('2 values off the scale');
  });

  it('keeps the offset axis symmetric and at least twice the tolerance', () => {
    expect(offsetAxisRange([0.1, -0.05], 0.5)).toEqual({ min: -1, max: 1 });
    const wide = offsetAxisRange([1.5, -0.2, -40], 0.5);
    expect(wide.max).toBeCloseTo(1.7);
    expect(wide.min).toBeCloseTo(-1.7);
  });

  it('takes the reference level the calibrations were made at, ignoring a reading far away', () => {
    expect(referenceLevel([94.1, 94.3, 45], [94.1, 94.3])).toBe(94);
    expect(referenceLevel([113.8, 114.2], [])).toBe(114);
    expect(referenceLevel([], [])).toBeNull();
  });

  it('centres the level axis on the reference on the offset axis’s scale, so the band reads true on both', () => {
    expect(levelAxisRange(94, { min: -1, max: 1 })).toEqual({ min: 93, max: 95 });
    // A 93.3 dB calibration against 94 dB with ±0.5 dB tolerance failed: it must lie outside the band.
    const drift = calibrationChart([cal(1 * DAY, 94.1), cal(2 * DAY, 93.3, 'Failed')], 0.5);
    const levelScale = drift.options.scales?.[LEVEL_AXIS] as { min: number; max: number };
    const offsetScale = drift.options.scales?.[OFFSET_AXIS] as { min: number; max: number };
    expect(levelScale.min - 94).toBeCloseTo(offsetScale.min, 9);
    expect(levelScale.max - 94).toBeCloseTo(offsetScale.max, 9);
    // On the shared scale 93.3 dB lies where an offset of −0.7 dB would, below the −0.5 dB line, and on the scale.
    expect(levelScale.min).toBeLessThanOrEqual(93.3);
  });

  it('says so when there is nothing to draw', () => {
    const empty = calibrationChart([], 0.5);
    expect(empty.summary).toBe('No calibrations in this range.');
    expect(empty.pointCount).toBe(0);
  });
});

describe('SIC chart', () => {
  const sic = (time: number, _8KHz: number, status = 'Success'): SicRecord => ({
    instrument: 'QT1',
    time,
    status,
    _500Hz: 82,
    _1KHz: 84,
    _8KHz,
  });

  it('draws the three bands and marks a failed check on the band furthest from its usual level', () => {
    const model = sicChart([sic(2 * DAY, 77), sic(1 * DAY, 77.2), sic(3 * DAY, 71, 'Failed')]);
    expect(model.datasets.slice(0, 4).map((d) => d.label)).toEqual(['500 Hz', '1 kHz', '8 kHz', 'Failed']);
    expect((model.datasets[2]?.data as ChartPoint[]).map((p) => p.y)).toEqual([77.2, 77, 71]);
    expect(model.datasets[3]?.data).toEqual([{ x: 3 * DAY, y: 71 }]);
    expect(model.summary).toContain('3 system integrity checks');
    expect(model.summary).toContain('1 failed');
  });

  it('draws each tone’s allowed band: the median of its earlier passing checks ± the SIC tolerance', () => {
    // 8 kHz passes of 79.4, 79.8 then 79.6: at the third the reference is (79.4 + 79.8) / 2 = 79.6;
    // at the fourth, median(79.4, 79.6, 79.8) = 79.6. The first check has no earlier pass: no band.
    const records = [
      sic(1 * DAY, 79.4),
      sic(2 * DAY, 79.8),
      sic(3 * DAY, 79.6),
      sic(4 * DAY, 74.1, 'Failed'),
    ];
    const model = sicChart(records, 1.5);
    const band = (label: string) => model.datasets.find((d) => d.label === label)?.data as ChartPoint[];
    expect(band('8 kHz allowed ±1.5 dB')).toEqual([
      { x: 2 * DAY, y: 79.4 + 1.5 },
      { x: 3 * DAY, y: 79.6 + 1.5 },
      { x: 4 * DAY, y: 79.6 + 1.5 },
    ]);
    expect(band('8 kHz allowed (lower edge)').map((p) => Math.round(p.y * 100) / 100)).toEqual([
      77.9, 78.1, 78.1,
    ]);
    expect(model.datasets.find((d) => d.label === '8 kHz allowed ±1.5 dB')?.fill).toBe('+1');
    expect(model.summary).toContain('allowed band shaded: the median of its last 10 passing checks ± 1.5 dB');
  });
});
