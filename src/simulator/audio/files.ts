/**
 * A recording's audio file in each format, as a list of segments (a header, then frames or pages)
 * whose sizes are known before any byte is sent, so any byte range can be made on its own:
 *
 * - WAV: a 44-byte RIFF header, then 16-bit PCM in frames of 4096 samples;
 * - FLAC: `fLaC`, STREAMINFO, VORBIS_COMMENT, then one FLAC frame per 4096 samples;
 * - OGG: the same FLAC frames in Ogg (FLAC-to-Ogg mapping), one page each;
 * - AAC: ADTS frames of 1024 samples (aac.ts).
 *
 * FLAC and Ogg frame sizes come from encoding every frame once (an index pass, yielding to other
 * requests now and then); the bytes themselves are made again for each request, frame by frame,
 * so a file of hundreds of megabytes never sits in memory.
 */
import { createHash } from 'node:crypto';
import type { AudioFormat } from '../../shared/audio';
import { formatServiceTime } from '../../shared/service/time';
import { hashString } from '../data/hash';
import { aacLayout } from './aac';
import {
  FLAC_BLOCK_SIZE,
  encodeFlacFrame,
  flacHeader,
  streamInfoBlock,
  vorbisCommentBlock,
  type StreamInfo,
} from './flac';
import { OGG_BOS, OGG_EOS, flacOggFirstPacket, oggPage, oggPageLength } from './ogg';
import { SAMPLE_RATE, synthesize, type Score } from './synth';

/** Bumped whenever the bytes of a format change, so entity tags change with them. */
const AUDIO_FILE_VERSION = 1;
const WAV_HEADER_BYTES = 44;
/** Chunks handed to the response: large enough to be cheap, small enough to stream. */
const CHUNK_BYTES = 64 * 1024;
/** Index passes give way to other requests after this many frames. */
const FRAMES_PER_SLICE = 64;

/** What the file says about itself (FLAC and Ogg comments). */
export interface AudioDescription {
  id: string;
  serial: string;
  triggerName: string;
}

export interface AudioFile {
  readonly format: AudioFormat;
  readonly size: number;
  /** A strong entity tag: the same bytes always have the same tag. */
  readonly etag: string;
  /** Samples the file decodes to (AAC: whole frames of 1024, so up to 1023 more than the recording). */
  readonly samples: number;
  /** Bytes [start, end) in chunks of about 64 KB, made as they are asked for. */
  chunks(start: number, end: number): Generator<Uint8Array>;
}

/** A file as segments: `offset(i)` for i in 0…count (offset(count) = size), `segment(i)` the bytes. */
interface Segments {
  count: number;
  offset(i: number): number;
  segment(i: number): Uint8Array;
}

function* readSegments(segments: Segments, start: number, end: number): Generator<Uint8Array> {
  // The segment holding `start`: the last one whose offset is not after it.
  let lo = 0;
  let hi = segments.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segments.offset(mid) <= start) lo = mid;
    else hi = mid - 1;
  }
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = (): Uint8Array => {
    const out = new Uint8Array(pendingBytes);
    let at = 0;
    for (const part of pending) {
      out.set(part, at);
      at += part.length;
    }
    pending = [];
    pendingBytes = 0;
    return out;
  };
  for (let i = lo; i < segments.count && segments.offset(i) < end; i++) {
    const offset = segments.offset(i);
    const bytes = segments.segment(i);
    if (bytes.length !== segments.offset(i + 1) - offset) {
      // Never send a file whose bytes disagree with the length already announced.
      throw new Error(
        `Audio segment ${i} has ${bytes.length} bytes, not ${segments.offset(i + 1) - offset}.`,
      );
    }
    const part = bytes.subarray(Math.max(0, start - offset), Math.min(bytes.length, end - offset));
    pending.push(part);
    pendingBytes += part.length;
    if (pendingBytes >= CHUNK_BYTES) yield flush();
  }
  if (pendingBytes > 0) yield flush();
}

function makeFile(format: AudioFormat, id: string, samples: number, segments: Segments): AudioFile {
  const size = segments.offset(segments.count);
  const tag = hashString(`${id}|${format}|${AUDIO_FILE_VERSION}|${size}`, 0x0a0d10).toString(16);
  return {
    format,
    size,
    etag: `"${tag.padStart(8, '0')}-${size.toString(16)}"`,
    samples,
    chunks: (start, end) => readSegments(segments, Math.max(0, start), Math.min(size, end)),
  };
}

const frameCount = (samples: number, frame: number): number => Math.ceil(samples / frame);

/** The samples of FLAC/WAV frame i. */
function frameSamples(score: Score, i: number): Int16Array {
  const first = i * FLAC_BLOCK_SIZE;
  const n = Math.min(FLAC_BLOCK_SIZE, score.totalSamples - first);
  return synthesize(score, first, new Int16Array(n));
}

/** Prefix sums of segment lengths: offsets[i] is where segment i starts. */
function offsetsOf(lengths: ArrayLike<number>): Float64Array {
  const offsets = new Float64Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) offsets[i + 1] = (offsets[i] as number) + (lengths[i] as number);
  return offsets;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** 16-bit samples as little-endian bytes (WAV's data, FLAC's MD5 input). */
function littleEndian(pcm: Int16Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let j = 0; j < pcm.length; j++) view.setInt16(j * 2, pcm[j] as number, true);
  return out;
}

const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// --- WAV ----------------------------------------------------------------------------------------

export function wavHeader(samples: number): Uint8Array {
  const dataBytes = samples * 2;
  const out = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  return out;
}

/** The largest recording a WAV file can hold (its sizes are 32-bit). */
export const MAX_WAV_SAMPLES = Math.floor((0xffffffff - 36) / 2);

function wavFile(id: string, score: Score): AudioFile {
  const samples = score.totalSamples;
  const frames = frameCount(samples, FLAC_BLOCK_SIZE);
  const header = wavHeader(samples);
  return makeFile('WAV', id, samples, {
    count: frames + 1,
    offset: (i) => (i === 0 ? 0 : WAV_HEADER_BYTES + Math.min(samples, (i - 1) * FLAC_BLOCK_SIZE) * 2),
    segment: (i) => (i === 0 ? header : littleEndian(frameSamples(score, i - 1))),
  });
}

// --- FLAC and Ogg FLAC --------------------------------------------------------------------------

const VENDOR = 'FieldDesk demo service';

function comments(description: AudioDescription, score: Score): string[] {
  return [
    `TITLE=${description.triggerName}`,
    `ARTIST=${description.serial}`,
    `DATE=${formatServiceTime(score.startSec * 1000)}`,
  ];
}

interface FlacIndex {
  lengths: Uint32Array;
  min: number;
  max: number;
  /** MD5 of the samples, as FLAC's STREAMINFO carries it. */
  md5: Uint8Array;
}

async function flacIndex(score: Score): Promise<FlacIndex> {
  const frames = frameCount(score.totalSamples, FLAC_BLOCK_SIZE);
  const lengths = new Uint32Array(frames);
  let min = Infinity;
  let max = 0;
  const md5 = createHash('md5');
  for (let i = 0; i < frames; i++) {
    if (i > 0 && i % FRAMES_PER_SLICE === 0) await yieldToOthers();
    const samples = frameSamples(score, i);
    md5.update(littleEndian(samples));
    const length = encodeFlacFrame(samples, i, SAMPLE_RATE).length;
    lengths[i] = length;
    min = Math.min(min, length);
    max = Math.max(max, length);
  }
  return { lengths, min: Number.isFinite(min) ? min : 0, max, md5: new Uint8Array(md5.digest()) };
}

function streamInfo(score: Score, index: FlacIndex): StreamInfo {
  return {
    sampleRate: SAMPLE_RATE,
    totalSamples: score.totalSamples,
    minFrameBytes: index.min,
    maxFrameBytes: index.max,
    md5: index.md5,
  };
}

async function flacFile(id: string, score: Score, description: AudioDescription): Promise<AudioFile> {
  const index = await flacIndex(score);
  const header = flacHeader(streamInfo(score, index), VENDOR, comments(description, score));
  const offsets = offsetsOf([header.length, ...index.lengths]);
  return makeFile('FLAC', id, score.totalSamples, {
    count: index.lengths.length + 1,
    offset: (i) => offsets[i] as number,
    segment: (i) => (i === 0 ? header : encodeFlacFrame(frameSamples(score, i - 1), i - 1, SAMPLE_RATE)),
  });
}

async function oggFile(id: string, score: Score, description: AudioDescription): Promise<AudioFile> {
  const index = await flacIndex(score);
  const serial = hashString(id, 0x0a6600) | 0;
  const info = streamInfoBlock(streamInfo(score, index), false);
  const headers = [
    oggPage({ flags: OGG_BOS, granule: 0, serial, sequence: 0, packet: flacOggFirstPacket(info, 1) }),
    oggPage({
      flags: 0,
      granule: 0,
      serial,
      sequence: 1,
      packet: vorbisCommentBlock(VENDOR, comments(description, score), true),
    }),
  ];
  const frames = index.lengths.length;
  const offsets = offsetsOf([
    ...headers.map((page) => page.length),
    ...Array.from(index.lengths, oggPageLength),
  ]);
  return makeFile('OGG', id, score.totalSamples, {
    count: frames + headers.length,
    offset: (i) => offsets[i] as number,
    segment: (i) => {
      if (i < headers.length) return headers[i] as Uint8Array;
      const frame = i - headers.length;
      return oggPage({
        flags: frame === frames - 1 ? OGG_EOS : 0,
        granule: Math.min(score.totalSamples, (frame + 1) * FLAC_BLOCK_SIZE),
        serial,
        sequence: i,
        packet: encodeFlacFrame(frameSamples(score, frame), frame, SAMPLE_RATE),
      });
    },
  });
}

// --- AAC ----------------------------------------------------------------------------------------

function aacFile(id: string, score: Score): AudioFile {
  const layout = aacLayout(score);
  const offsets = offsetsOf(layout.lengths);
  return makeFile('AAC', id, layout.lengths.length * 1024, {
    count: layout.lengths.length,
    offset: (i) => offsets[i] as number,
    segment: (i) => layout.frame(i),
  });
}

/** The recording's file in a format. FLAC and Ogg take one encoding pass first. */
export async function audioFile(
  format: AudioFormat,
  description: AudioDescription,
  score: Score,
): Promise<AudioFile> {
  switch (format) {
    case 'WAV':
      return wavFile(description.id, score);
    case 'FLAC':
      return flacFile(description.id, score, description);
    case 'OGG':
      return oggFile(description.id, score, description);
    case 'AAC':
      return aacFile(description.id, score);
  }
}
