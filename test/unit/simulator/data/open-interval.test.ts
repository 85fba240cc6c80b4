/**
 * The open interval of the demo service's noise time history: the newest 1 s levels up to now,
 * before their 15-minute interval closes, the same readings once it has closed, and what the
 * microphone hears while a Calibration or SIC runs on it.
 */
import { describe, expect, it } from 'vitest';
import { action, isHealthyOnlineNoise, key, setUp } from '../health-helpers';
import { call } from '../helpers';
import { samples, type THRecord } from './data-helpers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

async function laeqSeconds(
  app: Awaited<ReturnType<typeof setUp>>['app'],
  serial: string,
  startMs: number,
  endMs: number,
): Promise<[number, number][]> {
  const query = new URLSearchParams({
    instruments: serial,
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    values: 'LAeq',
    period: 'PT1S',
  });
  const response = await call(app, 'GET', `/data/noise/timehistory?${query.toString()}`, { key });
  if (response.status !== 200) throw new Error(await response.text());
  const records = (await response.json()) as THRecord[];
  return records.flatMap(samples);
}

describe('the open interval of the noise time history', () => {
  it('gives the 1 s levels up to the last whole second before now, and the same ones once closed', async () => {
    const { app, clock, pick } = await setUp();
    const serial = pick('a healthy online noise instrument', isHealthyOnlineNoise).wire.serialNumber;
    // 12:00 is a grid boundary: 2 min 30.4 s into the open interval.
    clock.advance(2 * MINUTE + 30_400);
    const now = clock.now();
    const open = await laeqSeconds(app, serial, now - 3 * MINUTE, now + MINUTE);
    const inOpen = open.filter(([t]) => t >= Date.UTC(2025, 5, 1, 12));
    expect(inOpen).toHaveLength(150);
    // The last sample is the last whole second: 12:02:29 (it ends at 12:02:30, before now).
    expect(open.at(-1)?.[0]).toBe(Date.UTC(2025, 5, 1, 12, 2, 29));
    // The closed interval before it joins on without a gap.
    expect(open[0]?.[0]).toBe(now - 3 * MINUTE - 400);
    expect(open).toHaveLength(180);

    clock.advance(15 * MINUTE);
    const closed = await laeqSeconds(app, serial, now - 3 * MINUTE, now);
    expect(closed.slice(0, open.length)).toEqual(open);
  });

  it('rises to the calibrator level while a Calibration runs, and back to the street after', async () => {
    const { app, clock, pick } = await setUp();
    const member = pick('a healthy online noise instrument', isHealthyOnlineNoise);
    const serial = member.wire.serialNumber;
    clock.advance(5 * MINUTE);
    const startedMs = clock.now();
    const started = await action(app, serial, 'Calibration');
    if (started.status !== 200) throw new Error(await started.text());
    clock.advance(10 * SECOND);
    const during = await laeqSeconds(app, serial, startedMs - MINUTE, clock.now());
    const calibrating = during.filter(([t]) => t >= startedMs);
    expect(calibrating).toHaveLength(10);
    for (const [, level] of calibrating) expect(Math.abs(level - member.profile.referenceDb)).toBeLessThan(1);
    // Before it, the street (the demo's streets are never as loud as a calibrator for a minute).
    const before = during.filter(([t]) => t < startedMs).map(([, level]) => level);
    expect(before.every((level) => Math.abs(level - member.profile.referenceDb) > 1)).toBe(true);

    // Once it has finished, the seconds after its end are the street's again.
    clock.advance(member.profile.calibrationSeconds * SECOND + MINUTE);
    const after = await laeqSeconds(app, serial, startedMs, clock.now());
    const endMs = startedMs + member.profile.calibrationSeconds * SECOND;
    const heard = after.filter(([t]) => t < endMs).map(([, level]) => level);
    const street = after.filter(([t]) => t >= endMs).map(([, level]) => level);
    expect(heard).toHaveLength(member.profile.calibrationSeconds);
    expect(heard.every((level) => Math.abs(level - member.profile.referenceDb) < 1)).toBe(true);
    expect(street.length).toBeGreaterThan(50);
    expect(street.every((level) => Math.abs(level - member.profile.referenceDb) > 1)).toBe(true);
  });

  it('hears the SIC tones while a SIC runs', async () => {
    const { app, clock, pick } = await setUp();
    const member = pick(
      'a healthy online noise instrument with SIC',
      (m) => isHealthyOnlineNoise(m) && m.profile.hasSic,
    );
    const serial = member.wire.serialNumber;
    clock.advance(5 * MINUTE);
    const startedMs = clock.now();
    const quiet = await laeqSeconds(app, serial, startedMs - 20 * SECOND, startedMs);
    expect((await action(app, serial, 'SIC')).status).toBe(200);
    clock.advance(5 * SECOND);
    const during = (await laeqSeconds(app, serial, startedMs, clock.now())).map(([, level]) => level);
    expect(during).toHaveLength(5);
    // One level throughout, unlike the street's wandering.
    expect(new Set(during).size).toBe(1);
    expect(new Set(quiet.map(([, level]) => level)).size).toBeGreaterThan(1);
  });

  it('gives nothing of the open interval for an instrument that is not recording', async () => {
    const { app, clock, pick } = await setUp();
    const member = pick('an offline noise instrument', (m) => m.wire.type === 'Noise' && !m.status.online);
    clock.advance(5 * MINUTE);
    expect(await laeqSeconds(app, member.wire.serialNumber, clock.now() - 3 * MINUTE, clock.now())).toEqual(
      [],
    );
  });
});
