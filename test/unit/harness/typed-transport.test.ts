import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type RunningHarness } from '../../../src/harness/server';
import { decodeFrame } from '../../../src/shared/ipc/binary-frame';
import type { DataReadResult } from '../../../src/shared/data';
import type { Envelope, InstrumentList } from '../../../src/shared/ipc/contract';

let harness: RunningHarness;
let dataDir: string;
let staticDir: string;

const invoke = async (
  channel: string,
  body: unknown,
): Promise<{ type: string | null; envelope: Envelope<unknown> }> => {
  const response = await fetch(`${harness.origin}api/invoke/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${harness.token}` },
    body: JSON.stringify(body),
  });
  const type = response.headers.get('Content-Type');
  const envelope =
    type === 'application/octet-stream'
      ? decodeFrame(await response.arrayBuffer())
      : (JSON.parse(await response.text()) as unknown);
  return { type, envelope: envelope as Envelope<unknown> };
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-typed-test-'));
  staticDir = mkdtempSync(join(tmpdir(), 'fielddesk-typed-static-'));
  writeFileSync(join(staticDir, 'web.html'), '<!doctype html><title>FieldDesk</title>');
  harness = await startHarness({
    port: 0,
    dataDir,
    staticDir,
    keychainService: `fielddesk-typed-${process.pid}`,
  });
});

afterAll(async () => {
  await harness?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

describe('typed arrays over the harness', () => {
  it('sends a time series as a binary frame of little-endian bytes, and other answers as JSON', async () => {
    expect((await invoke('accounts.tryDemo', {})).envelope.ok).toBe(true);
    const listed = await invoke('instruments.list', {});
    expect(listed.type).toMatch(/^application\/json/);
    const list = listed.envelope as { ok: true; value: InstrumentList };
    const noise = list.value.entries.find((e) => e.instrument.type === 'Noise')!;
    const end = Math.floor(Date.now() / 60_000) * 60_000;
    const { type, envelope } = await invoke('data.read', {
      serial: noise.instrument.serialNumber,
      dataset: 'noiseTimeHistory',
      start: end - 3_600_000,
      end,
      options: { values: ['LAeq'] },
    });
    expect(envelope.ok).toBe(true);
    expect(type).toBe('application/octet-stream');
    const result = (envelope as { ok: true; value: DataReadResult }).value;
    const channel = result.series[0]!;
    expect(channel.times).toBeInstanceOf(Float64Array);
    expect(channel.values).toBeInstanceOf(Float32Array);
    expect(channel.times.length).toBe(channel.values.length);
    expect(channel.times.length).toBeGreaterThan(0);
    expect(channel.times[0]).toBeGreaterThanOrEqual(end - 3_600_000);
  });
});
