/** Helpers of the action and calibration/SIC history tests. */
import { expect } from 'vitest';
import { createDemoApp, DEFAULT_DEMO_KEY, type DemoServiceOptions } from '../../../src/simulator';
import { generateDemoFleet } from '../../../src/simulator/fleet';
import { buildHealthProfiles, type HealthProfile } from '../../../src/simulator/health-profiles';
import type { WireInstrument, WireInstrumentStatus } from '../../../src/shared/service/wire';
import { call, manualClock } from './helpers';

export const key = DEFAULT_DEMO_KEY;
export const DAY_MS = 86_400_000;

export interface FleetMember {
  wire: WireInstrument;
  status: WireInstrumentStatus;
  /** The generator's view of the instrument (fault, calibrator level, durations). */
  profile: HealthProfile;
}

/** A demo service on a manual clock, with its fleet as the service lists it. */
export async function setUp(options: Omit<DemoServiceOptions, 'now'> = {}) {
  const clock = manualClock();
  const createdAtMs = clock.now();
  const app = createDemoApp({ ...options, now: clock.now });
  const seed = options.seed ?? 1;
  const profiles = buildHealthProfiles(seed, generateDemoFleet(seed, createdAtMs), createdAtMs);
  const listed = (await (await call(app, 'GET', '/control/instruments', { key })).json()) as WireInstrument[];
  const fleet: FleetMember[] = [];
  for (const wire of listed) {
    const profile = profiles.get(wire.serialNumber);
    if (!profile) throw new Error(`no profile for ${wire.serialNumber}`);
    fleet.push({ wire, status: await statusOf(app, wire.serialNumber), profile });
  }
  const pick = (description: string, predicate: (member: FleetMember) => boolean): FleetMember => {
    const found = fleet.find(predicate);
    if (!found) throw new Error(`seed ${seed} has no ${description}`);
    return found;
  };
  return { app, clock, createdAtMs, fleet, pick };
}

export async function statusOf(
  app: ReturnType<typeof createDemoApp>,
  serial: string,
): Promise<WireInstrumentStatus> {
  const response = await call(app, 'GET', `/control/instruments/${serial}/status`, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as WireInstrumentStatus;
}

export const isHealthyOnlineNoise = (member: FleetMember): boolean =>
  member.wire.type === 'Noise' && member.status.online && member.profile.fault === 'none';

export const action = (app: ReturnType<typeof createDemoApp>, serial: string, name: string, apiKey = key) =>
  call(app, 'POST', `/control/instruments/${serial}/action?action=${encodeURIComponent(name)}`, {
    key: apiKey,
  });

/** A data query: `instruments` comma-joined, times as ISO strings. */
export function historyPath(
  path: string,
  serials: readonly string[],
  startMs: number,
  endMs: number,
): string {
  const query = new URLSearchParams({
    instruments: serials.join(','),
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
  });
  return `${path}?${query.toString()}`;
}

export async function history<T>(
  app: ReturnType<typeof createDemoApp>,
  path: string,
  serials: readonly string[],
  startMs: number,
  endMs: number,
): Promise<T[]> {
  const response = await call(app, 'GET', historyPath(path, serials, startMs, endMs), { key });
  expect(response.status, `${path} ${serials.join(',')}`).toBe(200);
  return (await response.json()) as T[];
}
