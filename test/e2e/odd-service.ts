/**
 * A service that answers like the demo service except where a test says otherwise: a loopback
 * proxy in front of it that rewrites the JSON of the instrument list, an instrument and an
 * instrument's status. It lets an end-to-end test send what real services sometimes send (an
 * item that cannot be read, an impossible level, a very long name) through the real client,
 * its tolerant reading and the UI. It also holds the requests a test names until it lets them go
 * (a read "still running" without a clock). Everything else passes through untouched.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface Rewrites {
  /** The whole list, after `instrument` was applied to each item (add or remove items here). */
  list?: (items: Json[]) => unknown[];
  /** An instrument, in the list and on its own. */
  instrument?: (item: Json) => unknown;
  status?: (serial: string, status: Json) => unknown;
  /** Holds a request until the promise it answers settles (null: passed at once); path and query. */
  hold?: (path: string, query: URLSearchParams) => Promise<void> | null;
}

export interface OddService {
  baseUrl: string;
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the request: the proxy's own fetch sets them. */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

const LIST = /^\/v1\/control\/instruments\/?$/;
const ONE = /^\/v1\/control\/instruments\/([^/]+)\/?$/;
const STATUS = /^\/v1\/control\/instruments\/([^/]+)\/status\/?$/;

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function rewrite(path: string, body: unknown, rewrites: Rewrites): unknown {
  const instrument = rewrites.instrument ?? ((item: Json) => item);
  if (LIST.test(path) && Array.isArray(body)) {
    const items = (body as Json[]).map((item) => instrument(item) as Json);
    return rewrites.list ? rewrites.list(items) : items;
  }
  const status = STATUS.exec(path);
  if (status && rewrites.status) return rewrites.status(decodeURIComponent(status[1]!), body as Json);
  if (ONE.test(path)) return instrument(body as Json);
  return body;
}

/** Starts the proxy on a random loopback port in front of `target` (a demo service's base URL). */
export async function startOddService(target: string, rewrites: Rewrites): Promise<OddService> {
  const origin = new URL(target).origin;
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', origin);
      const path = url.pathname;
      await rewrites.hold?.(path, url.searchParams);
      const method = request.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : await bodyOf(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers.set(name, value);
      }
      const answer = await fetch(`${origin}${request.url ?? '/'}`, { method, headers, body });
      let text = await answer.text();
      if (method === 'GET' && answer.ok && text !== '') {
        text = JSON.stringify(rewrite(path, JSON.parse(text), rewrites));
      }
      const passed: Record<string, string> = {};
      for (const name of ['content-type', 'retry-after']) {
        const value = answer.headers.get(name);
        if (value !== null) passed[name] = value;
      }
      response.writeHead(answer.status, passed);
      response.end(text);
    })().catch(() => {
      response.writeHead(502).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${new URL(target).pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
