/**
 * A small loopback service for the audio tests: it lists one instrument (with the Audio add-on, or
 * without) and answers `/data/audio/:id` and `/data/events/audio/:id` with one body, each request as
 * the test scripts it — whole, cut off part-way, held part-way until released, ignoring a range, or
 * refused — with range support on or off.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What one audio request gets. Byte positions count from the start of the whole body. */
export type AudioAnswer =
  | { kind: 'whole' }
  /** The body (from where the range asked) up to `at`, then the connection is dropped. */
  | { kind: 'cut'; at: number }
  /** The body up to `at`, then nothing until `release()`, then the rest. */
  | { kind: 'hold'; at: number }
  /** A 200 with the whole body even when a range was asked for. */
  | { kind: 'ignoreRange' }
  | { kind: 'refuse'; status: number; body: unknown };

export interface AudioRequestSeen {
  path: string;
  range: string | null;
  ifRange: string | null;
  apiKey: string | null;
}

export interface AudioServerOptions {
  body: Buffer;
  ranges: boolean;
  /** The n-th audio request's answer (0 first); `whole` when absent. */
  answers?: AudioAnswer[];
  /** Whether the instrument's subscription names the Audio add-on (default yes). */
  audioAddon?: boolean;
  /** What `GET /data/audio` and `GET /data/events` answer (default: nothing). */
  audioList?: unknown[];
  events?: unknown[];
  serial?: string;
}

export interface AudioServer {
  baseUrl: string;
  body: Buffer;
  sha256: string;
  audioRequests: AudioRequestSeen[];
  /** Paths of the list requests (`/data/audio`, `/data/events`) with their queries. */
  listRequests: string[];
  /** Lets every held answer go on, those still to come too. */
  release(): void;
  close(): Promise<void>;
}

export const TEST_SERIAL = 'QT100001';

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A body of random bytes (incompressible, like audio) of `size`. */
export function audioBody(size: number): Buffer {
  return randomBytes(size);
}

const CHUNK = 64 * 1024;

function instrument(serial: string, addon: boolean) {
  return {
    type: 'Noise',
    serialNumber: serial,
    model: 'CR:900',
    name: `Instrument ${serial}`,
    subscription: { status: 'Active', tier: 'Pro', addons: addon ? ['Audio'] : [] },
    position: { lat: 51.5, long: -0.1 },
    feature: ['SIC'],
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes `bytes` in chunks, waiting for the socket to drain; resolves once all were handed to the kernel. */
async function writeAll(res: ServerResponse, bytes: Buffer): Promise<void> {
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    const chunk = bytes.subarray(offset, offset + CHUNK);
    const flushed = new Promise<void>((resolve) => res.write(chunk, () => resolve()));
    await flushed;
  }
}

export async function startAudioServer(options: AudioServerOptions): Promise<AudioServer> {
  const { body } = options;
  const serial = options.serial ?? TEST_SERIAL;
  const audioRequests: AudioRequestSeen[] = [];
  const listRequests: string[] = [];
  const sockets = new Set<Socket>();
  let releaseHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (releaseHeld = resolve));

  async function answerAudio(req: IncomingMessage, res: ServerResponse, answer: AudioAnswer): Promise<void> {
    if (answer.kind === 'refuse') return json(res, answer.status, answer.body);
    const asked = options.ranges && answer.kind !== 'ignoreRange' ? req.headers.range : undefined;
    const match = asked === undefined ? null : /^bytes=(\d+)-$/.exec(asked);
    const from = match === null ? 0 : Number(match[1]);
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      ETag: '"body-v1"',
      ...(options.ranges ? { 'Accept-Ranges': 'bytes' } : {}),
    };
    if (match !== null && from >= body.length) {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${body.length}` });
      return void res.end();
    }
    if (match !== null) {
      res.writeHead(206, {
        ...headers,
        'Content-Length': String(body.length - from),
        'Content-Range': `bytes ${from}-${body.length - 1}/${body.length}`,
      });
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
    }
    if (answer.kind === 'cut' || answer.kind === 'hold') {
      await writeAll(res, body.subarray(from, Math.max(from, answer.at)));
      if (answer.kind === 'cut') return void res.socket?.destroy();
      await held;
    }
    const start = answer.kind === 'hold' ? Math.max(from, answer.at) : from;
    if (res.destroyed) return;
    await writeAll(res, body.subarray(start));
    res.end();
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/v1/control/instruments')
      return json(res, 200, [instrument(serial, options.audioAddon ?? true)]);
    if (path === `/v1/control/instruments/${serial}`)
      return json(res, 200, instrument(serial, options.audioAddon ?? true));
    if (path === '/v1/data/audio' || path === '/v1/data/events') {
      listRequests.push((req.url ?? '').slice('/v1'.length));
      return json(res, 200, (path.endsWith('audio') ? options.audioList : options.events) ?? []);
    }
    if (/^\/v1\/data\/(events\/)?audio\/[^/]+$/.test(path)) {
      const index = audioRequests.length;
      audioRequests.push({
        path: path.slice('/v1'.length),
        range: req.headers.range ?? null,
        ifRange: (req.headers['if-range'] as string | undefined) ?? null,
        apiKey: (req.headers['x-api-key'] as string | undefined) ?? null,
      });
      void answerAudio(req, res, options.answers?.[index] ?? { kind: 'whole' }).catch(() => res.destroy());
      return;
    }
    json(res, 404, { error: 'NotFound', description: `No route ${path}.` });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    body,
    sha256: sha256(body),
    audioRequests,
    listRequests,
    release: () => releaseHeld(),
    close: () =>
      new Promise<void>((resolve) => {
        releaseHeld();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
