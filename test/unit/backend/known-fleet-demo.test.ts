/**
 * The fleet without signal, after a restart: the last instrument list that reached the service is
 * kept, listed as last known (with the reason and the time it was fetched), and each instrument
 * opens from it; an unknown instrument and a removed account still get the service's error.
 */
import { describe, expect, it } from 'vitest';
import { demoBackendsWithNetwork } from './backend-helpers';
import { openDatabase } from '../../../src/main/backend/core/database';
import { createKnownFleets } from '../../../src/main/backend/instruments/known-fleet';

let clock = Date.UTC(2026, 10, 20, 9);
const demo = demoBackendsWithNetwork();
/** A backend on the test's clock; the demo account is added by the test where it wants it. */
const makeBackend = () => demo.open({ addDemo: false, overrides: { now: () => clock } });

describe('the last known fleet', () => {
  it('lists and opens the instruments offline after a restart, said as last known with its time', async () => {
    const first = await makeBackend();
    await first.handlers['accounts.tryDemo']({});
    const live = await first.handlers['instruments.list']({});
    expect(live.lastKnown).toBeUndefined();
    expect(live.entries.length).toBeGreaterThan(5);
    const fetchedAt = live.fetchedAt;
    await demo.close(first.backend);

    // The next morning, at a site without signal.
    clock += 20 * 3_600_000;
    demo.network.down = true;
    const second = await makeBackend();
    const offline = await second.handlers['instruments.list']({});
    expect(offline.lastKnown?.reason.code).toBe('offline');
    expect(offline.fetchedAt).toBe(fetchedAt);
    expect(offline.entries.map((e) => e.instrument.serialNumber)).toEqual(
      live.entries.map((e) => e.instrument.serialNumber),
    );
    // The states as they were when fetched, not made up: the same statuses, measuring and all.
    expect(offline.entries.map((e) => e.status)).toEqual(live.entries.map((e) => e.status));
    expect(offline.entries.some((e) => e.status?.measuring === true)).toBe(true);

    const serial = live.entries[0]!.instrument.serialNumber;
    const detail = await second.handlers['instruments.get']({ serial });
    expect(detail).toMatchObject({
      instrument: { serialNumber: serial },
      fetchedAt,
      lastKnown: { reason: { code: 'offline' } },
    });
    // An instrument the list never had is not invented.
    await expect(second.handlers['instruments.get']({ serial: 'QT000001' })).rejects.toMatchObject({
      code: 'offline',
    });

    // Back online, the list is live again.
    demo.network.down = false;
    const again = await second.handlers['instruments.list']({});
    expect(again.lastKnown).toBeUndefined();
    expect(again.fetchedAt).toBe(clock);
  });

  it('is forgotten with its account, and a stored list that cannot be read counts as none', async () => {
    const made = await makeBackend();
    await made.handlers['accounts.tryDemo']({});
    const [account] = (await made.handlers['accounts.getState']({})).accounts;
    await made.handlers['instruments.list']({});
    demo.network.down = true;
    expect((await made.handlers['instruments.list']({})).lastKnown).toBeDefined();
    await made.handlers['accounts.remove']({ id: account!.id });
    await demo.close(made.backend);

    const database = openDatabase(demo.dataDir());
    try {
      const count = database.db.prepare('SELECT COUNT(*) AS n FROM known_fleets').get() as { n: number };
      expect(count.n).toBe(0);
      const fleets = createKnownFleets(database.db);
      database.db
        .prepare('INSERT INTO known_fleets (account_id, fetched_at, list_json) VALUES (?, ?, ?)')
        .run('acc-x', 1, '{"entries": "not a list"');
      expect(fleets.get('acc-x')).toBeNull();
    } finally {
      database.close();
    }
  });
});
