import { describe, expect, it } from 'vitest';
import { Chart, LinearScale, TimeScale } from 'chart.js';
import {
  intervalText,
  isUsableZone,
  resolveZone,
  utcOffsetText,
  zoneName,
  zoneOptions,
  zoneSuffix,
} from '../../../src/renderer/src/ui/time';
import { zoneAtPosition } from '../../../src/renderer/src/features/instruments/site-zone';
import '../../../src/renderer/src/ui/chart-time-zone';
import { _adapters } from 'chart.js';

Chart.register(TimeScale, LinearScale);

// Europe/London leaves summer time at 01:00 UTC on Sunday 25 October 2026.
const BEFORE_CHANGE = Date.UTC(2026, 9, 24, 22, 0); // 23:00 BST
const AFTER_CHANGE = Date.UTC(2026, 9, 25, 22, 0); // 22:00 GMT

describe('site time zones', () => {
  it('looks a zone up from the position an instrument reports', () => {
    expect(zoneAtPosition({ lat: 51.5072, long: -0.1276 })).toBe('Europe/London');
    expect(zoneAtPosition({ lat: 40.7128, long: -74.006 })).toBe('America/New_York');
    expect(zoneAtPosition({ lat: -33.8688, long: 151.2093 })).toBe('Australia/Sydney');
    expect(zoneAtPosition(null)).toBeNull();
    expect(zoneAtPosition({ lat: 95, long: 0 })).toBeNull();
  });

  it("resolves the user's choice; site time without a known zone shows UTC", () => {
    expect(resolveZone('site', 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(resolveZone('site', null)).toBe('utc');
    expect(resolveZone('utc', 'Europe/Berlin')).toBe('utc');
    expect(resolveZone('local', 'Europe/Berlin')).toBe('local');
  });

  it('accepts only zones the browser knows (a saved choice may be stale)', () => {
    expect(isUsableZone('Europe/London')).toBe(true);
    expect(isUsableZone('Mars/Olympus_Mons')).toBe(false);
    expect(isUsableZone('local')).toBe(false);
    expect(isUsableZone(42)).toBe(false);
  });

  it('states the UTC offset in force at each time, across a daylight-saving change', () => {
    expect(utcOffsetText(BEFORE_CHANGE, 'Europe/London')).toBe('UTC+01:00');
    expect(utcOffsetText(AFTER_CHANGE, 'Europe/London')).toBe('UTC+00:00');
    expect(utcOffsetText(AFTER_CHANGE, 'America/New_York')).toBe('UTC-04:00');
    expect(utcOffsetText(AFTER_CHANGE, 'utc')).toBe('UTC');
    expect(zoneSuffix('local', AFTER_CHANGE)).toBe('');
    expect(zoneName('Europe/London', AFTER_CHANGE)).toBe('Europe/London, UTC+00:00');
    expect(zoneName('America/Argentina/Buenos_Aires', AFTER_CHANGE)).toBe(
      'America/Argentina/Buenos Aires, UTC-03:00',
    );
  });

  it("reads an interval in the site's wall clock, each end with its own offset across the change", () => {
    const later = Date.UTC(2026, 10, 30);
    expect(intervalText({ start: BEFORE_CHANGE, end: AFTER_CHANGE }, 'Europe/London', later)).toBe(
      '24 Oct 2026 23:00 UTC+01:00 – 25 Oct 2026 22:00 UTC+00:00',
    );
    expect(intervalText({ start: AFTER_CHANGE, end: AFTER_CHANGE + 3_600_000 }, 'Europe/London', later)).toBe(
      '25 Oct 2026 22:00 – 23:00 UTC+00:00',
    );
    // Seen that same evening, only the times: the day is today.
    expect(
      intervalText({ start: AFTER_CHANGE, end: AFTER_CHANGE + 3_600_000 }, 'Europe/London', AFTER_CHANGE),
    ).toBe('22:00 – 23:00 UTC+00:00');
    // Across a new year both dates say their year: twelve months never read as a day.
    expect(
      intervalText(
        { start: Date.UTC(2025, 10, 23, 19, 20), end: Date.UTC(2026, 10, 22, 19, 20) },
        'utc',
        later,
      ),
    ).toBe('23 Nov 2025 19:20 – 22 Nov 2026 19:20 UTC');
    // A UK site's 19:00 UTC reading is 14:00 in New York, and says so.
    const reading = Date.UTC(2026, 10, 23, 19, 0);
    expect(intervalText({ start: reading, end: reading + 60_000 }, 'America/New_York', later)).toBe(
      '23 Nov 2026 14:00 – 14:01 UTC-05:00',
    );
  });
});

describe('time axis in a zone', () => {
  type Adapter = {
    startOf(time: number, unit: string): number;
    add(time: number, amount: number, unit: string): number;
    diff(max: number, min: number, unit: string): number;
    format(time: number, pattern: string): string;
  };
  const adapterIn = (zone: Parameters<typeof zoneOptions>[0]): Adapter =>
    new _adapters._date(zoneOptions(zone)) as unknown as Adapter;

  it("puts day ticks on the site's midnight, not the laptop's", () => {
    const tokyo = adapterIn('Asia/Tokyo');
    const midnight = tokyo.startOf(Date.UTC(2026, 10, 23, 19, 0), 'day');
    expect(midnight).toBe(Date.UTC(2026, 10, 23, 15, 0)); // 00:00 on the 24th in Tokyo
    expect(tokyo.format(midnight, 'yyyy-MM-dd HH:mm')).toBe('2026-11-24 00:00');
    const utc = adapterIn('utc');
    expect(utc.startOf(Date.UTC(2026, 10, 23, 19, 0), 'day')).toBe(Date.UTC(2026, 10, 23));
  });

  it('steps a day across a daylight-saving change as 25 hours of wall clock', () => {
    const london = adapterIn('Europe/London');
    const saturday = london.startOf(BEFORE_CHANGE, 'day'); // 24 Oct 00:00 BST
    const sunday = london.add(saturday, 1, 'day');
    const monday = london.add(sunday, 1, 'day');
    expect(london.format(sunday, 'yyyy-MM-dd HH:mm')).toBe('2026-10-25 00:00');
    expect(london.format(monday, 'yyyy-MM-dd HH:mm')).toBe('2026-10-26 00:00');
    expect(monday - sunday).toBe(25 * 3_600_000);
    expect(london.diff(monday, saturday, 'day')).toBe(2);
  });
});
