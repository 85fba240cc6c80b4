import { describe, expect, it } from 'vitest';
import type { AssessmentResult, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  DEFAULT_EXCLUSION_RULES,
  DEFAULT_LIMITS,
} from '../../../src/shared/assessment';
import {
  assessmentRange,
  lastWholeDays,
  noiseLimitLines,
  parseLimit,
  parseSiteTime,
  shadedExclusions,
  valueText,
} from '../../../src/renderer/src/features/assessment/logic';

const site = (over: Partial<Site> = {}): Site => ({
  id: 's1',
  accountId: 'a',
  name: 'Mill Lane',
  timeZone: 'Europe/London',
  serials: ['NM1', 'NM2'],
  rules: DEFAULT_EXCLUSION_RULES,
  exclusions: [
    { id: 'e1', start: 10, end: 20, reason: 'Road works', serial: null, createdAt: 0 },
    { id: 'e2', start: 30, end: 40, reason: 'Dog', serial: 'NM2', createdAt: 0 },
  ],
  limits: { ...DEFAULT_LIMITS, 'LAeq,night': 45 },
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

describe('assessment screens', () => {
  it('states each figure to the precision of its quantity', () => {
    expect(valueText(54.25, 'dB')).toBe('54.3 dB');
    expect(valueText(0.4123, 'mm/s')).toBe('0.412 mm/s');
    // A PPV to a thousandth at any size, as its figure states it (the screen once wrote 12.35).
    expect(valueText(12.345, 'mm/s')).toBe('12.345 mm/s');
    // A VDV to three significant digits, as its figure and the report state it (the screen once wrote 0.2135).
    expect(valueText(0.01234, 'm/s¹·⁷⁵')).toBe('0.0123 m/s¹·⁷⁵');
    expect(valueText(0.21345, 'm/s¹·⁷⁵')).toBe('0.213 m/s¹·⁷⁵');
    expect(valueText(1.2345, 'm/s¹·⁷⁵')).toBe('1.23 m/s¹·⁷⁵');
    expect(valueText(1, 'events')).toBe('1 event');
    expect(valueText(3, 'days')).toBe('3 days');
    expect(valueText(null, 'dB')).toBe('—');
  });

  it('opens on the last seven whole days of the site, 167 hours long over the autumn clock change', () => {
    // Now: Wed 28 Oct 2026 15:00 UTC. The seven London days before it include Sun 25 Oct (25 h).
    const range = lastWholeDays(Date.UTC(2026, 9, 28, 15), 'Europe/London');
    expect(range.end).toBe(Date.UTC(2026, 9, 28, 0));
    expect(range.start).toBe(Date.UTC(2026, 9, 20, 23));
    expect((range.end - range.start) / 3_600_000).toBe(7 * 24 + 1);
  });

  it('assesses a preset as whole days on the site clock, for every kind of site, and a typed range as typed', () => {
    // Sat 28 Nov 2026 19:04 in London: "Last 7 days" is Sat 21 00:00 to Sat 28 00:00, not 19:04–19:04.
    const now = Date.UTC(2026, 10, 28, 19, 4);
    expect(assessmentRange({ kind: 'preset', preset: '7d' }, now, 'Europe/London')).toEqual({
      start: Date.UTC(2026, 10, 21),
      end: Date.UTC(2026, 10, 28),
    });
    // "Last 24 hours": yesterday, whole. In New York (UTC−5) its midnight is 05:00 UTC.
    expect(assessmentRange({ kind: 'preset', preset: '24h' }, now, 'America/New_York')).toEqual({
      start: Date.UTC(2026, 10, 27, 5),
      end: Date.UTC(2026, 10, 28, 5),
    });
    const typed = { start: Date.UTC(2026, 10, 2, 6, 30), end: Date.UTC(2026, 10, 3, 6, 30) };
    expect(assessmentRange({ kind: 'custom', ...typed }, now, 'Europe/London')).toEqual(typed);
  });

  it('reads a typed time on the site clock, and refuses what is not one', () => {
    expect(parseSiteTime('2026-07-01 09:00', 'Europe/London')).toBe(Date.UTC(2026, 6, 1, 8));
    expect(parseSiteTime('2026-07-01 09:00', 'utc')).toBe(Date.UTC(2026, 6, 1, 9));
    expect(parseSiteTime('1 July 9am', 'Europe/London')).toBeNull();
    expect(parseLimit(' 45,5 ')).toBe(45.5);
    expect(parseLimit('')).toBeNull();
    expect(parseLimit('loud')).toBeUndefined();
  });

  it("shades an instrument's site exclusions and draws its noise limits on every chart", () => {
    const result = {
      siteId: 's1',
      exclusions: [{ start: 50, end: 60, serial: 'NM1', cause: 'wind', reason: 'Wind' }],
    };
    expect(shadedExclusions('NM1', [site()], result as unknown as AssessmentResult)).toEqual([
      { start: 10, end: 20 },
      { start: 50, end: 60 },
    ]);
    expect(shadedExclusions('NM2', [site()], null)).toEqual([
      { start: 10, end: 20 },
      { start: 30, end: 40 },
    ]);
    expect(shadedExclusions('OTHER', [site()], null)).toEqual([]);
    expect(noiseLimitLines('NM1', [site()])).toEqual([
      { label: 'Mill Lane: LAeq,night', value: 45, unit: 'dB' },
    ]);
  });
});
