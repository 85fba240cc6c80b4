/**
 * The harness plays library recordings from `/audio-library/:key` as the app's `fielddesk-audio:`
 * scheme does: only with its token (a header, or `?token=` since `<audio>` cannot send one), only
 * keys in the library, with HTTP ranges; and its page may load media from there and nowhere else.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type RunningHarness } from '../../../src/harness/server';
import { audioPlayUrl, type DownloadSnapshot } from '../../../src/shared/audio';
import { audioBody, startAudioServer, TEST_SERIAL, type AudioServer } from '../backend/audio-server';

let harness: RunningHarness;
let server: AudioServer;
let dataDir: string;
let staticDir: string;

async function invoke<T>(channel: string, body: unknown): Promise<T> {
  const response = await fetch(`${harness.origin}api/invoke/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${harness.token}` },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { ok: boolean; value?: T; error?: unknown };
  if (!envelope.ok) throw new Error(`${channel} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.value as T;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-audio-'));
  staticDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-static-'));
  writeFileSync(join(staticDir, 'web.html'), '<!doctype html><title>FieldDesk</title>');
  server = await startAudioServer({ body: audioBody(200_000), ranges: true });
  harness = await startHarness({
    port: 0,
    dataDir,
    staticDir,
    keychainService: `fielddesk-harness-audio-test-${process.pid}`,
  });
});

afterAll(async () => {
  await harness?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

describe('harness audio library', () => {
  it('serves a downloaded recording by key with ranges, only with the token, only from the library', async () => {
    await invoke('accounts.add', { name: 'Audio test', baseUrl: server.baseUrl, apiKey: 'audio-key-1234' });
    const recording = {
      id: 'au_harness',
      source: 'recording',
      serial: TEST_SERIAL,
      start: Date.UTC(2026, 10, 20, 8, 0, 0),
      end: Date.UTC(2026, 10, 20, 8, 0, 20),
      triggerStart: null,
      triggerEnd: null,
      triggerName: 'Manual trigger',
    };
    const [queued] = await invoke<DownloadSnapshot[]>('audio.download', {
      recordings: [recording],
      format: 'OGG',
    });
    let state = queued!.state;
    for (let i = 0; i < 2_000 && state !== 'done' && state !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      state = (await invoke<DownloadSnapshot[]>('audio.downloads', {})).find(
        (s) => s.id === queued!.id,
      )!.state;
    }
    expect(state).toBe('done');

    const url = new URL(audioPlayUrl('harness', queued!.key, { token: harness.token }), harness.origin);
    const partial = await fetch(url, { headers: { Range: 'bytes=10-19' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-type')).toBe('audio/ogg');
    expect(partial.headers.get('content-range')).toBe(`bytes 10-19/${server.body.length}`);
    expect(Buffer.from(await partial.arrayBuffer()).equals(server.body.subarray(10, 20))).toBe(true);

    const withHeader = await fetch(new URL(audioPlayUrl('harness', queued!.key), harness.origin), {
      headers: { Authorization: `Bearer ${harness.token}` },
    });
    expect(withHeader.status).toBe(200);
    expect(Buffer.from(await withHeader.arrayBuffer()).equals(server.body)).toBe(true);

    const noToken = await fetch(new URL(audioPlayUrl('harness', queued!.key), harness.origin));
    expect(noToken.status).toBe(401);
    const wrongToken = await fetch(
      new URL(audioPlayUrl('harness', queued!.key, { token: 'not-the-token-0000000000' }), harness.origin),
    );
    expect(wrongToken.status).toBe(401);
    const unknown = await fetch(
      new URL(audioPlayUrl('harness', `ogg-${'a'.repeat(40)}`, { token: harness.token }), harness.origin),
    );
    expect(unknown.status).toBe(404);
    const traversal = await fetch(`${harness.origin}audio-library/..%2Ffielddesk.db?token=${harness.token}`);
    expect(traversal.status).toBe(404);
  });

  it('lets the page load media from the library route only', async () => {
    const page = await fetch(harness.url);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`media-src http://127.0.0.1:${harness.port}/audio-library/`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
  });
});
