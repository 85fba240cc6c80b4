import { beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '../../../../src/simulator/data/events';
import { DAY, demo, iso, samples, type Fleet, type THRecord } from './data-helpers';

interface Recording {
  id: string;
  instrument: string;
  startTime: string;
  endTime: string;
  triggerStartTime: string;
  triggerEndTime: string;
  triggerName: string;
}

let get: Awaited<ReturnType<typeof demo>>['get'];
let fleet: Fleet;
const START = Date.UTC(2025, 4, 27);
let range: string;
let events: WireEvent[];
beforeAll(async () => {
  ({ get, fleet } = await demo());
  range = `instruments=${fleet.noise.map((i) => i.serialNumber).join(',')}&start=${iso(START)}&end=${iso(START + 2 * DAY)}`;
  events = (await get<WireEvent[]>(`/data/events?${range}`)).body;
});

describe('noise events', () => {
  it('are listed with the documented fields, starting within the range', () => {
    expect(events.length).toBeGreaterThan(20);
    for (const event of events) {
      expect(event.type).toBe('Noise');
      expect(event.name).toMatch(/^(.*LAeq > \d+ dB|Manual trigger)$/);
      expect(Date.parse(event.startTime)).toBeGreaterThanOrEqual(START);
      expect(Date.parse(event.startTime)).toBeLessThan(START + 2 * DAY);
      expect(Date.parse(event.endTime)).toBeGreaterThan(Date.parse(event.startTime));
      expect(event.overall).toHaveLength(3);
      expect(event.octave).toHaveLength(10);
      expect(event.thirdOctave === null || event.thirdOctave.length === 36).toBe(true);
      expect(typeof event.timeHistoryId).toBe('string');
    }
    // Quieter nights: fewer events between midnight and 6 am than in any six daytime hours.
    const hourOf = (e: WireEvent) => new Date(e.startTime).getUTCHours();
    expect(events.filter((e) => hourOf(e) < 6).length).toBeLessThan(
      events.filter((e) => hourOf(e) >= 10 && hourOf(e) < 16).length,
    );
  });

  it('show in the noise time history at their time, at least at the trigger level', async () => {
    for (const event of events.slice(0, 12)) {
      const [record] = (
        await get<THRecord[]>(
          `/data/noise/timehistory?instruments=${event.instrument}&start=${event.startTime}&end=${event.endTime}&values=LAeq`,
        )
      ).body;
      const max = Math.max(...samples(record!).map(([, v]) => v));
      expect(max).toBeGreaterThanOrEqual(event.level - 0.1);
      expect(event.overall[1]!).toBeGreaterThanOrEqual(max - 0.1); // LAFMax of the event
    }
  });

  it('have their own 100 ms time history in the noise time history shape', async () => {
    const event = events[0]!;
    const response = await get<THRecord[]>(`/data/events/timehistory/${event.timeHistoryId}`);
    expect(response.status).toBe(200);
    const [laeq, lafmax] = response.body;
    expect(laeq!.type).toBe('LAeq');
    expect(lafmax!.type).toBe('LAFMax');
    expect(laeq!.blocks[0]!.sampleDuration).toBe(100);
    const values = samples(laeq!);
    expect(values[0]![0]).toBe(Date.parse(event.startTime) - 5000);
    expect(Math.max(...values.map(([, v]) => v))).toBeGreaterThanOrEqual(event.level);
    const missing = await get(`/data/events/timehistory/th_bm9wZTox`);
    expect(missing.status).toBe(404);
  });

  it('match the audio list: one recording per event of an instrument with the Audio add-on', async () => {
    const recordings = (await get<Recording[]>(`/data/audio?${range}`)).body;
    const withAudio = events.filter((e) => e.audioId !== null);
    const audioInstruments = new Set(
      fleet.all.filter((i) => i.subscription.addons?.includes('Audio')).map((i) => i.serialNumber),
    );
    expect(new Set(withAudio.map((e) => e.instrument))).toEqual(
      new Set(events.filter((e) => audioInstruments.has(e.instrument)).map((e) => e.instrument)),
    );
    expect(recordings.length).toBeGreaterThan(0);
    expect(recordings.map((r) => r.id)).toEqual(withAudio.map((e) => e.audioId));
    recordings.forEach((recording, i) => {
      const event = withAudio[i]!;
      expect(recording.id.length).toBeGreaterThan(40);
      expect(recording.triggerStartTime).toBe(event.startTime);
      expect(recording.triggerEndTime).toBe(event.endTime);
      expect(recording.triggerName).toBe(event.name);
      expect(recording.startTime).toBe(event.audioTime);
      expect(Date.parse(recording.endTime)).toBeGreaterThan(Date.parse(event.endTime));
    });
    for (const event of events.filter((e) => e.audioId === null)) expect(event.audioTime).toBeNull();
  });

  it('include manual triggers by day, with the level the instrument measured', () => {
    const manual = events.filter((e) => e.name === 'Manual trigger');
    expect(manual.length).toBeGreaterThan(0);
    for (const event of manual) {
      expect(event.level).toBe(event.overall[0]);
      const hour = new Date(event.startTime).getUTCHours();
      expect(hour).toBeGreaterThanOrEqual(7);
      expect(hour).toBeLessThan(22);
    }
    expect(events.some((e) => e.name !== 'Manual trigger')).toBe(true);
  });

  it('come with audio on every noise instrument with the Audio add-on, level and manual triggers alike', async () => {
    const audio = fleet.noise.filter((i) => i.subscription.addons?.includes('Audio'));
    // Pro and Track noise monitors record audio: QT930998 (recording now), QT570913, QT882792.
    expect(audio.map((i) => i.serialNumber).sort()).toEqual(['QT570913', 'QT882792', 'QT930998']);
    const recordings = (await get<Recording[]>(`/data/audio?${range}`)).body;
    for (const instrument of audio) {
      expect(recordings.filter((r) => r.instrument === instrument.serialNumber).length).toBeGreaterThan(5);
    }
    const names = new Set(recordings.map((r) => r.triggerName));
    expect(names.has('Manual trigger')).toBe(true);
    expect([...names].some((name) => /LAeq > \d+ dB/.test(name))).toBe(true);
  });

  it('are the same on every call', async () => {
    expect((await get(`/data/events?${range}`)).body).toEqual(events);
  });
});
