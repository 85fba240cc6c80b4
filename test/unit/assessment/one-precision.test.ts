/**
 * One precision per quantity: a figure, its limit and the report's tables state a value of each
 * unit with the same digits (a VDV once read 0.2135 on screen and 0.213 in the PDF; a PPV of
 * 12.345 mm/s read 12.35 in the report's tables beside a figure of 12.345).
 */
import { describe, expect, it } from 'vitest';
import { figureOf } from '../../../src/main/backend/assessment/figure-builder';
import { valueText } from '../../../src/main/backend/assessment/report/report-format';
import { unitDecimals } from '../../../src/shared/assessment-units';

const CASES = [
  { unit: 'dB', value: 54.2549, stated: '54.3' },
  { unit: 'µg/m³', value: 41.049, stated: '41.0' },
  { unit: 'mm/s', value: 12.3449, stated: '12.345' },
  { unit: 'mm/s', value: 0.41249, stated: '0.412' },
  { unit: 'm/s¹·⁷⁵', value: 0.213449, stated: '0.213' },
  { unit: 'm/s¹·⁷⁵', value: 1.23449, stated: '1.23' },
  { unit: 'events', value: 3, stated: '3' },
  { unit: 'days', value: 2, stated: '2' },
];

const specOf = (unit: string, value: number) => ({
  serial: 'QT218728',
  label: 'test',
  limitKey: null,
  unit,
  all: value,
  valid: value,
  coverage: 1,
  method: 'test',
  period: { start: 0, end: 3_600_000, label: 'hour' },
  source: { serial: 'QT218728', dataset: 'noiseMeasurements' as const, channel: 'LAeq' },
});

describe('one precision per quantity', () => {
  it.each(CASES)(
    'a value in $unit reads $stated in the figure and in the report',
    ({ unit, value, stated }) => {
      const figure = figureOf(specOf(unit, value), {
        limits: {},
        settings: { minimumCoverage: 0.75 },
      });
      expect(figure.valid?.toFixed(figure.decimals)).toBe(stated);
      expect(figure.decimals).toBe(unitDecimals(unit, value));
      expect(valueText(value, unit)).toBe(stated);
    },
  );
});
