/**
 * Audio downloads and the library against a small loopback service (audio-server.ts): resume with a
 * range request, restart without one, cancel, refusals, the queue across a restart, playing with
 * ranges, delete. No test waits for a fixed time: a transfer "still running" is held by the server.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DownloadSnapshot, Recording } from '../../../src/shared/audio';
import { audioPlayUrl, libraryKeyOfAudioUrl } from '../../../src/shared/audio';
import type { BackendOptions } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { BACKUP_FOLDER } from '../../../src/main/backend/core/backups';
import { RECORDS_FILE_NAME } from '../../../src/main/backend/records/records-database';
import { UNFINISHED_NOTICE_ID } from '../../../src/main/backend/core/unfinished-files';
import { dispatchRequest } from '../../../src/shared/ipc/contract';
import { createRecordingBackend, TEST_APP_INFO, type RecordedEvent } from './backend-helpers';
import { useTempDirs } from './helpers';
import {
  audioBody,
  sha256,
  startAudioServer,
  TEST_SERIAL,
  type AudioServer,
  type AudioServerOptions,
} from './audio-server';

const tempDir = useTempDirs();
const MB = 1024 * 1024;
const FLAC_NAME = 'QT100001 2026-11-23 091500 Level over 65 dB(A).flac';

const toClose: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
});

const recording = (over: Partial<Recording> = {}): Recording => ({
  id: 'au_recording-one_0123456789abcdef',
  source: 'recording',
  serial: TEST_SERIAL,
  start: Date.UTC(2026, 10, 23, 9, 15, 0),
  end: Date.UTC(2026, 10, 23, 9, 15, 30),
  triggerStart: Date.UTC(2026, 10, 23, 9, 15, 5),
  triggerEnd: Date.UTC(2026, 10, 23, 9, 15, 25),
  triggerName: 'Level over 65 dB(A)',
  ...over,
});

async function startService(options: AudioServerOptions): Promise<AudioServer> {
  const server = await startAudioServer(options);
  toClose.push(() => server.close());
  return server;
}

function backendOptions(dataDir: string, server: AudioServer): BackendOptions {
  return {
    dataDir,
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: async () => ({
      baseUrl: server.baseUrl,
      apiKey: 'audio-test-key',
      close: async () => undefined,
    }),
    clientOptions: { timeoutMs: 10_000, retry: { limit: 3, baseDelayMs: 5, maxDelayMs: 20 } },
  };
}

async function startBackend(
  dataDir: string,
  server: AudioServer,
  tryDemo = true,
  more: Partial<BackendOptions> = {},
) {
  const made = await createRecordingBackend({ ...backendOptions(dataDir, server), ...more });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await made.backend.close();
  };
  toClose.push(close);
  if (tryDemo) await made.handlers['accounts.tryDemo']({});
  return { ...made, close };
}

/**
 * Resolves with the first `audio.progress` event (already pushed or still to come) that passes
 * `test`, looking only at events from index `from` on.
 */
function progressWhere(
  events: RecordedEvent[],
  test: (snapshot: DownloadSnapshot) => boolean,
  from = 0,
): Promise<DownloadSnapshot> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      for (const event of events.slice(from)) {
        if (event.channel === 'audio.progress' && test(event.payload)) return resolve(event.payload);
      }
      // A safety net for a broken test, far beyond any real wait here.
      if (Date.now() - started > 20_000) return reject(new Error('no such audio.progress event'));
      setTimeout(look, 5);
    };
    look();
  });
}

const finished = (id: string) => (s: DownloadSnapshot) =>
  s.id === id && (s.state === 'done' || s.state === 'failed' || s.state === 'cancelled');

describe('audio downloads', () => {
  it('(a) continues a body cut at half way with a range request, and the file is the server’s', async () => {
    const body = audioBody(2 * MB);
    const server = await startService({ body, ranges: true, answers: [{ kind: 'cut', at: MB }] });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    expect(queued).toMatchObject({ state: 'queued', format: 'FLAC' });
    const done = await progressWhere(events, finished(queued!.id));

    expect(done).toMatchObject({
      state: 'done',
      bytes: body.length,
      total: body.length,
      resumed: 1,
      restarted: 0,
    });
    expect(server.audioRequests).toHaveLength(2);
    expect(server.audioRequests[0]).toMatchObject({ range: null, apiKey: 'audio-test-key' });
    expect(server.audioRequests[0]!.path).toBe(`/data/audio/${encodeURIComponent(recording().id)}`);
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(server.audioRequests[1]!.range ?? '')?.[1]);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThanOrEqual(MB);
    expect(server.audioRequests[1]!.ifRange).toBe('"body-v1"');

    const [item] = await handlers['audio.library']({});
    expect(item).toMatchObject({
      key: done.key,
      format: 'FLAC',
      bytes: body.length,
      fileName: 'QT100001 2026-11-23 091500 Level over 65 dB(A).flac',
    });
    expect(item!.missing).toBeUndefined();
    expect(sha256(await readFile(item!.path))).toBe(server.sha256);
    // Nothing else is left in the folder: no temporary file.
    expect(await readdir(join(item!.path, '..'))).toEqual([item!.fileName]);
  });

  it('(b) without range support starts again from the beginning and still ends whole', async () => {
    const body = audioBody(2 * MB);
    const server = await startService({ body, ranges: false, answers: [{ kind: 'cut', at: MB }] });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'WAV' });
    const done = await progressWhere(events, finished(queued!.id));

    expect(done).toMatchObject({ state: 'done', bytes: body.length, resumed: 0, restarted: 1 });
    expect(server.audioRequests.map((r) => r.range)).toEqual([null, null]);
    const [item] = await handlers['audio.library']({});
    expect(sha256(await readFile(item!.path))).toBe(server.sha256);
  });

  it('(b) a service that offers ranges but answers a range request with the whole body is written from 0', async () => {
    const body = audioBody(2 * MB);
    const server = await startService({
      body,
      ranges: true,
      answers: [{ kind: 'cut', at: MB }, { kind: 'ignoreRange' }],
    });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'OGG' });
    const done = await progressWhere(events, finished(queued!.id));

    expect(done).toMatchObject({ state: 'done', bytes: body.length, resumed: 0, restarted: 1 });
    expect(server.audioRequests[1]!.range).toMatch(/^bytes=\d+-$/);
    const [item] = await handlers['audio.library']({});
    expect(sha256(await readFile(item!.path))).toBe(server.sha256);
  });

  it('(c) a cancelled download leaves no file under its final name and no temporary file', async () => {
    const body = audioBody(2 * MB);
    const server = await startService({ body, ranges: true, answers: [{ kind: 'hold', at: MB }] });
    const dataDir = await tempDir();
    const { handlers, events } = await startBackend(dataDir, server);

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    const partway = await progressWhere(events, (s) => s.id === queued!.id && s.bytes >= MB);
    expect(partway).toMatchObject({ state: 'downloading', total: body.length });
    const folder = (await handlers['audio.folder']({})).path;
    expect((await readdir(folder)).some((name) => name.endsWith('.part'))).toBe(true);

    const cancelled = await handlers['audio.cancel']({ id: queued!.id });

    expect(cancelled).toMatchObject({ state: 'cancelled', error: { code: 'cancelled' } });
    expect(await readdir(folder)).toEqual([]);
    expect(await handlers['audio.library']({})).toEqual([]);
    expect((await handlers['audio.downloads']({}))[0]).toMatchObject({ id: queued!.id, state: 'cancelled' });
  });

  it('(d) a 403 fails the download as forbidden, naming the missing scope', async () => {
    const refusal = { error: 'AccessDenied', description: 'The API key lacks the required scope.' };
    const server = await startService({
      body: audioBody(1024),
      ranges: true,
      answers: [
        { kind: 'refuse', status: 403, body: refusal },
        { kind: 'refuse', status: 403, body: refusal },
        {
          kind: 'refuse',
          status: 403,
          body: {
            error: 'AccessDenied',
            description: 'The API key lacks the required scope: data.events:read',
          },
        },
      ],
    });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const [audioList] = await handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    const failed = await progressWhere(events, finished(audioList!.id));
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'forbidden', status: 403, missingScope: 'data.audio:read' });
    expect(failed.error!.message).toContain('data.audio:read');
    // A refusal is not asked again.
    expect(server.audioRequests).toHaveLength(1);

    // An event's audio needs two scopes: the message names both unless the service said which.
    const event = recording({ id: 'au_event-two', source: 'event' });
    const [eventAudio] = await handlers['audio.download']({ recordings: [event], format: 'FLAC' });
    const eventFailed = await progressWhere(events, finished(eventAudio!.id));
    expect(server.audioRequests[1]!.path).toBe('/data/events/audio/au_event-two');
    expect(eventFailed.error!.message).toContain('data.events:read');
    expect(eventFailed.error!.message).toContain('data.audio:read');

    // Asked again, the same download runs again; this time the service names the scope.
    const before = events.length;
    const again = await handlers['audio.download']({ recordings: [event], format: 'FLAC' });
    expect(again[0]).toMatchObject({ id: eventAudio!.id, state: 'queued', error: null });
    const named = await progressWhere(events, finished(eventAudio!.id), before);
    expect(named.error).toMatchObject({ code: 'forbidden', missingScope: 'data.events:read' });
    expect(named.error!.message).toBe('This key cannot read noise events: it lacks data.events:read.');
  });

  it('says a recording is gone, or that the instrument has no Audio add-on, on a 404', async () => {
    const notFound = {
      kind: 'refuse' as const,
      status: 404,
      body: { error: 'NotFound', description: 'No such recording.' },
    };
    const server = await startService({
      body: audioBody(1024),
      ranges: true,
      audioAddon: false,
      answers: [notFound],
    });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'AAC' });
    const failed = await progressWhere(events, finished(queued!.id));

    expect(failed.error).toMatchObject({ code: 'notFound', status: 404 });
    expect(failed.error!.message).toBe(
      'QT100001 has no Audio add-on in its subscription, so the service keeps no audio of it.',
    );
  });

  it('(e) the queue survives a restart mid-download and the download completes', async () => {
    const body = audioBody(3 * MB);
    const half = Math.floor(body.length / 2);
    const server = await startService({ body, ranges: true, answers: [{ kind: 'hold', at: half }] });
    const dataDir = await tempDir();
    const first = await startBackend(dataDir, server);

    const [queued] = await first.handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    await progressWhere(first.events, (s) => s.id === queued!.id && s.bytes >= half);
    await first.close();

    // FieldDesk starts again: the download continues from its `.part` by itself.
    const second = await startBackend(dataDir, server, false);
    const done = await progressWhere(second.events, finished(queued!.id));

    expect(done).toMatchObject({ state: 'done', bytes: body.length, resumed: 1, restarted: 0 });
    expect(server.audioRequests).toHaveLength(2);
    expect(server.audioRequests[1]!.range).toBe(`bytes=${half}-`);
    const [item] = await second.handlers['audio.library']({});
    expect(sha256(await readFile(item!.path))).toBe(server.sha256);
    expect(await readdir(join(item!.path, '..'))).toEqual([item!.fileName]);
  });

  it('removes, at the next start, a `.part` whose download record is gone, and says so', async () => {
    const body = audioBody(2 * MB);
    const half = Math.floor(body.length / 2);
    const server = await startService({ body, ranges: true, answers: [{ kind: 'hold', at: half }] });
    const dataDir = await tempDir();
    const first = await startBackend(dataDir, server);
    const [queued] = await first.handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    await progressWhere(first.events, (s) => s.id === queued!.id && s.bytes >= half);
    await first.close();
    const folder = join(dataDir, 'audio');
    const part = `${FLAC_NAME}.part`;
    expect(await readdir(folder)).toEqual([part]);

    // The records are lost (a damaged file with no backup): no download continues that `.part`.
    for (const name of await readdir(dataDir))
      if (name.startsWith(RECORDS_FILE_NAME)) await rm(join(dataDir, name));
    await rm(join(dataDir, BACKUP_FOLDER), { recursive: true, force: true });
    const second = await startBackend(dataDir, server, false);
    expect(await readdir(folder)).toEqual([]);
    const notices = await second.handlers['app.notices']({});
    expect(notices.find((n) => n.id === UNFINISHED_NOTICE_ID)?.message).toContain(
      `the recording “${FLAC_NAME}” (temporary file ${part} in ${folder})`,
    );
    expect(await second.handlers['audio.downloads']({})).toEqual([]);
  });

  it('runs two downloads at once; the others wait their turn', async () => {
    const body = audioBody(512 * 1024);
    const server = await startService({
      body,
      ranges: true,
      answers: [
        { kind: 'hold', at: 128 * 1024 },
        { kind: 'hold', at: 128 * 1024 },
      ],
    });
    const { handlers, events } = await startBackend(await tempDir(), server);
    const three = [1, 2, 3].map((n) => recording({ id: `au_${n}`, triggerName: `Trigger ${n}` }));

    const queued = await handlers['audio.download']({ recordings: three, format: 'FLAC' });
    expect(queued.map((s) => s.state)).toEqual(['queued', 'queued', 'queued']);
    await progressWhere(events, (s) => s.id === queued[0]!.id && s.bytes >= 128 * 1024);
    await progressWhere(events, (s) => s.id === queued[1]!.id && s.bytes >= 128 * 1024);

    expect(server.audioRequests).toHaveLength(2);
    const waiting = (await handlers['audio.downloads']({})).find((s) => s.id === queued[2]!.id);
    expect(waiting).toMatchObject({ state: 'queued', bytes: 0 });

    server.release();
    for (const snapshot of queued) {
      expect(await progressWhere(events, finished(snapshot.id))).toMatchObject({ state: 'done' });
    }
    expect(await handlers['audio.library']({})).toHaveLength(3);
  });

  it('starts an urgent download (a Play) at once while a bulk download fills both slots, before the bulk queue', async () => {
    const body = audioBody(512 * 1024);
    const held = { kind: 'hold', at: 128 * 1024 } as const;
    const server = await startService({ body, ranges: true, answers: [held, held, held] });
    const { handlers, events } = await startBackend(await tempDir(), server);
    const bulk = [1, 2, 3, 4].map((n) => recording({ id: `au_bulk_${n}`, triggerName: `Bulk ${n}` }));
    const queued = await handlers['audio.download']({ recordings: bulk, format: 'FLAC' });
    await progressWhere(events, (s) => s.id === queued[0]!.id && s.bytes >= 128 * 1024);
    await progressWhere(events, (s) => s.id === queued[1]!.id && s.bytes >= 128 * 1024);

    // The event's Play: it runs now, beside the two held bulk transfers, not after the four.
    const play = recording({ id: 'au_event_play', source: 'event', triggerName: 'Event' });
    const [urgent] = await handlers['audio.download']({
      recordings: [play],
      format: 'FLAC',
      priority: 'urgent',
    });
    await progressWhere(events, (s) => s.id === urgent!.id && s.bytes >= 128 * 1024);
    const paths = server.audioRequests.map((r) => r.path);
    // The two bulk transfers start together: which reaches the service first is the machine's to say.
    expect(paths.slice(0, 2).sort()).toEqual(['/data/audio/au_bulk_1', '/data/audio/au_bulk_2']);
    expect(paths.slice(2)).toEqual(['/data/events/audio/au_event_play']);
    const now = await handlers['audio.downloads']({});
    for (const waiting of queued.slice(2)) {
      expect(now.find((s) => s.id === waiting.id)).toMatchObject({ state: 'queued', bytes: 0 });
    }

    server.release();
    for (const snapshot of [...queued, urgent!]) {
      expect(await progressWhere(events, finished(snapshot.id))).toMatchObject({ state: 'done' });
    }
  });

  it('moves a recording waiting in the bulk queue forward when it is asked for as urgent', async () => {
    const body = audioBody(512 * 1024);
    const held = { kind: 'hold', at: 128 * 1024 } as const;
    const server = await startService({ body, ranges: true, answers: [held, held, held] });
    const { handlers, events } = await startBackend(await tempDir(), server);
    const bulk = [1, 2, 3, 4, 5].map((n) => recording({ id: `au_bulk_${n}`, triggerName: `Bulk ${n}` }));
    const queued = await handlers['audio.download']({ recordings: bulk, format: 'FLAC' });
    await progressWhere(events, (s) => s.id === queued[1]!.id && s.bytes >= 128 * 1024);

    // The last of the queue is played: the same download (no second one), started next.
    const [again] = await handlers['audio.download']({
      recordings: [bulk[4]!],
      format: 'FLAC',
      priority: 'urgent',
    });
    expect(again!.id).toBe(queued[4]!.id);
    await progressWhere(events, (s) => s.id === queued[4]!.id && s.bytes >= 128 * 1024);
    expect(server.audioRequests.map((r) => r.path)).toEqual([
      '/data/audio/au_bulk_1',
      '/data/audio/au_bulk_2',
      '/data/audio/au_bulk_5',
    ]);
    server.release();
    for (const snapshot of queued) {
      expect(await progressWhere(events, finished(snapshot.id))).toMatchObject({ state: 'done' });
    }
  });

  it('gives recordings of the same name, downloading at the same time, names of their own', async () => {
    const body = audioBody(512 * 1024);
    const server = await startService({
      body,
      ranges: true,
      answers: [
        { kind: 'hold', at: 64 * 1024 },
        { kind: 'hold', at: 64 * 1024 },
      ],
    });
    const { handlers, events } = await startBackend(await tempDir(), server);
    // Same instrument, start and trigger: the same readable name; different recordings.
    const twins = [recording({ id: 'au_twin_1' }), recording({ id: 'au_twin_2' })];

    const queued = await handlers['audio.download']({ recordings: twins, format: 'FLAC' });
    await progressWhere(events, (s) => s.id === queued[0]!.id && s.bytes >= 64 * 1024);
    await progressWhere(events, (s) => s.id === queued[1]!.id && s.bytes >= 64 * 1024);
    server.release();
    for (const snapshot of queued) {
      expect(await progressWhere(events, finished(snapshot.id))).toMatchObject({ state: 'done' });
    }

    const items = await handlers['audio.library']({});
    expect(items.map((item) => item.fileName).sort()).toEqual([
      'QT100001 2026-11-23 091500 Level over 65 dB(A) (2).flac',
      'QT100001 2026-11-23 091500 Level over 65 dB(A).flac',
    ]);
    for (const item of items) expect(sha256(await readFile(item.path))).toBe(server.sha256);
  });

  it('asks again after a 503 (a transient refusal), with backoff', async () => {
    const body = audioBody(300 * 1024);
    const busy = { error: 'ServiceUnavailable', description: 'Busy.' };
    const server = await startService({
      body,
      ranges: true,
      answers: [{ kind: 'refuse', status: 503, body: busy }],
    });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    const done = await progressWhere(events, finished(queued!.id));

    expect(done).toMatchObject({ state: 'done', bytes: body.length, error: null });
    expect(server.audioRequests.map((r) => r.range)).toEqual([null, null]);
  });

  it('queues each recording once and answers one already in the library at once', async () => {
    const body = audioBody(256 * 1024);
    const server = await startService({ body, ranges: true });
    const { handlers, events } = await startBackend(await tempDir(), server);

    const twice = await handlers['audio.download']({
      recordings: [recording(), recording()],
      format: 'FLAC',
    });
    expect(twice).toHaveLength(1);
    await progressWhere(events, finished(twice[0]!.id));

    const again = await handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    expect(again[0]).toMatchObject({ state: 'done', bytes: body.length, key: twice[0]!.key });
    expect(server.audioRequests).toHaveLength(1);
  });
});

describe('the audio library', () => {
  async function downloaded() {
    const body = audioBody(64 * 1024 + 123);
    const server = await startService({ body, ranges: true });
    const made = await startBackend(await tempDir(), server);
    const [queued] = await made.handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    await progressWhere(made.events, finished(queued!.id));
    const [item] = await made.handlers['audio.library']({ serial: TEST_SERIAL });
    return { ...made, body, item: item! };
  }

  it('(f) serves a library file with a Range header as 206 with those bytes, and refuses other keys', async () => {
    const { backend, body, item } = await downloaded();

    const url = audioPlayUrl('electron', item.key);
    expect(libraryKeyOfAudioUrl(url)).toBe(item.key);
    const partial = await backend.audioFile(item.key, {
      method: 'GET',
      headers: new Headers({ Range: 'bytes=100-1099' }),
    });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('Content-Range')).toBe(`bytes 100-1099/${body.length}`);
    expect(partial.headers.get('Accept-Ranges')).toBe('bytes');
    expect(partial.headers.get('Content-Type')).toBe('audio/flac');
    expect(partial.headers.get('Content-Length')).toBe('1000');
    expect(Buffer.from(await partial.arrayBuffer()).equals(body.subarray(100, 1100))).toBe(true);

    const tail = await backend.audioFile(item.key, {
      method: 'GET',
      headers: new Headers({ Range: 'bytes=-10' }),
    });
    expect(Buffer.from(await tail.arrayBuffer()).equals(body.subarray(body.length - 10))).toBe(true);

    const whole = await backend.audioFile(item.key, { method: 'GET', headers: new Headers() });
    expect(whole.status).toBe(200);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(body));

    const beyond = await backend.audioFile(item.key, {
      method: 'GET',
      headers: new Headers({ Range: `bytes=${body.length}-` }),
    });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('Content-Range')).toBe(`bytes */${body.length}`);

    for (const key of ['flac-' + '0'.repeat(40), '../fielddesk.db', item.key.toUpperCase(), '']) {
      const refused = await backend.audioFile(key, { method: 'GET', headers: new Headers() });
      expect(refused.status).toBe(404);
    }
    expect(libraryKeyOfAudioUrl('fielddesk-audio://library/..%2Ffielddesk.db')).toBeNull();
    expect((await backend.audioFile(item.key, { method: 'POST', headers: new Headers() })).status).toBe(405);
  });

  it('(g) deleting an entry deletes its file; a file gone from disk is listed as missing', async () => {
    const { handlers, backend, item } = await downloaded();
    const { rm } = await import('node:fs/promises');

    await rm(item.path);
    const [missing] = await handlers['audio.library']({});
    expect(missing).toMatchObject({ key: item.key, missing: true });
    expect((await backend.audioFile(item.key, { method: 'GET', headers: new Headers() })).status).toBe(404);

    expect(await handlers['audio.delete']({ key: item.key })).toEqual([]);
  });

  it('(g) delete removes the file from the folder', async () => {
    const { handlers, item } = await downloaded();
    const folder = join(item.path, '..');
    expect(await readdir(folder)).toEqual([item.fileName]);

    expect(await handlers['audio.delete']({ key: item.key })).toEqual([]);

    expect(await readdir(folder)).toEqual([]);
    const gone = await dispatchRequest(handlers, 'audio.delete', { key: item.key });
    expect(gone).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('chooses the folder and shows files through what the desktop app injects', async () => {
    const server = await startService({ body: audioBody(4096), ranges: true });
    const picked = join(await tempDir(), 'Picked');
    const shown: Array<[string, string]> = [];
    let answer: string | null = picked;
    const { handlers, events } = await startBackend(await tempDir(), server, true, {
      audioFolder: join(await tempDir(), 'Downloads', 'FieldDesk'),
      chooseAudioFolder: async () => answer,
      revealInFileManager: async (path, kind) => void shown.push([path, kind]),
    });
    const first = (await handlers['audio.folder']({})).path;
    expect(first).toMatch(/Downloads[\\/]FieldDesk$/);

    expect(await handlers['audio.chooseFolder']({})).toEqual({ path: picked, changed: true });
    answer = null;
    expect(await handlers['audio.chooseFolder']({})).toEqual({ path: picked, changed: false });

    const [queued] = await handlers['audio.download']({ recordings: [recording()], format: 'FLAC' });
    await progressWhere(events, finished(queued!.id));
    const [item] = await handlers['audio.library']({});
    expect(item!.path.startsWith(picked)).toBe(true);

    expect(await handlers['audio.openFolder']({})).toEqual({ path: picked });
    expect(await handlers['audio.openFolder']({ key: item!.key })).toEqual({ path: item!.path });
    expect(shown).toEqual([
      [picked, 'folder'],
      [item!.path, 'file'],
    ]);
  });

  it('keeps files where they were when the folder changes, and refuses a folder it cannot use', async () => {
    const { handlers, item } = await downloaded();
    const elsewhere = join(await tempDir(), 'new', 'recordings');

    expect(await handlers['audio.setFolder']({ path: elsewhere })).toEqual({ path: elsewhere });
    expect(await handlers['audio.folder']({})).toEqual({ path: elsewhere });
    expect((await handlers['audio.library']({}))[0]).toMatchObject({ key: item.key, path: item.path });

    const relative = await dispatchRequest(handlers, 'audio.setFolder', { path: 'recordings' });
    expect(relative).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'path' } });
    const aFile = await dispatchRequest(handlers, 'audio.setFolder', { path: item.path });
    expect(aFile).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(aFile.ok ? '' : aFile.error.message).toContain('is a file, not a folder');
    const noDialog = await dispatchRequest(handlers, 'audio.chooseFolder', {});
    expect(noDialog).toMatchObject({ ok: false, error: { code: 'invalidRequest' } });
  });
});
