/** Small loopback HTTP servers with scripted faults, and other helpers for the backend tests. */
import { afterEach, expect, onTestFinished } from 'vitest';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { FieldDeskError } from '../../../src/shared/errors';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeytarLike } from '../../../src/main/backend/accounts/vault';
import type { OperationSnapshot } from '../../../src/shared/operations';
import {
  createLogger,
  memoryLogWriter,
  type Logger,
  type LogRecord,
} from '../../../src/main/backend/core/log';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  /** e.g. `http://127.0.0.1:41234/v1` */
  baseUrl: string;
  host: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1, port 0. The handler gets the request number (0 first) so a test
 * can script "fail, then succeed".
 */
export async function startTestServer(
  handler: (req: RecordedRequest, res: ServerResponse, index: number) => void | Promise<void>,
): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      void handler(recorded, res, requests.length - 1);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Drops the connection without any answer, like a flaky mobile link. */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/** An address where nothing listens: a port that was just free. */
export async function refusedBaseUrl(): Promise<{ baseUrl: string; host: string }> {
  const server = await startTestServer(() => undefined);
  await server.close();
  return { baseUrl: server.baseUrl, host: server.host };
}

export function wireInstrument(serial: string, name = `Instrument ${serial}`) {
  return {
    type: 'Noise',
    serialNumber: serial,
    model: 'CR:900',
    name,
    image: 'https://example.com/cr900.png',
    subscription: { status: 'Active', tier: 'Pro' },
    position: { lat: 51.5, long: -0.1 },
    feature: ['SIC'],
  };
}

export async function makeTempDir(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'fielddesk-backend-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Call at the top level of a test file: `tempDir()` makes a folder that is removed after the test. */
export function useTempDirs(): () => Promise<string> {
  const made: Array<{ remove(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => dir.remove()));
  });
  return async () => {
    const dir = await makeTempDir();
    made.push(dir);
    return dir.path;
  };
}

/** An in-memory keytar that records calls; `fail` makes chosen calls throw a real keytar message. */
export function fakeKeytar(fail: Partial<Record<keyof KeytarLike, string>> = {}) {
  const entries = new Map<string, string>();
  const calls: Array<keyof KeytarLike> = [];
  const keyOf = (service: string, account: string) => `${service}\u0000${account}`;
  const maybeFail = (method: keyof KeytarLike) => {
    calls.push(method);
    const message = fail[method];
    if (message !== undefined) throw new Error(message);
  };
  const keytar: KeytarLike = {
    async getPassword(service, account) {
      maybeFail('getPassword');
      return entries.get(keyOf(service, account)) ?? null;
    },
    async setPassword(service, account, password) {
      maybeFail('setPassword');
      entries.set(keyOf(service, account), password);
    },
    async deletePassword(service, account) {
      maybeFail('deletePassword');
      return entries.delete(keyOf(service, account));
    },
  };
  return { keytar, entries, calls, keyOf };
}

export const REAL_KEYTAR_ERRORS = {
  noDbus: 'Cannot autolaunch D-Bus without X11 $DISPLAY',
  locked: 'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
} as const;

/** A finished calibration's snapshot; `over` changes any field. */
export const finishedCalibration = (over: Partial<OperationSnapshot> = {}): OperationSnapshot => ({
  id: 'op',
  kind: 'action',
  accountId: 'acc',
  serial: 'QT100001',
  action: 'Calibration',
  state: 'succeeded',
  phase: 'Done',
  startedAt: 1_000,
  updatedAt: 41_000,
  elapsedMs: 40_000,
  expectedDurationMs: 40_000,
  message: 'Calibration passed.',
  result: {
    kind: 'calibration',
    time: 40_000,
    status: 'Success',
    level: 94.1,
    offset: 0.1,
    referenceDb: 94,
    toleranceDb: 0.5,
    passed: true,
    deviationDb: 0.1,
    instrumentPassed: true,
    probableCalibratorDb: null,
  },
  error: null,
  ...over,
});

/** The FieldDeskError a call fails with; the test fails if it does not fail, or fails otherwise. */
export async function failureOf(promise: Promise<unknown>): Promise<FieldDeskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FieldDeskError);
    return error as FieldDeskError;
  }
  throw new Error('expected the call to fail');
}

/** A logger whose records are kept in `records` (redacting nothing), for tests of one module. */
export function memoryLogger(): Logger & { records: LogRecord[] } {
  const writer = memoryLogWriter();
  return Object.assign(createLogger(writer, { redact: (value) => value, level: 'debug' }), {
    records: writer.records,
  });
}

/**
 * A small tmpfs of `sizeKb`, for a real full or read-only disk; unmounted when the test finishes.
 * Null, with the reason, where this machine does not let a test mount one (not root, not Linux).
 */
export async function mountTmpfs(
  sizeKb: number,
): Promise<{ path: string; why: null } | { path: null; why: string }> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0)
    return { path: null, why: 'needs root on Linux to mount a tmpfs' };
  const path = await mkdtemp(join(tmpdir(), 'fielddesk-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    return { path: null, why: `mount refused here (${String(error).split('\n')[0]})` };
  }
  onTestFinished(async () => {
    execFileSync('umount', ['-l', path]);
    await rm(path, { recursive: true, force: true });
  });
  return { path, why: null };
}

/**
 * Zeroes the first page of one table of a SQLite file (4 KiB pages), as a bad sector would: the
 * other tables — and the schema, which may run over more than one page — still read.
 */
export async function damageTablePage(path: string, table: string): Promise<void> {
  const schema = new Database(path, { readonly: true });
  const { rootpage } = schema.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as {
    rootpage: number;
  };
  schema.close();
  const bytes = await readFile(path);
  bytes.fill(0, (rootpage - 1) * 4096, rootpage * 4096);
  await writeFile(path, bytes);
}
