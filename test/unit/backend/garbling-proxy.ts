/**
 * A small HTTP proxy between a client (or a whole backend) and the demo service, that spoils
 * answers on the way as a bad link or a broken middlebox does: garbled bytes, answers that drip,
 * stall or never end. A test sets `fault` and clears it to let the service heal.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Spoils one answer: gets the request's URL and the service's whole answer, and either writes the
 * response itself (returns true) or lets the proxy pass the answer on unchanged (returns false).
 */
export type Fault = (url: URL, answer: { status: number; body: Buffer }, res: ServerResponse) => boolean;

export interface GarblingProxy {
  /** The proxy's `/v1` address, to use in place of the service's. */
  baseUrl: string;
  /** Path and query of every request that reached the proxy. */
  requests: string[];
  fault: Fault | null;
  close(): Promise<void>;
}

export async function startGarblingProxy(serviceBaseUrl: string): Promise<GarblingProxy> {
  const target = new URL(serviceBaseUrl);
  const sockets = new Set<Socket>();
  const proxy: GarblingProxy = {
    baseUrl: '',
    requests: [],
    fault: null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', target.origin);
    proxy.requests.push(`${url.pathname}${url.search}`);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection'].includes(name)) headers[name] = value;
    }
    const upstream = await fetch(url, { method: req.method ?? 'GET', headers, redirect: 'manual' });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (proxy.fault?.(url, { status: upstream.status, body }, res) === true) return;
    res.writeHead(upstream.status, {
      'Content-Type': upstream.headers.get('content-type') ?? 'application/json',
      'Content-Length': body.byteLength,
    });
    res.end(body);
  };
  const server = createServer((req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.baseUrl = `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`;
  return proxy;
}

/** Sends `body` in place of the service's answer, with the service's status. */
export function sendInstead(res: ServerResponse, status: number, body: Buffer): true {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.byteLength });
  res.end(body);
  return true;
}

/**
 * The answer with its `n`-th occurrences (0 first) of `find` replaced by `replace(original)`: a
 * garbling of chosen records of a list, in bytes so invalid UTF-8 can be put in.
 */
export function replaceOccurrences(
  body: Buffer,
  find: string,
  which: readonly number[],
  replace: (original: Buffer) => Buffer,
): Buffer {
  const needle = Buffer.from(find);
  const pieces: Buffer[] = [];
  let from = 0;
  let occurrence = 0;
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + needle.length)) {
    if (which.includes(occurrence++)) {
      pieces.push(body.subarray(from, at), replace(body.subarray(at, at + needle.length)));
      from = at + needle.length;
    }
  }
  pieces.push(body.subarray(from));
  return Buffer.concat(pieces);
}
