/**
 * Downloading audio from the demo service: byte ranges (206, 416, resuming from the middle), the
 * test options that switch ranges off, cut answers short (over a real socket: the connection
 * closes after N body bytes) and add a long recording, and the body arriving in chunks.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createDemo,
  createDemoApp,
  DEFAULT_DEMO_KEY,
  startDemoService,
  type RunningDemoService,
} from '../../../src/simulator';
import { parseByteRange } from '../../../src/simulator/audio/routes';
import { MAX_LONG_RECORDING_BYTES, type WireAudioRecording } from '../../../src/simulator/audio/recordings';
import type { WireErrorBody } from '../../../src/shared/service/wire';
import { readFlac, readWav, sha256 } from './audio-formats';
import { AUDIO_SERIAL, NOW, SAMPLE_RATE, audioDemo, shortestFirst, spanSeconds } from './audio-helpers';

const FORMATS = ['FLAC', 'WAV', 'AAC', 'OGG'] as const;

let demo: ReturnType<typeof audioDemo>;
let recording: WireAudioRecording;
beforeAll(async () => {
  demo = audioDemo();
  recording = shortestFirst(await demo.recordings())[0]!;
});

const path = (r: WireAudioRecording, format: string) => `/data/audio/${r.id}?format=${format}`;
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

describe('byte ranges', () => {
  it('every answer says Accept-Ranges: bytes, with Content-Length and an ETag', async () => {
    for (const format of FORMATS) {
      const { response, body } = await demo.bytes(path(recording, format));
      expect(response.status).toBe(200);
      expect(response.headers.get('Accept-Ranges')).toBe('bytes');
      expect(Number(response.headers.get('Content-Length'))).toBe(body.length);
      expect(response.headers.get('ETag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      // HEAD: the same headers, no body (a client may ask the size first).
      const head = await demo.app.request(`/v1${path(recording, format)}`, {
        method: 'HEAD',
        headers: { 'X-Api-Key': DEFAULT_DEMO_KEY },
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('Content-Length')).toBe(String(body.length));
      expect(head.headers.get('ETag')).toBe(response.headers.get('ETag'));
    }
  });

  it('a 206 slice is that slice of the whole file, in every format', async () => {
    for (const format of FORMATS) {
      const whole = (await demo.bytes(path(recording, format))).body;
      const size = whole.length;
      const cases: Array<[string, number, number]> = [
        ['bytes=1000-4999', 1000, 5000],
        ['bytes=0-0', 0, 1],
        [`bytes=${size - 10}-`, size - 10, size],
        ['bytes=-700', size - 700, size],
        [`bytes=5-${size + 1000}`, 5, size], // an end past the file is cut to it
      ];
      for (const [header, start, end] of cases) {
        const { response, body } = await demo.bytes(path(recording, format), { Range: header });
        expect(response.status, `${format} ${header}`).toBe(206);
        expect(response.headers.get('Content-Range')).toBe(`bytes ${start}-${end - 1}/${size}`);
        expect(Number(response.headers.get('Content-Length'))).toBe(end - start);
        expect(sha256(body), `${format} ${header}`).toBe(sha256(whole.subarray(start, end)));
      }
    }
  });

  it('resuming from the middle gives, joined to the first part, the whole file’s SHA-256', async () => {
    for (const format of FORMATS) {
      const whole = (await demo.bytes(path(recording, format))).body;
      const middle = Math.floor(whole.length * 0.37);
      const first = await demo.bytes(path(recording, format), { Range: `bytes=0-${middle - 1}` });
      const rest = await demo.bytes(path(recording, format), {
        Range: `bytes=${middle}-`,
        'If-Range': first.response.headers.get('ETag')!,
      });
      expect(rest.response.status).toBe(206);
      expect(sha256(concat(first.body, rest.body)), format).toBe(sha256(whole));
    }
  });

  it('416 with Content-Range bytes */size past the end', async () => {
    const size = (await demo.bytes(path(recording, 'WAV'))).body.length;
    for (const header of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      const response = await demo.get(path(recording, 'WAV'), { Range: header });
      expect(response.status, header).toBe(416);
      expect(response.headers.get('Content-Range')).toBe(`bytes */${size}`);
      expect(((await response.json()) as WireErrorBody).error).toBe('RangeNotSatisfiable');
    }
  });

  it('ignores what it cannot serve as one range, and a range of another version (If-Range)', async () => {
    const whole = (await demo.bytes(path(recording, 'AAC'))).body;
    const cases: Array<Record<string, string>> = [
      { Range: 'bytes=0-9,20-29' },
      { Range: 'items=0-9' },
      { Range: 'bytes=9-2' },
      { Range: 'bytes=0-9', 'If-Range': '"another-version"' },
    ];
    for (const headers of cases) {
      const { response, body } = await demo.bytes(path(recording, 'AAC'), headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(sha256(body)).toBe(sha256(whole));
    }
  });

  it('parses ranges as RFC 9110 says', () => {
    expect(parseByteRange(undefined, 100)).toEqual({ kind: 'whole' });
    expect(parseByteRange('bytes=10-19', 100)).toEqual({ kind: 'range', start: 10, end: 20 });
    expect(parseByteRange('bytes=90-', 100)).toEqual({ kind: 'range', start: 90, end: 100 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ kind: 'range', start: 90, end: 100 });
    expect(parseByteRange('bytes=-200', 100)).toEqual({ kind: 'range', start: 0, end: 100 });
    expect(parseByteRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseByteRange('bytes=-', 100)).toEqual({ kind: 'whole' });
  });

  it('the event audio endpoint answers ranges the same way', async () => {
    const whole = (await demo.bytes(path(recording, 'OGG'))).body;
    const { response, body } = await demo.bytes(`/data/events/audio/${recording.id}?format=OGG`, {
      Range: 'bytes=100-199',
    });
    expect(response.status).toBe(206);
    expect(sha256(body)).toBe(sha256(whole.subarray(100, 200)));
  });

  it('streams the body in chunks rather than as one buffer', async () => {
    const response = await demo.get(path(recording, 'WAV'));
    const reader = response.body!.getReader();
    const sizes: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      sizes.push(value.length);
    }
    expect(sizes.length).toBeGreaterThan(4);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024 + 8192);
  });
});

describe('audio option ranges: false', () => {
  it('ignores Range: 200 with the whole file and no Accept-Ranges', async () => {
    const plain = audioDemo({ audio: { ranges: false } });
    const whole = (await demo.bytes(path(recording, 'FLAC'))).body;
    const { response, body } = await plain.bytes(path(recording, 'FLAC'), { Range: 'bytes=100-199' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Accept-Ranges')).toBeNull();
    expect(response.headers.get('Content-Range')).toBeNull();
    expect(Number(response.headers.get('Content-Length'))).toBe(whole.length);
    expect(sha256(body)).toBe(sha256(whole));
    expect((await plain.get(path(recording, 'FLAC'), { Range: `bytes=${whole.length}-` })).status).toBe(200);
  });
});

// --- Interrupted downloads, over a real socket --------------------------------------------------

const running: RunningDemoService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
  /** Whether the connection closed before the body was complete. */
  cut: boolean;
}

/** A GET that collects what arrives, whether or not the server finishes the body. */
function download(
  service: RunningDemoService,
  path: string,
  headers: Record<string, string> = {},
): Promise<Received> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${service.baseUrl}${path}`,
      { headers: { 'X-Api-Key': DEFAULT_DEMO_KEY, ...headers } },
      (response) => {
        const parts: Buffer[] = [];
        let settled = false;
        const finish = (cut: boolean) => {
          if (settled) return;
          settled = true;
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: concat(...parts),
            cut,
          });
        };
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => finish(false));
        response.on('error', () => finish(true));
        response.on('aborted', () => finish(true));
        response.on('close', () => finish(!response.complete));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function start(audio: NonNullable<Parameters<typeof startDemoService>[0]>['audio']) {
  const service = await startDemoService({ now: () => NOW, rateLimit: 100_000, audio });
  running.push(service);
  return service;
}

describe('audio option cutAfterBytes', () => {
  it('closes the connection after that many body bytes of every answer', async () => {
    const service = await start({ cutAfterBytes: 10_000 });
    const whole = (await demo.bytes(path(recording, 'WAV'))).body;
    for (let attempt = 0; attempt < 2; attempt++) {
      const received = await download(service, path(recording, 'WAV'));
      expect(received.status).toBe(200);
      expect(Number(received.headers['content-length'])).toBe(whole.length);
      expect(received.cut).toBe(true);
      expect(received.body.length).toBe(10_000);
      expect(sha256(received.body)).toBe(sha256(whole.subarray(0, 10_000)));
    }
    // A range answer is cut after as many bytes of its own body.
    const ranged = await download(service, path(recording, 'WAV'), { Range: 'bytes=50000-' });
    expect(ranged.status).toBe(206);
    expect(ranged.cut).toBe(true);
    expect(sha256(ranged.body)).toBe(sha256(whole.subarray(50_000, 60_000)));
    // An answer no longer than the limit arrives whole.
    const short = await download(service, path(recording, 'WAV'), { Range: 'bytes=0-9999' });
    expect(short.cut).toBe(false);
    expect(short.body.length).toBe(10_000);
  });

  it('with cutOnce, cuts only the first answer per recording and format; a resume completes the file', async () => {
    const service = await start({ cutAfterBytes: 4_096, cutOnce: true });
    for (const format of ['FLAC', 'AAC'] as const) {
      const whole = (await demo.bytes(path(recording, format))).body;
      const first = await download(service, path(recording, format));
      expect(first.cut).toBe(true);
      expect(first.body.length).toBe(4_096);
      const rest = await download(service, path(recording, format), {
        Range: `bytes=${first.body.length}-`,
        'If-Range': String(first.headers.etag),
      });
      expect(rest.status).toBe(206);
      expect(rest.cut).toBe(false);
      expect(sha256(concat(first.body, rest.body))).toBe(sha256(whole));
      const again = await download(service, path(recording, format));
      expect(again.cut).toBe(false);
      expect(sha256(again.body)).toBe(sha256(whole));
    }
  });

  it('without a socket (app.request), the body fails after the cut', async () => {
    const app = createDemoApp({ now: () => NOW, audio: { cutAfterBytes: 1000 } });
    const response = await app.request(`/v1${path(recording, 'WAV')}`, {
      headers: { 'X-Api-Key': DEFAULT_DEMO_KEY },
    });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow(/cut the download after 1000 bytes/);
  });
});

describe('audio option holdAfterBytes', () => {
  it('pauses every answer after that many bytes until released, then sends the rest, whole', async () => {
    const whole = (await demo.bytes(path(recording, 'WAV'))).body;
    const held = createDemo({ now: () => NOW, audio: { holdAfterBytes: 5_000 } });
    const response = await held.app.request(`/v1${path(recording, 'WAV')}`, {
      headers: { 'X-Api-Key': DEFAULT_DEMO_KEY },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = 0;
    const parts: Uint8Array[] = [];
    while (received < 5_000) {
      const { value } = await reader.read();
      parts.push(value!);
      received += value!.length;
    }
    expect(received).toBe(5_000);
    // Nothing more arrives while held (a machine too slow to send in 50 ms could only hide a
    // failure here, never make one).
    const next = reader.read();
    let arrived = false;
    void next.then(() => (arrived = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrived).toBe(false);
    held.audio.release();
    for (let chunk = await next; !chunk.done; chunk = await reader.read()) parts.push(chunk.value);
    expect(sha256(concat(...parts))).toBe(sha256(whole));
    // Released for good: a later answer is not held.
    expect(
      (await held.app.request(`/v1${path(recording, 'WAV')}`, { headers: { 'X-Api-Key': DEFAULT_DEMO_KEY } }))
        .status,
    ).toBe(200);
  });
});

describe('audio option longRecordingBytes', () => {
  const HOUR = 3_600_000;
  it('lists one long recording on the first audio instrument, ending at the hour the service started in', async () => {
    const clock = NOW + 25 * 60_000; // 12:25
    const long = audioDemo({ now: () => clock, audio: { longRecordingBytes: 3_000_000 } });
    const list = await long.recordings(
      AUDIO_SERIAL,
      new Date(NOW - 3 * HOUR).toISOString(),
      new Date(clock).toISOString(),
    );
    const found = list.filter((r) => spanSeconds(r) > 60);
    expect(found).toHaveLength(1);
    const recording = found[0]!;
    expect(Date.parse(recording.endTime)).toBe(NOW);
    expect(recording.triggerName).toBe('Manual trigger');
    expect(Date.parse(recording.triggerStartTime)).toBe(Date.parse(recording.startTime) + 5000);
    expect(Date.parse(recording.triggerEndTime)).toBe(Date.parse(recording.endTime) - 5000);
    // Its WAV is at least the size asked for, and less than a second more.
    const head = await long.get(path(recording, 'WAV'), { Range: 'bytes=0-43' });
    const size = Number(/\/(\d+)$/.exec(head.headers.get('Content-Range')!)![1]);
    expect(size).toBeGreaterThanOrEqual(3_000_000);
    expect(size - 3_000_000).toBeLessThan(SAMPLE_RATE * 2);
    // A slice from the middle matches the same slice of the whole file, a WAV of the whole span.
    const whole = (await long.bytes(path(recording, 'WAV'))).body;
    expect(whole.length).toBe(size);
    expect(readWav(whole).samples.length).toBe(spanSeconds(recording) * SAMPLE_RATE);
    const slice = await long.bytes(path(recording, 'WAV'), { Range: 'bytes=1500000-1599999' });
    expect(sha256(slice.body)).toBe(sha256(whole.subarray(1_500_000, 1_600_000)));
    // Its FLAC holds as many samples.
    const flac = readFlac((await long.bytes(path(recording, 'FLAC'))).body);
    expect(flac.info.totalSamples).toBe(spanSeconds(recording) * SAMPLE_RATE);
    // It is no event's audio.
    expect((await long.get(`/data/events/audio/${recording.id}`)).status).toBe(404);
  });

  it('makes the largest a WAV file can hold, and refuses larger', async () => {
    const largest = audioDemo({ audio: { longRecordingBytes: MAX_LONG_RECORDING_BYTES } });
    const list = await largest.recordings(
      AUDIO_SERIAL,
      new Date(NOW - 40 * HOUR).toISOString(),
      new Date(NOW).toISOString(),
    );
    const long = list.find((r) => spanSeconds(r) > 3600)!;
    const head = await largest.bytes(path(long, 'WAV'), { Range: 'bytes=0-43' });
    const view = new DataView(head.body.buffer, head.body.byteOffset, 44);
    expect(head.response.headers.get('Content-Range')).toBe(`bytes 0-43/${MAX_LONG_RECORDING_BYTES}`);
    expect(view.getUint32(4, true)).toBe(MAX_LONG_RECORDING_BYTES - 8);
    expect(view.getUint32(40, true)).toBe(MAX_LONG_RECORDING_BYTES - 44);
    expect(() => createDemoApp({ audio: { longRecordingBytes: MAX_LONG_RECORDING_BYTES + 1 } })).toThrow(
      /WAV file/,
    );
  });

  it('refuses sizes it cannot make', () => {
    expect(() => createDemoApp({ audio: { longRecordingBytes: 0 } })).toThrow(RangeError);
    expect(() => createDemoApp({ audio: { longRecordingBytes: 5e9 } })).toThrow(/WAV file/);
    expect(() => createDemoApp({ audio: { cutAfterBytes: -1 } })).toThrow(RangeError);
    expect(() => createDemoApp({ audio: { cutAfterBytes: 1.5 } })).toThrow(RangeError);
  });
});
