/**
 * Helpers of the webhook tests: receivers on 127.0.0.1 (never any other address), and a demo
 * service that only delivers to this computer and checks its triggers only when told to.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import { createDemo, DEFAULT_DEMO_KEY, type Demo, type DemoServiceOptions } from '../../../src/simulator';
import type { WireDemoDelivery, WireWebhook } from '../../../src/shared/service/webhooks';
import type { WireInstrument, WireInstrumentStatus } from '../../../src/shared/service/wire';
import { call, manualClock } from './helpers';

export const key = DEFAULT_DEMO_KEY;

export interface Received {
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  raw: Buffer;
  json: unknown;
}

/** What the receiver does with the n-th request (0-based): answer a status, or never answer. */
export type Behaviour = (index: number) => number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves when `count` requests have arrived. */
  receivedCount(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

const openReceivers: Receiver[] = [];
const openDemos: Demo[] = [];

afterEach(async () => {
  await Promise.all(openDemos.splice(0).map((demo) => demo.close()));
  await Promise.all(openReceivers.splice(0).map((receiver) => receiver.close()));
});

/** An HTTP receiver on 127.0.0.1 and a random port; closed after the test. */
export async function startReceiver(behaviour: Behaviour = () => 200, path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<{ count: number; resolve: (all: Received[]) => void }> = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown = null;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = null;
      }
      const index = received.length;
      received.push({ headers: req.headers, raw, json });
      const answer = behaviour(index);
      if (answer === 'hang') hanging.add(res);
      else res.writeHead(answer, { 'Content-Type': 'text/plain' }).end('ok');
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...received]);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    receivedCount: (count) =>
      received.length >= count
        ? Promise.resolve([...received])
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      })),
  };
  openReceivers.push(receiver);
  return receiver;
}

/** A loopback port nothing listens on (a receiver that was started and closed again). */
export async function closedPortUrl(): Promise<string> {
  const receiver = await startReceiver();
  await receiver.close();
  return receiver.url;
}

/**
 * A demo service on a manual clock that accepts http://127.0.0.1 addresses, delivers only to this
 * computer, checks triggers only on `webhooks.tick()`, times out after 10 s and retries at once.
 */
export function startDemo(options: DemoServiceOptions = {}) {
  const clock = manualClock();
  const demo = createDemo({
    now: clock.now,
    rateLimit: 100_000,
    allowLoopbackWebhooks: true,
    webhookDelivery: 'loopbackOnly',
    ...options,
    webhookTiming: { timeoutMs: 10_000, retryDelayMs: 1, checkIntervalMs: 0, ...options.webhookTiming },
  });
  openDemos.push(demo);
  return { ...demo, clock };
}

type App = Demo['app'];

export async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

export async function addWebhook(
  app: App,
  request: Record<string, unknown>,
  apiKey = key,
): Promise<WireWebhook> {
  const response = await call(app, 'POST', '/webhooks', { key: apiKey, body: JSON.stringify(request) });
  if (response.status !== 201)
    throw new Error(`POST /webhooks answered ${response.status}: ${await response.text()}`);
  return json<WireWebhook>(response);
}

export async function sendTest(app: App, webhookId: string, apiKey = key): Promise<WireDemoDelivery> {
  const response = await call(app, 'POST', `/demo/webhooks/${webhookId}/test`, { key: apiKey });
  if (response.status !== 202) throw new Error(`test answered ${response.status}: ${await response.text()}`);
  return json<WireDemoDelivery>(response);
}

export interface FleetEntry {
  wire: WireInstrument;
  status: WireInstrumentStatus;
}

export async function fleetOf(app: App, apiKey = key): Promise<FleetEntry[]> {
  const listed = await json<WireInstrument[]>(call(app, 'GET', '/control/instruments', { key: apiKey }));
  return Promise.all(
    listed.map(async (wire) => ({
      wire,
      status: await json<WireInstrumentStatus>(
        call(app, 'GET', `/control/instruments/${wire.serialNumber}/status`, { key: apiKey }),
      ),
    })),
  );
}

export function pick(
  fleet: readonly FleetEntry[],
  what: string,
  predicate: (entry: FleetEntry) => boolean,
): string {
  const found = fleet.find(predicate);
  if (found === undefined) throw new Error(`The demo fleet has no ${what}.`);
  return found.wire.serialNumber;
}
