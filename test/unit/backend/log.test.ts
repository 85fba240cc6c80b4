/**
 * The backend's log (core/log.ts, core/request-log.ts): JSON lines in a private file that rotates,
 * levels, errors with their stack and causes, every record redacted; and every failed request of
 * the backend in it — expected failures at info, anything else at error level with the request.
 */
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBackend } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import {
  createLogger,
  logFiles,
  memoryLogWriter,
  openLogFile,
  type LogRecord,
} from '../../../src/main/backend/core/log';
import { withRequestLog } from '../../../src/main/backend/core/request-log';
import { createSecretRegistry } from '../../../src/main/backend/core/secrets';
import { FieldDeskError } from '../../../src/shared/errors';
import { dispatchRequest, type BackendHandlers } from '../../../src/shared/ipc/contract';
import { TEST_APP_INFO } from './backend-helpers';
import { makeTempDir } from './helpers';

const folders: Array<{ remove(): Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(folders.splice(0).map((folder) => folder.remove()));
});

async function tempFolder(): Promise<string> {
  const folder = await makeTempDir();
  folders.push(folder);
  return folder.path;
}

const readLines = async (path: string): Promise<LogRecord[]> =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogRecord);

const noRedaction = <T>(value: T) => value;
const posix = process.platform !== 'win32';

/** A backend without the demo service, on a fresh folder, its log kept in memory. */
async function backendWithMemoryLog() {
  const writer = memoryLogWriter();
  const backend = await createBackend({
    dataDir: await tempFolder(),
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: async () => {
      throw new Error('no demo in this test');
    },
    log: writer,
  });
  return { writer, backend };
}

describe('the log file', () => {
  it('writes JSON lines in order to a file only the user may read, in a folder only the user may open', async () => {
    const dataDir = await tempFolder();
    const folder = join(dataDir, 'logs');
    const log = createLogger(openLogFile(folder), { redact: noRedaction });
    for (let n = 0; n < 20; n++) log.info('line', { n });
    await log.flush();
    const records = await readLines(join(folder, 'fielddesk.log'));
    expect(records.map((record) => record['n'])).toEqual([...Array(20).keys()]);
    expect(records[0]).toMatchObject({ level: 'info', message: 'line' });
    expect(Date.parse(records[0]!.time)).not.toBeNaN();
    if (posix) {
      expect((await stat(join(folder, 'fielddesk.log'))).mode & 0o777).toBe(0o600);
      expect((await stat(folder)).mode & 0o777).toBe(0o700);
    }
    expect(await logFiles(dataDir)).toEqual([join(folder, 'fielddesk.log')]);
  });

  it.skipIf(!posix)('makes a log file left readable by others private again', async () => {
    const folder = join(await tempFolder(), 'logs');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'fielddesk.1.log'), '{}\n');
    await chmod(join(folder, 'fielddesk.1.log'), 0o644);
    const log = createLogger(openLogFile(folder), { redact: noRedaction });
    log.info('again');
    await log.flush();
    expect((await stat(join(folder, 'fielddesk.1.log'))).mode & 0o777).toBe(0o600);
  });

  it('rotates at its size limit, keeps the files before it, and loses no line of those kept', async () => {
    const dataDir = await tempFolder();
    const folder = join(dataDir, 'logs');
    const log = createLogger(openLogFile(folder, { maxBytes: 1_000, keep: 3 }), { redact: noRedaction });
    for (let n = 0; n < 200; n++) log.info('a line of some length to fill the file', { n });
    await log.flush();
    expect((await readdir(folder)).sort()).toEqual([
      'fielddesk.1.log',
      'fielddesk.2.log',
      'fielddesk.3.log',
      'fielddesk.log',
    ]);
    const files = await logFiles(dataDir);
    expect(files.map((path) => path.slice(folder.length + 1))).toEqual([
      'fielddesk.log',
      'fielddesk.1.log',
      'fielddesk.2.log',
      'fielddesk.3.log',
    ]);
    for (const path of files) expect((await stat(path)).size).toBeLessThanOrEqual(1_000);
    // Oldest file first, the lines follow on without a gap up to the last one written.
    const kept = (await Promise.all([...files].reverse().map(readLines))).flat().map((r) => r['n']);
    expect(kept.at(-1)).toBe(199);
    expect(kept).toEqual([...Array(kept.length).keys()].map((i) => 200 - kept.length + i));
  });

  it('loses only the lines it cannot write, says so once, and writes again when it can', async () => {
    const dataDir = await tempFolder();
    const folder = join(dataDir, 'logs');
    await writeFile(folder, 'a file where the folder should be');
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const writer = openLogFile(folder);
    const log = createLogger(writer, { redact: noRedaction });
    log.error('first');
    log.error('second');
    await expect(log.flush()).resolves.toBeUndefined();
    expect(complaints).toHaveBeenCalledTimes(1);
    expect(String(complaints.mock.calls[0]?.[0])).toContain(folder);
  });
});

describe('the logger', () => {
  it('writes from its level up', () => {
    const writer = memoryLogWriter();
    const log = createLogger(writer, { redact: noRedaction, level: 'warn' });
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(writer.records.map((record) => record.level)).toEqual(['warn', 'error']);
  });

  it('names the part of FieldDesk that wrote a line, children sharing the file and the level', () => {
    const writer = memoryLogWriter();
    const log = createLogger(writer, { redact: noRedaction });
    const visits = log.child('visits');
    visits.info('visit started');
    visits.child('photos').warn('photo unreadable');
    log.info('backend started');
    expect(writer.records.map((r) => [r['logger'], r.message])).toEqual([
      ['visits', 'visit started'],
      ['visits.photos', 'photo unreadable'],
      [undefined, 'backend started'],
    ]);
  });

  it('changes its level while running, for every child', () => {
    const writer = memoryLogWriter();
    const log = createLogger(writer, { redact: noRedaction });
    const data = log.child('data');
    data.debug('hidden at info');
    log.setLevel('debug');
    expect(log.level()).toBe('debug');
    data.debug('shown at debug');
    log.setLevel('error');
    data.warn('hidden at error');
    expect(writer.records.map((r) => r.message)).toEqual(['shown at debug']);
  });

  it('writes an error with its stack and its causes, and nothing else of it', () => {
    const writer = memoryLogWriter();
    const log = createLogger(writer, { redact: noRedaction });
    const root = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const error = Object.assign(new FieldDeskError('internal', 'It broke.', { cause: root }), {
      request: { headers: { 'X-Api-Key': 'never-this' } },
    });
    log.error('failed', { error, channel: 'instruments.list' });
    const record = writer.records[0]!;
    expect(record).toMatchObject({
      level: 'error',
      channel: 'instruments.list',
      error: {
        name: 'FieldDeskError',
        message: 'It broke.',
        cause: { message: 'socket hang up', code: 'ECONNRESET' },
      },
    });
    expect((record['error'] as { stack: string }).stack).toMatch(/It broke\.\n\s+at /);
    expect(JSON.stringify(record)).not.toContain('never-this');
  });

  it('passes every record through the redactor: message, fields, stacks', () => {
    const writer = memoryLogWriter();
    const secrets = createSecretRegistry();
    const log = createLogger(writer, { redact: secrets.redactValue });
    secrets.add('fD7+q/Z9=k~Lm&T!r*8sP', 'API key');
    secrets.add('whsec_0123456789abcdef', 'webhook secret');
    const encoded = encodeURIComponent('fD7+q/Z9=k~Lm&T!r*8sP');
    log.warn(`echo ${encoded}`, {
      detail: { texts: ['whsec_0123456789abcdef'] },
      error: new Error(`bad ${Buffer.from('fD7+q/Z9=k~Lm&T!r*8sP').toString('base64')}`),
    });
    const line = JSON.stringify(writer.records);
    expect(line).not.toContain(encoded);
    expect(line).not.toContain('whsec_0123456789abcdef');
    expect(line).not.toContain(Buffer.from('fD7+q/Z9=k~Lm&T!r*8sP').toString('base64').slice(0, 20));
    expect(writer.records[0]).toMatchObject({
      message: 'echo [API key]',
      detail: { texts: ['[webhook secret]'] },
    });
  });
});

describe('failed requests in the log', () => {
  /** A handler map of three requests that fail as told. */
  function failing(errors: Record<string, unknown>): BackendHandlers {
    return Object.fromEntries(
      Object.entries(errors).map(([channel, error]) => [
        channel,
        async () => {
          throw error;
        },
      ]),
    ) as unknown as BackendHandlers;
  }

  it('logs a bug at error level with its stack and the request, an expected failure at info, a cancellation not at info', async () => {
    const writer = memoryLogWriter();
    const log = createLogger(writer, { redact: noRedaction });
    const handlers = withRequestLog(
      failing({
        'accounts.add': new TypeError("Cannot read properties of undefined (reading 'id')"),
        'instruments.list': new FieldDeskError('offline', 'Cannot reach the service.'),
        'operations.cancel': new FieldDeskError('cancelled', 'The request was cancelled.'),
      }),
      log,
    );
    const add = { name: 'Client A', baseUrl: 'https://api.example.com/v1', apiKey: 'the-key-itself' };
    await expect(handlers['accounts.add'](add)).rejects.toBeInstanceOf(TypeError);
    await expect(handlers['instruments.list']({})).rejects.toMatchObject({ code: 'offline' });
    await expect(handlers['operations.cancel']({ id: 'op1' })).rejects.toMatchObject({ code: 'cancelled' });

    expect(writer.records).toHaveLength(2);
    const [bug, offline] = writer.records;
    expect(bug).toMatchObject({
      level: 'error',
      message: 'accounts.add failed unexpectedly',
      request: { channel: 'accounts.add', arg: { name: 'Client A', apiKey: '[not logged]' } },
      error: { name: 'TypeError' },
    });
    expect((bug!['error'] as { stack: string }).stack).toContain('TypeError: Cannot read properties');
    expect(JSON.stringify(bug)).not.toContain('the-key-itself');
    expect(offline).toMatchObject({
      level: 'info',
      request: { channel: 'instruments.list' },
      code: 'offline',
      reason: 'Cannot reach the service.',
    });
    expect(offline).not.toHaveProperty('error');
  });

  it('is where the backend answers every transport: a failed request of createBackend is logged', async () => {
    const { writer, backend } = await backendWithMemoryLog();
    try {
      // What the harness and the Electron IPC wrapper both call.
      const envelope = await dispatchRequest(backend.handlers, 'instruments.get', { serial: 'QT1' });
      expect(envelope).toMatchObject({ ok: false, error: { code: 'noAccount' } });
      const tryDemo = await dispatchRequest(backend.handlers, 'accounts.tryDemo', {});
      expect(tryDemo).toMatchObject({ ok: false });
    } finally {
      await backend.close();
    }
    expect(writer.records.find((r) => r.message === 'instruments.get failed: noAccount')).toMatchObject({
      level: 'info',
      request: { channel: 'instruments.get', arg: { serial: 'QT1' } },
    });
    // An `internal` error: at error level, with what caused it.
    expect(writer.records.find((r) => r.message === 'accounts.tryDemo failed unexpectedly')).toMatchObject({
      level: 'error',
      request: { channel: 'accounts.tryDemo' },
      error: { name: 'FieldDeskError', message: expect.stringContaining('demo service could not start') },
    });
    const cause = writer.records.find((r) => r.message === 'accounts.tryDemo failed unexpectedly')?.['error'];
    expect(cause).toMatchObject({ cause: { message: 'no demo in this test', stack: expect.any(String) } });
  });
});

describe('the log as the app uses it', () => {
  it('keeps the renderer’s errors beside the backend’s, redacted, and changes its level when asked', async () => {
    const { writer, backend } = await backendWithMemoryLog();
    const secret = 'k3y-that-must-never-be-logged-0123456789';
    try {
      // A key the backend knows (an account's) is a secret wherever it appears afterwards.
      await dispatchRequest(backend.handlers, 'accounts.add', {
        name: 'Site',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: secret,
      });
      const logged = await dispatchRequest(backend.handlers, 'app.reportError', {
        source: 'promise',
        message: `TypeError: cannot read "x" of undefined (key ${secret})`,
        stack: `TypeError: cannot read "x"\n    at DataChart.vue:120 ${secret}`,
        where: '/instruments/QT218728/data',
        dropped: 3,
      });
      expect(logged).toEqual({ ok: true, value: { logged: true } });
      expect(await dispatchRequest(backend.handlers, 'app.logLevel', {})).toEqual({
        ok: true,
        value: { level: 'info' },
      });
      expect(await dispatchRequest(backend.handlers, 'app.setLogLevel', { level: 'verbose' })).toMatchObject({
        ok: false,
        error: { code: 'invalidInput', message: 'That is not a log level.' },
      });
      await dispatchRequest(backend.handlers, 'app.setLogLevel', { level: 'debug' });
      expect(await dispatchRequest(backend.handlers, 'app.logLevel', {})).toEqual({
        ok: true,
        value: { level: 'debug' },
      });
    } finally {
      await backend.close();
    }
    const reported = writer.records.find((r) => r['logger'] === 'renderer');
    expect(reported).toMatchObject({
      level: 'error',
      source: 'promise',
      where: '/instruments/QT218728/data',
      dropped: 3,
    });
    expect(reported?.message).toContain('TypeError: cannot read');
    expect(JSON.stringify(writer.records)).not.toContain(secret);
    expect(writer.records.find((r) => r.message === 'log level changed')).toMatchObject({
      from: 'info',
      to: 'debug',
    });
  });
});
