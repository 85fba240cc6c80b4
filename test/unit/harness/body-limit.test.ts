/**
 * The harness's request size limit against the contract's largest request: a site photo of
 * `PHOTO_MAX_BYTES` (a real JPEG, made that large with comment segments) with the longest name and
 * a caption that JSON writes at six bytes a character, is taken and kept. A body past the limit is answered 413 with a JSON error, and the connection is
 * kept: a client that sends its whole body before it reads (as browsers upload) gets that answer,
 * not a reset, and its next request goes on the same connection — with a declared length and without.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, startHarness, type RunningHarness } from '../../../src/harness/server';
import { bytesText } from '../../../src/shared/format';
import { PHOTO_MAX_BYTES } from '../../../src/shared/visits';

const PHOTO = readFileSync(join(__dirname, '../../fixtures/site-photo-mast.jpg'));
let harness: RunningHarness;
let dataDir: string;
let staticDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-limit-'));
  staticDir = mkdtempSync(join(tmpdir(), 'fielddesk-harness-static-'));
  writeFileSync(join(staticDir, 'web.html'), '<!doctype html><title>FieldDesk</title>');
  harness = await startHarness({
    port: 0,
    dataDir,
    staticDir,
    keychainService: `fielddesk-harness-limit-test-${process.pid}`,
  });
});

afterAll(async () => {
  await harness?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(staticDir, { recursive: true, force: true });
});

async function call<T>(channel: string, body: unknown): Promise<{ ok: boolean; value: T; error?: unknown }> {
  const response = await fetch(`${harness.origin}api/invoke/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${harness.token}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { ok: boolean; value: T; error?: unknown };
}

/** The test photo made exactly `bytes` long with comment segments after its start: still a whole JPEG. */
function jpegOfSize(bytes: number): Buffer {
  // A segment is its marker (2), its length (2) and at most 65,533 bytes: the room shared evenly.
  const room = bytes - PHOTO.length;
  const count = Math.ceil(room / 65_537);
  const segments = Array.from({ length: count }, (_, i) => {
    const size = Math.floor(room / count) + (i < room % count ? 1 : 0);
    const segment = Buffer.alloc(size, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(size - 2, 2);
    return segment;
  });
  const jpeg = Buffer.concat([PHOTO.subarray(0, 2), ...segments, PHOTO.subarray(2)]);
  expect(jpeg.length).toBe(bytes);
  return jpeg;
}

/** One HTTP/1.1 exchange on `socket`: the whole request sent before anything is read. */
function exchange(socket: Socket, request: Buffer[]): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]);
      if (received.length < headEnd + 4 + length) return;
      socket.off('data', onData);
      socket.off('error', reject);
      socket.off('close', onClose);
      resolve({
        status: Number(head.split(' ')[1]),
        json: JSON.parse(received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8')),
      });
    };
    const onClose = () => reject(new Error('the harness closed the connection'));
    socket.on('error', reject);
    socket.on('close', onClose);
    socket.pause();
    void (async () => {
      for (const part of request) {
        if (!socket.write(part)) await new Promise((done) => socket.once('drain', done));
      }
      socket.on('data', onData);
      socket.resume();
    })();
  });
}

const head = (channel: string, framing: string) =>
  Buffer.from(
    `POST /api/invoke/${channel} HTTP/1.1\r\nHost: 127.0.0.1:${harness.port}\r\n` +
      `Authorization: Bearer ${harness.token}\r\nContent-Type: application/json\r\n${framing}\r\n`,
  );

describe('the harness and the contract’s largest request', () => {
  it('takes a photo at the contract’s limit, with the longest name and caption', async () => {
    expect((await call('accounts.tryDemo', {})).ok).toBe(true);
    const list = await call<{ entries: Array<{ instrument: { serialNumber: string } }> }>(
      'instruments.list',
      {},
    );
    const serial = list.value.entries[0]!.instrument.serialNumber;
    const started = await call<{ visit: { id: string } }>('visits.start', {
      serials: [serial],
      engineer: 'Asha Patel',
    });
    const body = JSON.stringify({
      visitId: started.value.visit.id,
      fileName: `${'m'.repeat(196)}.jpg`,
      // A control character: JSON writes each as \u0001, six bytes.
      caption: '\u0001'.repeat(200),
      imageBase64: jpegOfSize(PHOTO_MAX_BYTES).toString('base64'),
      reduce: false,
    });
    // Past a chart image's limit (the other large request), within the harness's limit.
    expect(body.length).toBeGreaterThan(33 * 1024 * 1024);
    expect(body.length).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
    const response = await fetch(`${harness.origin}api/invoke/visits.addPhoto`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${harness.token}` },
      body,
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      ok: boolean;
      value: { visit: { photos: Array<{ bytes: number }> } };
    };
    expect(answer).toMatchObject({ ok: true });
    expect(answer.value.visit.photos.map((p) => p.bytes)).toEqual([PHOTO_MAX_BYTES]);
  }, 60_000);

  it('answers a body past the limit 413 in JSON and keeps the connection, with a length and without', async () => {
    const refusal = {
      ok: false,
      error: {
        code: 'invalidInput',
        message: `The request is larger than the harness takes (${bytesText(MAX_REQUEST_BYTES)}); FieldDesk's own requests are smaller.`,
        retryable: false,
      },
    };
    const tooLarge = Buffer.alloc(MAX_REQUEST_BYTES + 1024 * 1024, 0x20);
    const socket = connect(harness.port, '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    try {
      expect(
        await exchange(socket, [head('app.getInfo', `Content-Length: ${tooLarge.length}\r\n`), tooLarge]),
      ).toEqual({
        status: 413,
        json: refusal,
      });
      // The same connection goes on: the next request is answered on it.
      expect(
        await exchange(socket, [head('app.getInfo', 'Content-Length: 2\r\n'), Buffer.from('{}')]),
      ).toMatchObject({
        status: 200,
        json: { ok: true, value: { shell: 'harness' } },
      });
      const chunked: Buffer[] = [head('app.getInfo', 'Transfer-Encoding: chunked\r\n')];
      for (let at = 0; at < tooLarge.length; at += 1024 * 1024) {
        const piece = tooLarge.subarray(at, at + 1024 * 1024);
        chunked.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
      }
      chunked.push(Buffer.from('0\r\n\r\n'));
      expect(await exchange(socket, chunked)).toEqual({ status: 413, json: refusal });
      expect(
        await exchange(socket, [head('app.getInfo', 'Content-Length: 2\r\n'), Buffer.from('{}')]),
      ).toMatchObject({
        status: 200,
      });
    } finally {
      socket.destroy();
    }
  }, 60_000);
});
