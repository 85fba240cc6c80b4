/**
 * The bounds of an audio transfer, against the demo service: a recording streams to disk with no
 * size limit and no deadline for the whole body (the JSON answers' limits do not apply to it), but a
 * body that stalls, or a refusal whose body never comes, ends at the stall limit instead of hanging.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transferAudio, type TransferState } from '../../../src/main/backend/service/audio-transfer';
import type { ServiceClientOptions } from '../../../src/main/backend/service/requester';
import { startDemoService, type DemoServiceOptions, type RunningDemoService } from '../../../src/simulator';
import { FieldDeskError } from '../../../src/shared/errors';
import { startTestServer, useTempDirs, type TestServer } from './helpers';

const tempDir = useTempDirs();
const NOW = Date.UTC(2025, 5, 20, 12);
const DAY = 86_400_000;
const toClose: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((closable) => closable.close()));
});

async function demo(options: Partial<DemoServiceOptions> = {}): Promise<RunningDemoService> {
  const service = await startDemoService({ port: 0, rateLimit: 100_000, now: () => NOW, ...options });
  toClose.push(service);
  return service;
}

/** A recording the demo service lists, by its id. */
async function someRecording(service: RunningDemoService): Promise<string> {
  const headers = { 'X-Api-Key': service.defaultKey as string };
  const fleet = (await (await fetch(`${service.baseUrl}/control/instruments`, { headers })).json()) as Array<{
    serialNumber: string;
    subscription?: { addons?: string[] };
  }>;
  const serial = fleet.find((i) => i.subscription?.addons?.includes('Audio'))!.serialNumber;
  const url = new URL(`${service.baseUrl}/data/audio`);
  url.search = new URLSearchParams({
    instruments: serial,
    start: new Date(NOW - 3 * DAY).toISOString(),
    end: new Date(NOW).toISOString(),
  }).toString();
  const list = (await (await fetch(url, { headers })).json()) as Array<{ id: string }>;
  return list[0]!.id;
}

const freshState = (): TransferState => ({
  bytes: 0,
  total: null,
  ranges: false,
  validator: null,
  resumed: 0,
  restarted: 0,
});

async function transfer(baseUrl: string, apiKey: string, id: string, service: Partial<ServiceClientOptions>) {
  const partPath = join(await tempDir(), 'recording.wav.part');
  const state = freshState();
  const outcome = await transferAudio({
    path: `/data/audio/${encodeURIComponent(id)}`,
    query: { format: 'WAV' },
    service: { baseUrl, apiKey, ...service },
    partPath,
    state,
    signal: new AbortController().signal,
  }).then(
    () => null,
    (error: unknown) => error,
  );
  return { outcome, partPath, state };
}

describe('audio transfer bounds', () => {
  it('a recording far larger than any JSON answer may be streams to disk whole', async () => {
    const service = await demo();
    const id = await someRecording(service);
    const { outcome, partPath, state } = await transfer(service.baseUrl, service.defaultKey as string, id, {
      timeoutMs: 10_000,
      // Limits no JSON answer of this size would pass: a recording is not held to them.
      answerLimits: { maxBytes: 1024, deadlineMs: 1 },
    });
    expect(outcome).toBeNull();
    expect(state.total).toBeGreaterThan(100 * 1024);
    expect((await stat(partPath)).size).toBe(state.total);
    expect((await readFile(partPath)).subarray(0, 4).toString('latin1')).toBe('RIFF');
  });

  it('a recording that stops coming ends at the stall limit, after its retries', async () => {
    const service = await demo({ audio: { holdAfterBytes: 4096, ranges: false } });
    const id = await someRecording(service);
    const { outcome } = await transfer(service.baseUrl, service.defaultKey as string, id, {
      timeoutMs: 300,
      retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 10 },
    });
    expect(outcome).toBeInstanceOf(FieldDeskError);
    expect(outcome).toMatchObject({ code: 'timeout', retryable: true });
    expect((outcome as Error).message).toMatch(/stopped sending the recording for 1 second/);
    service.audio.release();
  });

  it('a refusal whose body never comes ends at the stall limit too', async () => {
    const server: TestServer = await startTestServer((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Content-Length': 200 });
      res.write('{"error": "Unavail');
    });
    toClose.push(server);
    const { outcome } = await transfer(server.baseUrl, 'k', 'au_one', {
      timeoutMs: 300,
      retry: { limit: 0, baseDelayMs: 5, maxDelayMs: 10 },
    });
    expect(outcome).toMatchObject({ code: 'timeout' });
    expect((outcome as Error).message).toMatch(/stopped sending the recording for 1 second/);
    expect(server.requests).toHaveLength(1);
  });
});
