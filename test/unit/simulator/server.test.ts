import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_KEY, startDemoService, type RunningDemoService } from '../../../src/simulator';
import { SCOPES } from '../../../src/shared/service/scopes';
import type { WireInstrument } from '../../../src/shared/service/wire';

const running: RunningDemoService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

async function start(options: Parameters<typeof startDemoService>[0] = {}): Promise<RunningDemoService> {
  const service = await startDemoService(options);
  running.push(service);
  return service;
}

/** A GET over a keep-alive agent; the socket stays open after the answer. */
function getKeptAlive(url: string, agent: Agent, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: { 'X-Api-Key': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Rejects if `promise` has not settled within `ms`: close() must not wait for idle sockets to time out. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

describe('startDemoService', () => {
  it('serves the interface over HTTP on a random loopback port with the default key', async () => {
    const service = await start({ port: 0 });
    expect(service.port).toBeGreaterThan(0);
    expect(service.baseUrl).toBe(`http://127.0.0.1:${service.port}/v1`);
    expect(service.defaultKey).toBe(DEFAULT_DEMO_KEY);
    expect(service.keys).toEqual({ [DEFAULT_DEMO_KEY]: [...SCOPES] });

    const listed = await fetch(`${service.baseUrl}/control/instruments`, {
      headers: { 'X-Api-Key': DEFAULT_DEMO_KEY },
    });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toMatch(/^application\/json/);
    const instruments = (await listed.json()) as WireInstrument[];
    expect(instruments.length).toBeGreaterThanOrEqual(9);

    const renamed = await fetch(`${service.baseUrl}/control/instruments/${instruments[0]?.serialNumber}`, {
      method: 'PUT',
      headers: { 'X-Api-Key': DEFAULT_DEMO_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Over the wire' }),
    });
    expect(renamed.status).toBe(204);

    const unauthorised = await fetch(`${service.baseUrl}/control/instruments`);
    expect(unauthorised.status).toBe(401);
  });

  it('uses the given keys and has no default key then', async () => {
    const service = await start({ keys: { reader: ['instruments:read'] } });
    expect(service.defaultKey).toBeNull();
    expect(service.keys).toEqual({ reader: ['instruments:read'] });
    const response = await fetch(`${service.baseUrl}/control/instruments`, {
      headers: { 'X-Api-Key': DEFAULT_DEMO_KEY },
    });
    expect(response.status).toBe(401);
  });

  it('closes promptly with a keep-alive connection and a half-sent request open, then refuses connections', async () => {
    const service = await startDemoService({ port: 0 });
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const url = `${service.baseUrl}/control/instruments`;
    const halfSent = connect(service.port, '127.0.0.1');
    const connected = new Promise<void>((resolve) => halfSent.once('connect', () => resolve()));
    try {
      expect(await getKeptAlive(url, agent, DEFAULT_DEMO_KEY)).toBe(200);
      // A request whose headers never finish: server.close() alone would wait for it (minutes).
      await connected;
      halfSent.write('GET /v1/control/instruments HTTP/1.1\r\nHost: demo\r\n');
      const halfSentClosed = new Promise<void>((resolve) => halfSent.once('close', () => resolve()));
      halfSent.on('error', () => undefined); // a reset is an acceptable way to be closed

      await within(service.close(), 2000);
      await within(halfSentClosed, 2000);
      await expect(fetch(url)).rejects.toThrow();
      // Closing again is harmless.
      await within(service.close(), 1000);
    } finally {
      halfSent.destroy();
      agent.destroy();
    }
  });

  it('rejects when the port is taken, and refuses an invalid port', async () => {
    const first = await start();
    await expect(startDemoService({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    await expect(startDemoService({ port: 70000 })).rejects.toThrow(/port/);
  });
});
