/**
 * The audio endpoints: the recording list (`GET /data/audio`), a recording's audio
 * (`GET /data/audio/{recordingId}`) and an event's audio (`GET /data/events/audio/{id}`), in FLAC
 * (default), WAV, AAC or OGG. Bodies stream as they are made, answer byte ranges (206, 416) so an
 * interrupted download can resume, and can be cut short on purpose for tests (`audio` options).
 */
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { AUDIO_FORMATS, type AudioFormat } from '../../shared/audio';
import { DATA_ENDPOINT_LIMITS, SERVICE_ERROR_CODES } from '../../shared/service/limits';
import type { DataContext } from '../data/context';
import { failureResponse, parseChoice, parseDataQuery } from '../data/params';
import type { DemoAudioOptions } from '../options';
import { errorResponse, type RouteTable } from '../responses';
import { audioFile, type AudioFile } from './files';
import { AudioRecordings, MAX_LONG_RECORDING_BYTES, wireRecording, type AudioRecording } from './recordings';
import type { Score } from './synth';

/** Files and scores kept for the next request (ranges of one download come one after another). */
const CACHED_FILES = 16;

export type ByteRange =
  { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * A `Range` header against a body of `size` bytes (RFC 9110, 14.2): one range `a-b`, `a-` or `-n`;
 * the end is exclusive in the result. Anything else (several ranges, other units, bad syntax) is
 * ignored and the whole body is sent, as the RFC allows.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // a-b with b < a is invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end: last === '' ? size : Math.min(Number(last) + 1, size) };
}

/** Keeps the last `limit` entries, the most recently used last. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}

  get(key: string, make: () => V): V {
    let value = this.entries.get(key);
    if (value === undefined) value = make();
    else this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/** Checks the audio options, as they may come from plain JavaScript or the command line. */
export function checkAudioOptions(options: DemoAudioOptions = {}): DemoAudioOptions {
  const { cutAfterBytes, longRecordingBytes, holdAfterBytes } = options;
  if (cutAfterBytes !== undefined && (!Number.isSafeInteger(cutAfterBytes) || cutAfterBytes < 0)) {
    throw new RangeError(`audio.cutAfterBytes must be a whole number of bytes, not ${cutAfterBytes}.`);
  }
  if (holdAfterBytes !== undefined && (!Number.isSafeInteger(holdAfterBytes) || holdAfterBytes < 0)) {
    throw new RangeError(`audio.holdAfterBytes must be a whole number of bytes, not ${holdAfterBytes}.`);
  }
  if (
    longRecordingBytes !== undefined &&
    (!Number.isSafeInteger(longRecordingBytes) ||
      longRecordingBytes < 1 ||
      longRecordingBytes > MAX_LONG_RECORDING_BYTES)
  ) {
    throw new RangeError(
      `audio.longRecordingBytes must be a whole number from 1 to ${MAX_LONG_RECORDING_BYTES} (a WAV file's limit), not ${longRecordingBytes}.`,
    );
  }
  return options;
}

export class AudioService {
  readonly recordings: AudioRecordings;
  private readonly files = new Recent<Promise<AudioFile>>(CACHED_FILES);
  private readonly scores = new Recent<Score>(CACHED_FILES);
  /** Recording + format of the answers already cut (`cutOnce`). */
  private readonly cut = new Set<string>();
  /** Resolves when the test releases held answers (`holdAfterBytes`); null once released. */
  private held: { released: Promise<void>; release: () => void } | null = null;

  constructor(
    context: DataContext,
    public options: DemoAudioOptions,
  ) {
    checkAudioOptions(options);
    this.recordings = new AudioRecordings(context, {
      longRecordingBytes: options.longRecordingBytes,
      createdAtMs: context.now(),
    });
  }

  /** The recording's file in a format, made once and kept while it is in use. */
  file(recording: AudioRecording, format: AudioFormat): Promise<AudioFile> {
    const key = `${recording.id}|${format}`;
    const file = this.files.get(key, () => {
      const score = this.scores.get(recording.id, () => this.recordings.score(recording));
      return audioFile(
        format,
        {
          id: recording.id,
          serial: recording.instrument.wire.serialNumber,
          triggerName: recording.triggerName,
        },
        score,
      );
    });
    file.catch(() => this.files.delete(key));
    return file;
  }

  /**
   * Where answers pause until released (`holdAfterBytes`), with the promise they wait on; null
   * when they do not (never held, or released).
   */
  holdAt(): { at: number; released: Promise<void> } | null {
    const at = this.options.holdAfterBytes;
    if (at === undefined) return null;
    if (this.held === null) {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      this.held = { released, release };
    }
    return { at, released: this.held.released };
  }

  /** Lets every held answer go on, and the later ones not pause at all. */
  release(): void {
    this.options = { ...this.options, holdAfterBytes: undefined };
    this.held?.release();
    this.held = null;
  }

  /** Where to cut an answer of `length` bytes, or null to send it whole. */
  cutAt(recording: AudioRecording, format: AudioFormat, length: number): number | null {
    const limit = this.options.cutAfterBytes;
    if (limit === undefined || length <= limit) return null;
    if (this.options.cutOnce) {
      const key = `${recording.id}|${format}`;
      if (this.cut.has(key)) return null;
      this.cut.add(key);
    }
    return limit;
  }
}

/** Resolves once everything written to the response has left for the network (or it closed). */
async function drained(outgoing: HttpBindings['outgoing']): Promise<void> {
  while (!outgoing.destroyed && !(outgoing.headersSent && outgoing.writableLength === 0)) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * The body: the file's bytes as they are asked for. Cut after `cutAt` bytes: over a socket, the
 * connection closes once those bytes have left (as a dropped download); without one
 * (`app.request()`), the body fails there.
 */
function bodyStream(
  chunks: Generator<Uint8Array>,
  cutAt: number | null,
  node: Partial<HttpBindings> | undefined,
  hold: { at: number; released: Promise<void> } | null = null,
): ReadableStream<Uint8Array> {
  let sent = 0;
  let stop: (() => void) | null = null;
  /** The rest of a chunk a hold stopped short of. */
  let pending: Uint8Array | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Held part-way until the test releases it (`holdAfterBytes`).
      if (hold !== null && sent >= hold.at) {
        await hold.released;
        hold = null;
      }
      if (cutAt !== null && sent >= cutAt) {
        chunks.return(undefined);
        if (node?.incoming && node.outgoing) {
          await drained(node.outgoing);
          node.incoming.socket.destroy();
          // @hono/node-server cancels the body when the response closes.
          await new Promise<void>((resolve) => (stop = resolve));
          return;
        }
        controller.error(
          new Error(`The demo service cut the download after ${cutAt} bytes (audio.cutAfterBytes).`),
        );
        return;
      }
      let value = pending;
      pending = null;
      if (value === null) {
        const next = chunks.next();
        if (next.done) {
          controller.close();
          return;
        }
        value = next.value;
      }
      const limit = Math.min(cutAt ?? Infinity, hold?.at ?? Infinity);
      const chunk = sent + value.length > limit ? value.subarray(0, limit - sent) : value;
      // What a hold stops short of is sent after the release; what a cut stops short of, never.
      if (chunk.length < value.length && (cutAt === null || sent + chunk.length < cutAt)) {
        pending = value.subarray(chunk.length);
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      chunks.return(undefined);
      stop?.();
    },
  });
}

async function answer(c: Context, service: AudioService, id: string, eventsOnly: boolean): Promise<Response> {
  const format = parseChoice(c, 'format', AUDIO_FORMATS, 'FLAC');
  if (!format.ok) return failureResponse(c, format);
  const recording = service.recordings.find(id, eventsOnly);
  if (recording === null) {
    const what = eventsOnly ? 'No event audio' : 'No audio recording';
    return errorResponse(c, 404, SERVICE_ERROR_CODES.notFound, `${what} with id ${id.slice(0, 120)}.`);
  }
  const file = await service.file(recording, format.value);
  const headers = new Headers({ 'Content-Type': 'application/octet-stream', ETag: file.etag });
  let range: ByteRange = { kind: 'whole' };
  if (service.options.ranges !== false) {
    headers.set('Accept-Ranges', 'bytes');
    const ifRange = c.req.header('If-Range');
    // A range of another version of the file would not fit the part already downloaded.
    if (ifRange === undefined || ifRange.trim() === file.etag)
      range = parseByteRange(c.req.header('Range'), file.size);
  }
  if (range.kind === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${file.size}`);
    c.header('Accept-Ranges', 'bytes');
    return errorResponse(
      c,
      416,
      SERVICE_ERROR_CODES.rangeNotSatisfiable,
      `The range ${c.req.header('Range')?.slice(0, 60)} is outside the ${file.size} bytes of this audio.`,
    );
  }
  const [start, end] = range.kind === 'range' ? [range.start, range.end] : [0, file.size];
  if (range.kind === 'range') headers.set('Content-Range', `bytes ${start}-${end - 1}/${file.size}`);
  headers.set('Content-Length', String(end - start));
  const status = range.kind === 'range' ? 206 : 200;
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });
  const node = c.env as Partial<HttpBindings> | undefined;
  const body = bodyStream(
    file.chunks(start, end),
    service.cutAt(recording, format.value, end - start),
    node,
    service.holdAt(),
  );
  return new Response(body, { status, headers });
}

export function audioRoutes(context: DataContext, service: AudioService): RouteTable {
  return {
    'GET /data/audio': (c) => {
      const query = parseDataQuery(c, context.state, DATA_ENDPOINT_LIMITS.audio);
      if (!query.ok) return failureResponse(c, query);
      const { startMs, endMs } = query.value;
      return c.json(
        query.value.instruments.flatMap((instrument) =>
          service.recordings.list(instrument, startMs, endMs).map(wireRecording),
        ),
      );
    },
    'GET /data/audio/:recordingId': (c) => answer(c, service, c.req.param('recordingId') ?? '', false),
    'GET /data/events/audio/:id': (c) => answer(c, service, c.req.param('id') ?? '', true),
  };
}
