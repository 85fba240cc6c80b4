import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { MAX_REQUEST_BYTES, startHarness, type RunningHarness } from '../../../src/harness/server';
import { bytesText } from '../../../src/shared/format';

let harness: RunningHarness;
let dataDir: string;
let staticDir: string;

const bearer = (of: RunningHarness) => ({ Authorization: `Bearer ${of.token}` });

const invoke = (channel: string, body: unknown, headers: Record<string, string> = bearer(harness)) =>
  fetch(`${harness.origin}api/invoke/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** Reads SSE frames from a fetch body until `until` says stop. */
async function readEvents(response: Response, until: (events: string[]) => boolean): Promise<string[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const events = (): string[] => [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]!);
  while (!until(events())) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return events();
}

/**
 * POSTs to `app.getInfo` a body that is never finished: 64 KiB after the headers (with `endless`,
 * chunk after chunk as the server takes them, no length declared) until the answer comes.
 */
function postUnfinished(
  headers: Record<string, string>,
  endless = false,
): Promise<{ status: number; text: string; request: ClientRequest; written: () => number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = httpRequest(
      `${harness.origin}api/invoke/app.getInfo`,
      { method: 'POST', headers: { ...bearer(harness), 'Content-Type': 'application/json', ...headers } },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text, request, written: () => sent }),
        );
      },
    );
    // Once answered, the harness closes the connection: the rest of the body cannot be written.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const write = () => {
      while (!answered && !request.destroyed) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) return void request.once('drain', write);
        if (!endless) return;
      }
    };
    write();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-test-'));
  staticDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-static-'));
  writeFileSync(join(staticDir, 'web.html'), '<!doctype html><title>FieldDesk</title>');
  harness = await startHarness({
    port: 0,
    dataDir,
    staticDir,
    keychainService: `fielddesk-harness-test-${process.pid}`,
  });
});

afterAll(async () => {
  await harness?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

describe('browser harness', () => {
  it('listens on loopback only and serves web.html at / with a CSP header', async () => {
    expect(harness.origin).toBe(`http://127.0.0.1:${harness.port}/`);
    expect(harness.url).toBe(`${harness.origin}?token=${harness.token}`);
    const page = await fetch(harness.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>FieldDesk</title>');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('answers every request with an envelope: values and errors alike', async () => {
    const info = await invoke('app.getInfo', {});
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ ok: true, value: { shell: 'harness' } });

    const bad = await invoke('instruments.rename', { serial: '../etc', name: 'x' });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'serial' } });

    const unknown = await invoke('shell.exec', {});
    expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('answers 400 only for a body that is not JSON', async () => {
    const response = await invoke('app.getInfo', '{not json');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('takes a large body within the limit', async () => {
    // 5 MB of JSON: read and answered as an envelope (app.getInfo takes no arguments, and says so).
    const response = await invoke('app.getInfo', { padding: 'x'.repeat(5 * 1024 * 1024) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('refuses a body that declares more than the limit with 413, answering before it arrives', async () => {
    const { status, text, request } = await postUnfinished({ 'Content-Length': String(600 * 1024 * 1024) });
    request.destroy();
    expect(status).toBe(413);
    expect(JSON.parse(text)).toEqual({
      ok: false,
      error: {
        code: 'invalidInput',
        message: `The request is larger than the harness takes (${bytesText(MAX_REQUEST_BYTES)}); FieldDesk's own requests are smaller.`,
        retryable: false,
      },
    });
  });

  it('refuses a body without a length once it passes the limit, never keeping it', async () => {
    const { status, text, request, written } = await postUnfinished({}, true);
    request.destroy();
    expect(status).toBe(413);
    expect(JSON.parse(text)).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    // Answered once the limit was passed: the 600 MB the client had to send were never all sent.
    expect(written()).toBeGreaterThan(MAX_REQUEST_BYTES);
    expect(written()).toBeLessThan(600 * 1024 * 1024);
  });

  it('refuses every API request without its token, whatever its Origin, and any other token', async () => {
    expect(harness.token).toMatch(/^[\w-]{32}$/);
    for (const headers of [
      {} as Record<string, string>,
      { Origin: `http://127.0.0.1:${harness.port}` },
      { Authorization: 'Bearer not-the-token-at-all-0000000000' },
      { Authorization: harness.token },
    ]) {
      const refused = await invoke('accounts.getState', {}, headers);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
    expect((await fetch(`${harness.origin}api/events`)).status).toBe(401);
    // A token of its own is chosen per run; a script may choose one.
    const chosenDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-test-'));
    const chosen = await startHarness({
      port: 0,
      dataDir: chosenDir,
      staticDir,
      token: 'script-token-0123456789',
    });
    try {
      expect(chosen.url).toMatch(/\?token=script-token-0123456789$/);
      const ok = await fetch(`${chosen.origin}api/invoke/app.getInfo`, {
        method: 'POST',
        headers: bearer(chosen),
      });
      expect(ok.status).toBe(200);
      expect(harness.token).not.toBe(chosen.token);
    } finally {
      await chosen.close();
      rmSync(chosenDir, { recursive: true, force: true });
    }
    await expect(startHarness({ port: 0, dataDir, staticDir, token: 'short' })).rejects.toThrow(/token/);
  });

  it('refuses requests from another origin, including another localhost port', async () => {
    const foreign = await invoke(
      'accounts.getState',
      {},
      { ...bearer(harness), Origin: 'http://localhost:5999' },
    );
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const own = await invoke(
      'accounts.getState',
      {},
      { ...bearer(harness), Origin: `http://127.0.0.1:${harness.port}` },
    );
    expect(own.status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      request(
        { host: '127.0.0.1', port: harness.port, path: '/', headers: { Host: 'attacker.example:80' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(421);
  });

  it('pushes backend events as named SSE events; the demo fleet is reachable', async () => {
    const stream = await fetch(`${harness.origin}api/events`, { headers: bearer(harness) });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const eventsPromise = readEvents(stream, (events) => events.includes('accounts.changed'));
    const demo = (await (await invoke('accounts.tryDemo', {})).json()) as {
      value: { instrumentCount: number };
    };
    expect(demo).toMatchObject({ ok: true, value: { instrumentCount: expect.any(Number) } });
    expect(await eventsPromise).toContain('accounts.changed');

    const list = (await (await invoke('instruments.list', {})).json()) as {
      ok: boolean;
      value: { entries: unknown[] };
    };
    expect(list.ok).toBe(true);
    expect(list.value.entries.length).toBe(demo.value.instrumentCount);
  });

  it('closes promptly even with an event stream open', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-test-'));
    const other = await startHarness({ port: 0, dataDir: otherDir, staticDir });
    const stream = await fetch(`${other.origin}api/events`, { headers: bearer(other) });
    expect(stream.status).toBe(200);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('refuses a demo time scale that is not a positive number', async () => {
    for (const timeScale of [0, -1, Number.NaN]) {
      await expect(startHarness({ port: 0, dataDir, staticDir, demo: { timeScale } })).rejects.toThrow(
        'The demo time scale must be a number greater than 0',
      );
    }
  });

  it('passes the demo options on: a calibration is held until the test releases it, then over in moments at 0.01', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-test-'));
    const fast = await startHarness({
      port: 0,
      dataDir: otherDir,
      staticDir,
      keychainService: `fielddesk-harness-test-fast-${process.pid}`,
      demo: { timeScale: 0.01, holdActions: true },
    });
    try {
      const call = async <T>(channel: string, body: unknown): Promise<{ ok: boolean; value: T }> => {
        const response = await fetch(`${fast.origin}api/invoke/${channel}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...bearer(fast) },
          body: JSON.stringify(body),
        });
        return (await response.json()) as { ok: boolean; value: T };
      };
      expect((await call('accounts.tryDemo', {})).ok).toBe(true);
      type Entries = {
        entries: Array<{
          instrument: { type: string; serialNumber: string };
          status: { online: boolean } | null;
        }>;
      };
      const list = await call<Entries>('instruments.list', {});
      const noise = list.value.entries.find(
        (e) => e.instrument.type === 'Noise' && e.status?.online === true,
      );
      expect(noise).toBeDefined();
      const started = await call<{ id: string }>('actions.start', {
        serial: noise!.instrument.serialNumber,
        action: 'Calibration',
      });
      expect(started.ok).toBe(true);
      const stateOf = async () =>
        ((await call('operations.list', {})).value as Array<{ id: string; state: string }>).find(
          (o) => o.id === started.value.id,
        )!.state;
      // Held by the demo service however fast the machine is: the test decides when it ends.
      await vi.waitFor(() => expect(fast.demoActions.held()).toHaveLength(1), {
        timeout: 15_000,
        interval: 50,
      });
      expect(fast.demoActions.held()).toEqual([
        { serial: noise!.instrument.serialNumber, action: 'Calibration' },
      ]);
      expect(['starting', 'running']).toContain(await stateOf());
      expect(fast.demoActions.release()).toBe(1);
      // Released at a time scale of 0.01, it is over at the backend's next poll.
      await vi.waitFor(async () => expect(['succeeded', 'failed']).toContain(await stateOf()), {
        timeout: 15_000,
        interval: 100,
      });
    } finally {
      await fast.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('records the notices the app would show, only while the test says the window is not focused', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-test-'));
    const other = await startHarness({
      port: 0,
      dataDir: otherDir,
      staticDir,
      keychainService: `fielddesk-harness-test-notices-${process.pid}`,
    });
    try {
      const call = async <T>(channel: string, body: unknown): Promise<{ ok: boolean; value: T }> => {
        const response = await fetch(`${other.origin}api/invoke/${channel}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...bearer(other) },
          body: JSON.stringify(body),
        });
        return (await response.json()) as { ok: boolean; value: T };
      };
      expect((await call('accounts.tryDemo', {})).ok).toBe(true);
      const list = await call<{
        entries: Array<{
          instrument: { type: string; serialNumber: string };
          status: { online: boolean } | null;
        }>;
      }>('instruments.list', {});
      const serial = list.value.entries.find((e) => e.status?.online === true)!.instrument.serialNumber;
      const identify = async () => {
        const started = await call<{ id: string }>('actions.start', { serial, action: 'Identify' });
        expect(started.ok).toBe(true);
        await vi.waitFor(
          async () => {
            const operations = (await call<Array<{ id: string; state: string }>>('operations.list', {}))
              .value;
            expect(operations.find((o) => o.id === started.value.id)?.state).toBe('succeeded');
          },
          { timeout: 15_000, interval: 50 },
        );
      };

      // Focused (the default): the view says it, no notice.
      await identify();
      expect(other.notifications()).toEqual([]);

      other.setWindowFocused(false);
      await identify();
      expect(other.notifications()).toEqual([{ title: `Identify on ${serial}`, body: expect.any(String) }]);
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});
