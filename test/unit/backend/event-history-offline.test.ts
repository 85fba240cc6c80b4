/**
 * An opened event's own time history without signal: read once online, it answers from the local
 * database offline (said with the time it was read); one never read still gets the service's error.
 */
import { describe, expect, it } from 'vitest';
import { demoBackendsWithNetwork } from './backend-helpers';

const HOUR = 3_600_000;
const NOISE = 'QT930998';

const demo = demoBackendsWithNetwork();

describe('an event’s time history offline', () => {
  it('answers as last read, after a restart too, with when it was read', async () => {
    const first = await demo.open();
    const end = Math.floor(Date.now() / HOUR) * HOUR;
    const events = await first.handlers['data.read']({
      serial: NOISE,
      dataset: 'events',
      start: end - 24 * HOUR,
      end,
    });
    const ids = (events.records?.rows ?? [])
      .map((row) => row['timeHistoryId'])
      .filter((id): id is string => typeof id === 'string' && id !== '');
    expect(ids.length).toBeGreaterThan(1);
    const live = await first.handlers['data.eventTimeHistory']({ id: ids[0]! });
    expect(live.cachedAt).toBeUndefined();
    expect(live.series.length).toBeGreaterThan(0);
    await demo.close(first.backend);

    demo.network.down = true;
    const second = await demo.open({ addDemo: false });
    const offline = await second.handlers['data.eventTimeHistory']({ id: ids[0]! });
    expect(offline.cachedAt).toEqual(expect.any(Number));
    expect(offline.range).toEqual(live.range);
    expect(offline.series.map((s) => s.name)).toEqual(live.series.map((s) => s.name));
    expect(Array.from(offline.series[0]!.values)).toEqual(Array.from(live.series[0]!.values));
    expect(offline.figures).toEqual(live.figures);
    // One never read is not made up.
    await expect(second.handlers['data.eventTimeHistory']({ id: ids[1]! })).rejects.toMatchObject({
      code: 'offline',
    });
  });
});
