/**
 * `audio.recordings`: an instrument's recordings from the audio list and the events with audio,
 * through the cache, each once, by start; the wire read tolerantly (letter case, offset-less times,
 * an item without an id); offline, what the cache holds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Provenance, RecordTable } from '../../../src/shared/data';
import { combineProvenance, recordingsFrom } from '../../../src/main/backend/audio/recordings';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { rateOf } from '../../../src/main/backend/audio/download-progress';
import { libraryFileName, libraryKey } from '../../../src/main/backend/audio/library';
import { AUDIO_LIBRARY_KEY_PATTERN, audioPlayUrl } from '../../../src/shared/audio';
import { createRecordingBackend, TEST_APP_INFO } from './backend-helpers';
import { useTempDirs } from './helpers';
import { audioBody, startAudioServer, TEST_SERIAL, type AudioServer } from './audio-server';

const tempDir = useTempDirs();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Two days ago on the hour: settled data, so a second read is answered by the cache alone. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 2 * DAY;
const at = (offsetMs: number) => new Date(BASE + offsetMs).toISOString();
/** The same time without its offset, as some answers of the real service give it (UTC). */
const bare = (offsetMs: number) => at(offsetMs).replace('Z', '');

const toClose: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
});

const AUDIO_LIST = [
  {
    id: 'au_1',
    instrument: TEST_SERIAL,
    startTime: at(HOUR),
    endTime: at(HOUR + 30_000),
    triggerStartTime: at(HOUR + 5_000),
    triggerEndTime: at(HOUR + 25_000),
    triggerName: 'Level over 65 dB(A)',
    somethingNew: true,
  },
  {
    // Capitalised field names and times without an offset.
    ID: 'au_0',
    Instrument: TEST_SERIAL,
    StartTime: bare(10 * 60_000),
    EndTime: bare(10 * 60_000 + 20_000),
    TriggerStartTime: bare(10 * 60_000 + 5_000),
    TriggerEndTime: bare(10 * 60_000 + 15_000),
    TriggerName: 'Manual trigger',
  },
  // No id: cannot be downloaded, so not listed, and said.
  {
    instrument: TEST_SERIAL,
    startTime: at(3 * HOUR),
    triggerStartTime: at(3 * HOUR + 5_000),
    triggerName: 'Level over 65 dB(A)',
  },
];

const EVENTS = [
  // The audio of au_1 again, as an event: listed once.
  {
    type: 'Noise',
    name: 'Level over 65 dB(A)',
    level: 65,
    startTime: at(HOUR + 5_000),
    endTime: at(HOUR + 25_000),
    audioTime: at(HOUR),
    instrument: TEST_SERIAL,
    audioId: 'au_1',
  },
  // Audio only an event has: listed as the event's.
  {
    type: 'Noise',
    name: 'Level over 70 dB(A)',
    level: 70,
    startTime: at(2 * HOUR + 5_000),
    endTime: at(2 * HOUR + 15_000),
    audioTime: at(2 * HOUR),
    instrument: TEST_SERIAL,
    audioId: 'ev_2',
  },
  // Another id for the audio of the same trigger as au_1: the same recording, listed once.
  {
    type: 'Noise',
    name: 'Level over 65 dB(A)',
    level: 65,
    startTime: at(HOUR + 5_400),
    endTime: at(HOUR + 25_000),
    audioTime: at(HOUR),
    instrument: TEST_SERIAL,
    audioId: 'ev_same_as_au_1',
  },
  // No audio.
  {
    type: 'Noise',
    name: 'Level over 65 dB(A)',
    level: 66,
    startTime: at(4 * HOUR),
    endTime: at(4 * HOUR + 9_000),
    audioTime: null,
    instrument: TEST_SERIAL,
    audioId: null,
  },
];

async function startBackend(server: AudioServer) {
  let networkDown = false;
  const made = await createRecordingBackend({
    dataDir: await tempDir(),
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: async () => ({ baseUrl: server.baseUrl, apiKey: 'key', close: async () => undefined }),
    fetch: async (input, init) => {
      if (networkDown)
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      return fetch(input, init);
    },
    clientOptions: { timeoutMs: 5_000, retry: { limit: 0 } },
    offlineProbeMs: 0,
  });
  toClose.push(() => made.backend.close());
  await made.handlers['accounts.tryDemo']({});
  return { ...made, goOffline: () => (networkDown = true) };
}

describe('audio.recordings', () => {
  it('lists the audio list and the events with audio, each once, by start, read tolerantly', async () => {
    const server = await startAudioServer({
      body: audioBody(16),
      ranges: true,
      audioList: AUDIO_LIST,
      events: EVENTS,
    });
    toClose.push(() => server.close());
    const { handlers } = await startBackend(server);

    const list = await handlers['audio.recordings']({ serial: TEST_SERIAL, start: BASE, end: BASE + DAY });

    expect(list.recordings.map((r) => [r.id, r.source])).toEqual([
      ['au_0', 'recording'],
      ['au_1', 'recording'],
      ['ev_2', 'event'],
    ]);
    expect(list.recordings[0]).toEqual({
      id: 'au_0',
      source: 'recording',
      serial: TEST_SERIAL,
      start: BASE + 10 * 60_000,
      end: BASE + 10 * 60_000 + 20_000,
      triggerStart: BASE + 10 * 60_000 + 5_000,
      triggerEnd: BASE + 10 * 60_000 + 15_000,
      triggerName: 'Manual trigger',
    });
    expect(list.recordings[2]).toEqual({
      id: 'ev_2',
      source: 'event',
      serial: TEST_SERIAL,
      start: BASE + 2 * HOUR,
      end: BASE + 2 * HOUR + 15_000,
      triggerStart: BASE + 2 * HOUR + 5_000,
      triggerEnd: BASE + 2 * HOUR + 15_000,
      triggerName: 'Level over 70 dB(A)',
    });
    expect(list.provenance.source).toBe('fresh');
    expect(list.notes).toEqual([
      '1 recording the service listed could not be read (no id or no time), so it is not shown.',
    ]);
    expect(server.listRequests.some((url) => url.startsWith('/data/audio?'))).toBe(true);
    expect(server.listRequests.some((url) => url.startsWith('/data/events?'))).toBe(true);
  });

  it('answers from the cache offline, saying what is missing', async () => {
    const server = await startAudioServer({
      body: audioBody(16),
      ranges: true,
      audioList: AUDIO_LIST,
      events: EVENTS,
    });
    toClose.push(() => server.close());
    const { handlers, goOffline } = await startBackend(server);
    const range = { serial: TEST_SERIAL, start: BASE, end: BASE + 6 * HOUR };
    await handlers['audio.recordings'](range);
    const asked = server.listRequests.length;

    goOffline();
    const cached = await handlers['audio.recordings'](range);
    expect(cached.recordings.map((r) => r.id)).toEqual(['au_0', 'au_1', 'ev_2']);
    expect(cached.provenance.source).toBe('cached');
    expect(server.listRequests).toHaveLength(asked);

    const wider = await handlers['audio.recordings']({ ...range, end: BASE + DAY });
    expect(wider.recordings.map((r) => r.id)).toEqual(['au_0', 'au_1', 'ev_2']);
    expect(wider.provenance).toMatchObject({
      source: 'partial',
      missing: [{ start: BASE + 6 * HOUR, end: BASE + DAY }],
      reason: { code: 'offline' },
    });
  });

  it('notes an instrument without the Audio add-on', async () => {
    const server = await startAudioServer({ body: audioBody(16), ranges: true, audioAddon: false });
    toClose.push(() => server.close());
    const { handlers } = await startBackend(server);
    await handlers['instruments.list']({});

    const list = await handlers['audio.recordings']({ serial: TEST_SERIAL, start: BASE, end: BASE + DAY });

    expect(list.recordings).toEqual([]);
    expect(list.notes).toEqual([
      `${TEST_SERIAL} has no Audio add-on in its subscription, so it records no audio.`,
    ]);
  });

  it('refuses a range that is back to front or longer than a year', async () => {
    const { dispatchRequest } = await import('../../../src/shared/ipc/contract');
    const handlers = {} as Parameters<typeof dispatchRequest>[0];
    expect(
      await dispatchRequest(handlers, 'audio.recordings', { serial: TEST_SERIAL, start: 10, end: 5 }),
    ).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'end' } });
    expect(
      await dispatchRequest(handlers, 'audio.recordings', { serial: TEST_SERIAL, start: 0, end: 400 * DAY }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalidInput', message: 'Choose a range of at most a year.' },
    });
    const many = Array.from({ length: 501 }, (_, i) => ({
      id: `au_${i}`,
      source: 'recording',
      serial: TEST_SERIAL,
      start: 0,
      end: 1,
      triggerStart: null,
      triggerEnd: null,
      triggerName: 'x',
    }));
    expect(
      await dispatchRequest(handlers, 'audio.download', { recordings: many, format: 'FLAC' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalidInput', message: 'Download at most 500 recordings at a time.' },
    });
    expect(
      await dispatchRequest(handlers, 'audio.download', {
        recordings: [{ ...many[0], source: 'x' }],
        format: 'FLAC',
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(
      await dispatchRequest(handlers, 'audio.download', { recordings: [many[0]], format: 'MP3' }),
    ).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'format' } });
  });
});

describe('recording helpers', () => {
  const table = (rows: RecordTable['rows']): RecordTable => ({ timeKey: 'startTime', columns: [], rows });

  it('never lists a row without an id or a time, and counts it', () => {
    const read = recordingsFrom(
      'QT1',
      table([
        { id: null, startTime: 5 },
        { id: 'a', startTime: null, triggerStartTime: null },
      ]),
      table([
        { audioId: 'e', startTime: null, audioTime: null },
        { audioId: null, startTime: 1 },
      ]),
    );
    expect(read).toEqual({ recordings: [], unreadable: 3 });
  });

  it('joins provenances: partial wins, then cached (the oldest), then fresh', () => {
    const fresh: Provenance = { source: 'fresh', fetchedAt: 50 };
    const cached: Provenance = { source: 'cached', cachedAt: 20 };
    const partial: Provenance = {
      source: 'partial',
      cachedAt: 30,
      missing: [{ start: 0, end: 10 }],
      reason: { code: 'offline', message: 'x', retryable: true },
    };
    expect(combineProvenance([fresh, fresh])).toEqual({ source: 'fresh', fetchedAt: 50 });
    expect(combineProvenance([fresh, cached])).toEqual({ source: 'cached', cachedAt: 20 });
    expect(combineProvenance([cached, partial])).toMatchObject({ source: 'partial', cachedAt: 20 });
  });

  it('names files readably and safely, and keys them safely', () => {
    const recording = {
      id: 'x/../../y',
      source: 'recording' as const,
      serial: 'QT1',
      start: Date.UTC(2026, 0, 2, 3, 4, 5),
      end: Date.UTC(2026, 0, 2, 3, 4, 35),
      triggerStart: null,
      triggerEnd: null,
      triggerName: 'Level > 65 dB(A): "loud"/*?',
    };
    expect(libraryFileName(recording, 'WAV')).toBe('QT1 2026-01-02 030405 Level - 65 dB(A)- -loud-.wav');
    expect(libraryFileName({ ...recording, triggerName: '  ' }, 'OGG')).toBe(
      'QT1 2026-01-02 030405 Recording.ogg',
    );
    const key = libraryKey(recording, 'WAV');
    expect(key).toMatch(AUDIO_LIBRARY_KEY_PATTERN);
    expect(libraryKey({ ...recording, source: 'event' }, 'WAV')).not.toBe(key);
    expect(audioPlayUrl('electron', key)).toBe(`fielddesk-audio://library/${key}`);
    expect(audioPlayUrl('harness', key, { token: 't/k' })).toBe(`/audio-library/${key}?token=t%2Fk`);
  });

  it('measures the rate over the last seconds only once half a second is measured', () => {
    expect(rateOf([])).toBeNull();
    expect(
      rateOf([
        { at: 0, bytes: 0 },
        { at: 100, bytes: 1000 },
      ]),
    ).toBeNull();
    expect(
      rateOf([
        { at: 0, bytes: 0 },
        { at: 1000, bytes: 1000 },
        { at: 2000, bytes: 3000 },
      ]),
    ).toBe(1500);
    // Samples older than the window no longer count.
    expect(
      rateOf([
        { at: 0, bytes: 0 },
        { at: 6000, bytes: 1000 },
        { at: 7000, bytes: 1500 },
      ]),
    ).toBe(500);
  });
});
