/**
 * Plays library files: a web `Response` for a request of one library key, with HTTP range support
 * (`Accept-Ranges`, `206` with `Content-Range`, `416`) so an `<audio>` element can seek. Only files
 * in the library are served — the key is looked up in the index, the path comes from there, never
 * from the request. Electron's `protocol.handle` (`fielddesk-audio:`) and the browser harness
 * (`/audio-library/:key`) both answer with it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import parseRange from 'range-parser';
import { isLibraryKey, type AudioFormat } from '../../../shared/audio';
import type { AudioLibrary } from './library';
import { silentLogger, type Logger } from '../core/log';

const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  FLAC: 'audio/flac',
  WAV: 'audio/wav',
  AAC: 'audio/aac',
  OGG: 'audio/ogg',
};

/** What a request to play needs to carry: its method and its headers (a web `Request` has both). */
export interface PlayRequest {
  method: string;
  headers: Headers;
}

const BASE_HEADERS = {
  'Accept-Ranges': 'bytes',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  // Opened on its own, the file is media and nothing else.
  'Content-Security-Policy': "default-src 'none'; sandbox",
};

function refuse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export async function serveLibraryFile(
  library: Pick<AudioLibrary, 'item'>,
  key: string,
  request: PlayRequest,
  log: Logger = silentLogger,
): Promise<Response> {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'Only GET and HEAD.', { Allow: 'GET, HEAD' });
  if (!isLibraryKey(key)) return refuse(404, 'Not in the library.');
  let item;
  try {
    item = library.item(key);
  } catch (error) {
    log.warn('audio library unreadable for playing', { error });
    return refuse(503, 'The library cannot be read now.');
  }
  if (item === null) return refuse(404, 'Not in the library.');
  let size: number;
  try {
    const info = await stat(item.path);
    if (!info.isFile()) return refuse(404, 'The file is missing.');
    size = info.size;
  } catch {
    return refuse(404, 'The file is missing.');
  }

  const type = { 'Content-Type': CONTENT_TYPES[item.format] };
  let start = 0;
  let end = size - 1;
  let status = 200;
  const asked = request.headers.get('Range');
  if (asked !== null && size > 0) {
    const ranges = parseRange(size, asked, { combine: true });
    if (ranges === -1) {
      return refuse(416, 'Range not satisfiable.', { ...BASE_HEADERS, 'Content-Range': `bytes */${size}` });
    }
    // A malformed header, another unit or several ranges: the whole file, as HTTP allows.
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
      start = ranges[0]!.start;
      end = ranges[0]!.end;
      status = 206;
    }
  }
  const length = size === 0 ? 0 : end - start + 1;
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    ...type,
    'Content-Length': String(length),
    ...(status === 206 ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  };
  if (method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(item.path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
