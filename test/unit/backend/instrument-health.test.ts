/**
 * Instrument health for fleet attention through the backend against the REAL demo service: the
 * status, the monitor's current state and newest stats where the monitor supports them, the last
 * contact of an instrument gone offline, all kept in the cache and answered as last known —
 * after a restart too — when the service cannot be reached.
 */
import { lastChecks } from '../../../src/shared/check-record';
import { describe, expect, it } from 'vitest';
import { attentionReasons, DEFAULT_ATTENTION_THRESHOLDS } from '../../../src/shared/attention';
import { demoBackendsWithNetwork, startDemoBackend } from './backend-helpers';

const HOUR_MS = 3_600_000;
const demo = demoBackendsWithNetwork();

describe('instrument health against the demo service', () => {
  it('reads status, supply, storage and signal of monitors, and the last contact of one gone offline', async () => {
    const { handlers } = await demo.open();
    const { entries } = await handlers['instruments.list']({});
    const serials = entries.map((e) => e.instrument.serialNumber);
    const read = await handlers['instruments.health']({ serials });
    expect(read.lastKnown).toBeUndefined();
    expect(read.entries.map((e) => e.serial).sort()).toEqual([...serials].sort());

    const modelOf = (serial: string) => entries.find((e) => e.instrument.serialNumber === serial)!.instrument;
    const quantum = read.entries.filter((e) => /Quantum/.test(modelOf(e.serial).model));
    const onlineQuantum = quantum.filter((e) => e.status?.online === true);
    const offlineQuantum = quantum.filter((e) => e.status?.online === false);
    expect(onlineQuantum.length).toBeGreaterThan(0);
    expect(offlineQuantum.length).toBeGreaterThan(0);
    // The demo's monitors have an outage of a few hours now and then (power, modem) while their
    // status stays online: then the service has no current state for them and the supply is the
    // newest stats sample's, older than the read. Most are connected at any moment.
    const connected = onlineQuantum.filter((e) => e.supply?.time === e.readAt);
    expect(connected.length).toBeGreaterThan(0);
    for (const entry of onlineQuantum.filter((e) => !connected.includes(e))) {
      expect(entry.supply === null || entry.supply.time < entry.readAt).toBe(true);
      expect(entry.lastContact).toBe(entry.readAt);
    }
    for (const entry of connected) {
      expect(entry.supply?.voltage).toBeGreaterThan(9);
      expect(entry.supply?.diskPercent).toBeGreaterThan(0);
      expect(entry.signal?.time).toBeLessThanOrEqual(entry.readAt);
      expect(entry.lastContact).toBe(entry.readAt);
      expect(entry.problems).toEqual([]);
    }
    // Offline: no current state, but its newest stats sample says when it was last heard from.
    for (const entry of offlineQuantum) {
      expect(entry.lastContact).not.toBeNull();
      expect(entry.readAt - (entry.lastContact ?? 0)).toBeGreaterThan(HOUR_MS);
      const reasons = attentionReasons(
        entry,
        entry.status,
        DEFAULT_ATTENTION_THRESHOLDS,
        entry.readAt,
        lastChecks(entry.status, null),
      );
      expect(reasons[0]?.text).toMatch(/^Offline for \d+ h( \d+ min)? \(limit 2 h\)$/);
    }
    // Instruments without the monitor endpoints are not asked (the service would refuse them).
    const others = read.entries.filter((e) => !/Quantum/.test(modelOf(e.serial).model));
    for (const entry of others) {
      expect(entry.supply).toBeNull();
      expect(entry.problems).toEqual([]);
    }
  });

  it('reads each status once for the rows on screen and their health asked moments later', async () => {
    const asked: string[] = [];
    let now = Date.now();
    const { handlers } = await demo.open({
      overrides: {
        now: () => now,
        fetch: async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (url.endsWith('/status')) asked.push(url);
          return fetch(input, init);
        },
      },
    });
    const { entries } = await handlers['instruments.list']({});
    const serials = entries.map((e) => e.instrument.serialNumber).slice(0, 4);
    asked.length = 0;
    // The rows ask their statuses, their health is asked while those are still being read.
    const [statuses, health] = await Promise.all([
      handlers['instruments.statuses']({ serials }),
      handlers['instruments.health']({ serials }),
    ]);
    expect(asked).toHaveLength(4);
    expect(health.entries.map((e) => e.status)).toEqual(statuses.entries.map((e) => e.status));
    // Asked again moments later: still the same reads.
    now += 10_000;
    await handlers['instruments.health']({ serials });
    expect(asked).toHaveLength(4);
    // The rows' own read (Refresh) asks the service again, and so does health once the reads are old.
    await handlers['instruments.statuses']({ serials });
    expect(asked).toHaveLength(8);
    now += 16_000;
    await handlers['instruments.health']({ serials });
    expect(asked).toHaveLength(12);
  });

  it('answers the last known health offline, and after a restart, with the reason', async () => {
    const first = await demo.open();
    const { entries } = await first.handlers['instruments.list']({});
    const serials = entries.map((e) => e.instrument.serialNumber);
    const online = await first.handlers['instruments.health']({ serials });
    await demo.close(first.backend);

    demo.network.down = true;
    const second = await demo.open({ addDemo: false });
    const known = await second.handlers['instruments.knownHealth']({});
    expect(known.entries.map((e) => e.serial).sort()).toEqual([...serials].sort());
    const offline = await second.handlers['instruments.health']({ serials: serials.slice(0, 3) });
    expect(offline.lastKnown?.reason.code).toBe('offline');
    const bySerial = (a: { serial: string }, b: { serial: string }) => a.serial.localeCompare(b.serial);
    expect([...offline.entries].sort(bySerial)).toEqual(
      online.entries.filter((e) => serials.slice(0, 3).includes(e.serial)).sort(bySerial),
    );
  });

  it('keeps the last contact of an instrument that was online when it is read offline later', async () => {
    const { handlers, service } = await startDemoBackend();
    const { entries } = await handlers['instruments.list']({});
    const online = entries.find((e) => e.status?.online === true && e.instrument.type === 'Vibration')!;
    const serial = online.instrument.serialNumber;
    const before = (await handlers['instruments.health']({ serials: [serial] })).entries[0]!;
    expect(before.lastContact).toBe(before.readAt);

    service.webhooks.setOnline(serial, false);
    const after = (await handlers['instruments.health']({ serials: [serial] })).entries[0]!;
    expect(after.status?.online).toBe(false);
    expect(after.lastContact).toBe(before.lastContact);
    expect(after.readAt).toBeGreaterThanOrEqual(before.readAt);
  });
});
