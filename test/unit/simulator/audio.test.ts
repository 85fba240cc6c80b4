/**
 * The demo service's audio: `GET /data/audio/{id}` and `GET /data/events/audio/{id}` in every
 * format, checked from the bytes (CI has no ffmpeg): signatures, declared lengths against the
 * recording's span, Ogg page CRCs and granules, FLAC frame CRCs and a decode that must give the
 * WAV's samples, ADTS frame counts. Plus scopes, unknown ids, the format parameter, determinism.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, DEFAULT_DEMO_KEY } from '../../../src/simulator';
import type { WireAudioRecording } from '../../../src/simulator/audio/recordings';
import type { WireErrorBody } from '../../../src/shared/service/wire';
import {
  ADTS_SAMPLE_RATES,
  md5OfSamples,
  readAdts,
  readFlac,
  readOggFlac,
  readWav,
  sameSamples,
  sha256,
} from './audio-formats';
import {
  AUDIO_SERIAL,
  FROM,
  NOW,
  SAMPLE_RATE,
  TO,
  audioDemo,
  shortestFirst,
  spanSeconds,
} from './audio-helpers';

let demo: ReturnType<typeof audioDemo>;
let all: WireAudioRecording[];
/** A level-triggered and a manually triggered recording, the shortest of each. */
let level: WireAudioRecording;
let manual: WireAudioRecording;
beforeAll(async () => {
  demo = audioDemo();
  all = await demo.recordings();
  level = shortestFirst(all).find((r) => r.triggerName !== 'Manual trigger')!;
  manual = shortestFirst(all).find((r) => r.triggerName === 'Manual trigger')!;
});

const audioPath = (recording: WireAudioRecording, format?: string) =>
  `/data/audio/${recording.id}${format === undefined ? '' : `?format=${format}`}`;

describe('audio of a recording, in every format', () => {
  it('has recordings of both kinds to fetch', () => {
    expect(level).toBeDefined();
    expect(manual).toBeDefined();
  });

  it('WAV: RIFF/WAVE, 16-bit mono PCM at 16 kHz, exactly the recording’s span', async () => {
    for (const recording of [level, manual]) {
      const { response, body } = await demo.bytes(audioPath(recording, 'WAV'));
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('application/octet-stream');
      expect(Number(response.headers.get('Content-Length'))).toBe(body.length);
      expect(new TextDecoder().decode(body.subarray(0, 4))).toBe('RIFF');
      expect(new TextDecoder().decode(body.subarray(8, 12))).toBe('WAVE');
      const wav = readWav(body);
      expect(wav).toMatchObject({ format: 1, channels: 1, sampleRate: SAMPLE_RATE, bitsPerSample: 16 });
      expect(wav.samples.length).toBe(spanSeconds(recording) * SAMPLE_RATE);
    }
  });

  it('FLAC (the default): fLaC, STREAMINFO of the span, every frame’s CRCs, decodes to the WAV’s samples', async () => {
    for (const recording of [level, manual]) {
      const wav = readWav((await demo.bytes(audioPath(recording, 'WAV'))).body);
      const { response, body } = await demo.bytes(audioPath(recording));
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('application/octet-stream');
      expect(new TextDecoder().decode(body.subarray(0, 4))).toBe('fLaC');
      expect(sha256((await demo.bytes(audioPath(recording, 'FLAC'))).body)).toBe(sha256(body));
      const flac = readFlac(body);
      expect(flac.info).toMatchObject({
        sampleRate: SAMPLE_RATE,
        channels: 1,
        bitsPerSample: 16,
        totalSamples: spanSeconds(recording) * SAMPLE_RATE,
        minBlock: 4096,
        maxBlock: 4096,
      });
      expect(flac.frames.map((f) => f.number)).toEqual(flac.frames.map((_, i) => i));
      expect(flac.frames.every((f) => f.sampleRate === SAMPLE_RATE)).toBe(true);
      expect(flac.info.minFrame).toBe(Math.min(...flac.frames.map((f) => f.bytes)));
      expect(flac.info.maxFrame).toBe(Math.max(...flac.frames.map((f) => f.bytes)));
      expect(sameSamples(flac.samples, wav.samples)).toBe(true);
      expect(flac.info.md5).toBe(md5OfSamples(wav.samples));
      // Compressed, not WAV in disguise.
      expect(body.length).toBeLessThan(wav.samples.length * 2 * 0.9);
      expect(flac.comments).toContain(`TITLE=${recording.triggerName}`);
      expect(flac.comments).toContain(`ARTIST=${recording.instrument}`);
    }
  });

  it('OGG: FLAC in Ogg, pages with valid CRCs, granules up to the span, decodes to the WAV’s samples', async () => {
    const wav = readWav((await demo.bytes(audioPath(level, 'WAV'))).body);
    const { response, body } = await demo.bytes(audioPath(level, 'OGG'));
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(body.subarray(0, 4))).toBe('OggS');
    const ogg = readOggFlac(body);
    const { pages } = ogg;
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    expect(new Set(pages.map((p) => p.serial)).size).toBe(1);
    expect(pages[0]!.flags).toBe(0x02); // beginning of stream
    expect(pages[0]!.packets).toHaveLength(1);
    expect(pages.at(-1)!.flags).toBe(0x04); // end of stream
    expect(pages.slice(1, -1).every((p) => p.flags === 0)).toBe(true);
    expect(pages.every((p) => !p.continued)).toBe(true);
    // Header pages have granule 0; audio pages count the samples to their end, never going back.
    expect(pages[0]!.granule).toBe(0);
    expect(pages[1]!.granule).toBe(0);
    const audio = pages.slice(2);
    let samples = 0;
    audio.forEach((page, i) => {
      samples += ogg.frames[i]!.blockSize;
      expect(page.granule).toBe(samples);
    });
    expect(pages.at(-1)!.granule).toBe(spanSeconds(level) * SAMPLE_RATE);
    expect(ogg.info.totalSamples).toBe(spanSeconds(level) * SAMPLE_RATE);
    expect(sameSamples(ogg.samples, wav.samples)).toBe(true);
  });

  it('AAC: ADTS frames (AAC-LC, 16 kHz, mono), 1024 samples each, covering the span', async () => {
    for (const recording of [level, manual]) {
      const { response, body } = await demo.bytes(audioPath(recording, 'AAC'));
      expect(response.status).toBe(200);
      expect(body[0]).toBe(0xff);
      expect(body[1]! & 0xf0).toBe(0xf0);
      const frames = readAdts(body);
      for (const frame of frames) {
        expect(frame).toMatchObject({ profile: 1, channelConfig: 1, rawBlocks: 1, protectionAbsent: true });
        expect(ADTS_SAMPLE_RATES[frame.sampleRateIndex]).toBe(SAMPLE_RATE);
      }
      const span = spanSeconds(recording) * SAMPLE_RATE;
      expect(frames.length * 1024).toBeGreaterThanOrEqual(span);
      expect(frames.length * 1024 - span).toBeLessThan(1024);
    }
  });

  it('sounds like its trigger: louder while a level trigger is on than in the seconds before', async () => {
    const wav = readWav((await demo.bytes(audioPath(level, 'WAV'))).body);
    const rms = (fromSec: number, toSec: number) => {
      let energy = 0;
      for (let i = fromSec * SAMPLE_RATE; i < toSec * SAMPLE_RATE; i++) energy += wav.samples[i]! ** 2;
      return Math.sqrt(energy / ((toSec - fromSec) * SAMPLE_RATE));
    };
    const preRoll = rms(0, 4);
    const seconds = spanSeconds(level);
    const loudest = Math.max(...Array.from({ length: seconds - 10 }, (_, s) => rms(5 + s, 6 + s)));
    expect(20 * Math.log10(loudest / preRoll)).toBeGreaterThan(6);

    // The AAC follows the same rise: its frames' global gain (1.5 dB a step) is higher in the
    // trigger's loudest second than in the seconds before it.
    const aac = (await demo.bytes(audioPath(level, 'AAC'))).body;
    const gains: number[] = [];
    let at = 0;
    for (const frame of readAdts(aac)) {
      // The single channel element's global_gain: the 8 bits after its 3-bit id and 4-bit tag.
      gains.push(((aac[at + 7]! & 0x01) << 7) | (aac[at + 8]! >> 1));
      at += frame.length;
    }
    const framesPerSecond = SAMPLE_RATE / 1024;
    const mean = (from: number, to: number) =>
      gains
        .slice(Math.floor(from * framesPerSecond), Math.floor(to * framesPerSecond))
        .reduce((a, b) => a + b, 0) /
      (Math.floor(to * framesPerSecond) - Math.floor(from * framesPerSecond));
    const loudestSecond = Math.max(...Array.from({ length: seconds - 10 }, (_, s) => mean(5 + s, 6 + s)));
    expect(loudestSecond - mean(0, 4)).toBeGreaterThan(4);
  });

  it('event audio is the same recording, at /data/events/audio/{audioId}', async () => {
    const events = (await (
      await demo.get(`/data/events?instruments=${AUDIO_SERIAL}&start=${FROM}&end=${TO}`)
    ).json()) as Array<{ audioId: string | null; startTime: string }>;
    const event = events.find((e) => e.audioId === level.id)!;
    expect(event).toBeDefined();
    for (const format of ['WAV', 'AAC']) {
      const fromEvent = await demo.bytes(`/data/events/audio/${event.audioId}?format=${format}`);
      expect(fromEvent.response.status).toBe(200);
      expect(sha256(fromEvent.body)).toBe(sha256((await demo.bytes(audioPath(level, format))).body));
    }
  });
});

describe('the format parameter', () => {
  it('takes the spec’s names, letter case forgiven as for other choices, and refuses others with 400', async () => {
    const wav = await demo.bytes(audioPath(level, 'wav'));
    expect(wav.response.status).toBe(200);
    expect(new TextDecoder().decode(wav.body.subarray(0, 4))).toBe('RIFF');
    for (const format of ['MP3', 'flac2', 'WAVE']) {
      const response = await demo.get(audioPath(level, format));
      expect(response.status).toBe(400);
      const body = (await response.json()) as WireErrorBody;
      expect(body.error).toBe('InvalidParam');
      expect(body.description).toContain('FLAC, WAV, AAC, OGG');
    }
    const event = await demo.get(`/data/events/audio/${level.id}?format=MP3`);
    expect(event.status).toBe(400);
  });
});

describe('unknown recordings', () => {
  const notFound = async (path: string) => {
    const response = await demo.get(path);
    expect(response.status, path).toBe(404);
    expect(((await response.json()) as WireErrorBody).error).toBe('NotFound');
  };

  it('answer 404: a made-up id, a changed tag, an instrument not in the fleet, another seed’s recording', async () => {
    await notFound('/data/audio/au_nope');
    await notFound('/data/events/audio/au_nope');
    const tampered = level.id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    await notFound(`/data/audio/${tampered}`);
    // The same shape of id for a serial this fleet does not have.
    const [, , tag] = /^au_([^_]+)_([0-9a-f]{32})$/.exec(level.id)!;
    const elsewhere = `au_${Buffer.from(`QT000001:${Date.parse(level.triggerStartTime) / 1000}`).toString('base64url')}_${tag}`;
    await notFound(`/data/audio/${elsewhere}`);
    // A recording of seed 2's fleet, whose instruments are not in seed 1's.
    const other = audioDemo({ seed: 2 });
    const serial = (
      (await (await other.get('/control/instruments')).json()) as Array<{
        serialNumber: string;
        subscription: { addons?: string[] };
      }>
    ).find((i) => i.subscription.addons?.includes('Audio'))!.serialNumber;
    const theirs = (await other.recordings(serial))[0]!;
    expect((await other.get(audioPath(theirs, 'AAC'))).status).toBe(200);
    await notFound(audioPath(theirs, 'AAC'));
    await notFound(`/data/events/audio/${theirs.id}`);
  });
});

describe('scopes', () => {
  const app = createDemoApp({
    now: () => NOW,
    keys: {
      audio: ['data.audio:read'],
      events: ['data.events:read'],
      both: ['data.audio:read', 'data.events:read'],
    },
  });
  const get = (path: string, key: string) =>
    Promise.resolve(app.request(`/v1${path}`, { headers: { 'X-Api-Key': key } }));
  const denied = async (path: string, key: string, scope: string) => {
    const response = await get(path, key);
    expect(response.status, `${key} ${path}`).toBe(403);
    const body = (await response.json()) as WireErrorBody;
    expect(body.error).toBe('AccessDenied');
    expect(body.description).toBe(`The API key lacks the required scope: ${scope}.`);
  };

  it('a recording needs data.audio:read', async () => {
    await denied(audioPath(level, 'AAC'), 'events', 'data.audio:read');
    expect((await get(audioPath(level, 'AAC'), 'audio')).status).toBe(200);
  });

  it('event audio needs data.events:read and data.audio:read', async () => {
    const path = `/data/events/audio/${level.id}?format=AAC`;
    await denied(path, 'audio', 'data.events:read');
    await denied(path, 'events', 'data.audio:read');
    expect((await get(path, 'both')).status).toBe(200);
  });

  it('are checked before the id: no key learns which recordings exist', async () => {
    await denied('/data/audio/au_nope', 'events', 'data.audio:read');
    await denied('/data/events/audio/au_nope', 'audio', 'data.events:read');
  });
});

describe('determinism', () => {
  it('the same recording and format give the same bytes, from any demo service of the same seed', async () => {
    const again = audioDemo();
    for (const format of ['FLAC', 'WAV', 'AAC', 'OGG']) {
      const first = (await demo.bytes(audioPath(manual, format))).body;
      const second = (await again.bytes(audioPath(manual, format))).body;
      expect(sha256(second), format).toBe(sha256(first));
    }
    // Different recordings sound different.
    const a = (await demo.bytes(audioPath(level, 'WAV'))).body;
    const b = (await demo.bytes(audioPath(shortestFirst(all)[1]!, 'WAV'))).body;
    expect(sha256(a)).not.toBe(sha256(b));
  });

  it('an answer does not depend on the clock, once the recording exists', async () => {
    const later = createDemoApp({ now: () => NOW + 86_400_000, rateLimit: 100_000 });
    const response = await later.request(`/v1${audioPath(level, 'WAV')}`, {
      headers: { 'X-Api-Key': DEFAULT_DEMO_KEY },
    });
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(
      sha256((await demo.bytes(audioPath(level, 'WAV'))).body),
    );
  });
});
