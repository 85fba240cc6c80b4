/**
 * FieldDesk KILLED (SIGKILL: no chance to clean up) while it finishes a file, in a child `node`
 * process (finishing-child.ts) running the backend through tsx, then started again on the same data
 * folder in this process:
 * - an audio download stopped with every byte in its `.part`, before its rename, or after its rename
 *   but before the library entry, is found complete: the same file name (no "(2)"), the service's
 *   bytes, and no second request to the service;
 * - a CSV report stopped after three of its tables, or a PDF stopped with its temporary file just
 *   made, leaves nothing that looks like a report, and the next start removes what it left and
 *   says so; a `.part` file that is not FieldDesk's is left alone.
 * Each test starts a process and a backend: their time limit is generous (60 s), not a measure.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AudioFormat, Recording } from '../../../src/shared/audio';
import { UNFINISHED_FILE_NAME, UNFINISHED_NOTICE_ID } from '../../../src/main/backend/core/unfinished-files';
import { startDemoService } from '../../../src/simulator';
import { audioBody, sha256, startAudioServer, TEST_SERIAL, type AudioServer } from './audio-server';
import { createRecordingBackend, DEMO_TEST_KEY, TEST_APP_INFO } from './backend-helpers';
import { useTempDirs } from './helpers';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';

const tempDir = useTempDirs();
const toClose: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
});

const RECORDING: Recording = {
  id: 'au_recording-one_0123456789abcdef',
  source: 'recording',
  serial: TEST_SERIAL,
  start: Date.UTC(2026, 10, 23, 9, 15, 0),
  end: Date.UTC(2026, 10, 23, 9, 15, 30),
  triggerStart: Date.UTC(2026, 10, 23, 9, 15, 5),
  triggerEnd: Date.UTC(2026, 10, 23, 9, 15, 25),
  triggerName: 'Level over 65 dB(A)',
};
const FILE_NAME = 'QT100001 2026-11-23 091500 Level over 65 dB(A).flac';

type StopAt = 'whole-part' | 'before-rename' | 'after-rename' | 'report-table' | 'report-pdf';

/** Runs the child until it says it stopped where asked, then SIGKILLs it; answers what it said. */
function runChildUntilKilled(env: {
  dataDir: string;
  baseUrl: string;
  apiKey: string;
  stopAt: StopAt;
  work: unknown;
}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'finishing-child.ts')], {
      cwd: join(__dirname, '../../..'),
      env: {
        ...process.env,
        DATA_DIR: env.dataDir,
        BASE_URL: env.baseUrl,
        API_KEY: env.apiKey,
        STOP_AT: env.stopAt,
        WORK_JSON: JSON.stringify(env.work),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    let errors = '';
    let stopped: Record<string, unknown> | null = null;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      buffer += text;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        if (stopped === null && line.stoppedAt === env.stopAt) {
          stopped = line;
          child.kill('SIGKILL');
        }
      }
    });
    child.stderr.on('data', (text: Buffer) => (errors += text.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' && stopped !== null) resolve(stopped);
      else
        reject(new Error(`the child ended without stopping at ${env.stopAt} (${code ?? signal}): ${errors}`));
    });
  });
}

/** Polls until `check` answers a value (the work runs on its own after a start); never a fixed wait. */
async function waitFor<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 1_000; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition never came true');
}

async function startAudioService(ranges: boolean): Promise<AudioServer> {
  const server = await startAudioServer({ body: audioBody(1024 * 1024 + 17), ranges });
  toClose.push(() => server.close());
  return server;
}

/** FieldDesk started again on `dataDir`, in this process, against `baseUrl`. */
async function restart(dataDir: string, baseUrl: string, apiKey: string) {
  const made = await createRecordingBackend({
    dataDir,
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: async () => ({ baseUrl, apiKey, close: async () => undefined }),
    clientOptions: { timeoutMs: 10_000, retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 20 } },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await made.backend.close();
  };
  toClose.push(close);
  return { ...made, close };
}

async function listedUnfinished(dataDir: string): Promise<unknown[]> {
  const text = await readFile(join(dataDir, UNFINISHED_FILE_NAME), 'utf8');
  return (JSON.parse(text) as { entries: unknown[] }).entries;
}

describe('an audio download killed while it is finished', () => {
  const cases: Array<{ stopAt: StopAt; ranges: boolean; left: (folder: string) => Promise<void> }> = [
    {
      // Without range support a `.part` cannot be continued, so only its size says it is whole.
      stopAt: 'whole-part',
      ranges: false,
      left: async (folder) => expect(await readdir(folder)).toEqual([`${FILE_NAME}.part`]),
    },
    {
      stopAt: 'before-rename',
      ranges: true,
      left: async (folder) => expect(await readdir(folder)).toEqual([`${FILE_NAME}.part`]),
    },
    {
      stopAt: 'after-rename',
      ranges: true,
      // The file is in place, the library does not know it yet: before this fix, the next start
      // fetched it again as "… (2).flac" and left this one behind.
      left: async (folder) => expect(await readdir(folder)).toEqual([FILE_NAME]),
    },
  ];

  for (const { stopAt, ranges, left } of cases) {
    it(`(${stopAt}) is found complete at the next start: same name, same bytes, no second request`, async () => {
      const server = await startAudioService(ranges);
      const dataDir = await tempDir();
      const format: AudioFormat = 'FLAC';
      const stopped = await runChildUntilKilled({
        dataDir,
        baseUrl: server.baseUrl,
        apiKey: 'audio-test-key',
        stopAt,
        work: { kind: 'audio', recording: RECORDING, format, size: server.body.length },
      });
      const folder = join(dataDir, 'audio');
      await left(folder);
      expect(server.audioRequests).toHaveLength(1);
      if (stopAt !== 'whole-part') expect(stopped.to).toBe(join(folder, FILE_NAME));

      const { handlers, close } = await restart(dataDir, server.baseUrl, 'audio-test-key');
      const [item] = await waitFor(async () => {
        const items = await handlers['audio.library']({});
        return items.length > 0 ? items : undefined;
      });
      expect(item).toMatchObject({ fileName: FILE_NAME, bytes: server.body.length });
      expect(item!.missing).toBeUndefined();
      expect(sha256(await readFile(item!.path))).toBe(server.sha256);
      const [download] = await handlers['audio.downloads']({});
      expect(download).toMatchObject({ state: 'done', bytes: server.body.length, key: item!.key });
      // One file, under its own name: no "(2)", no `.part`.
      expect(await readdir(folder)).toEqual([FILE_NAME]);
      // The service was asked once, by the killed FieldDesk: nothing was fetched again.
      expect(server.audioRequests).toHaveLength(1);
      // Nothing was removed, so nothing to tell; nothing is left listed as unfinished.
      const notices = await handlers['app.notices']({});
      expect(notices.map((n) => n.id)).not.toContain(UNFINISHED_NOTICE_ID);
      await close();
      expect(await listedUnfinished(dataDir)).toEqual([]);
    }, 60_000);
  }
});

describe('a report killed while it is written', () => {
  const DAY = 86_400_000;
  const END = Math.floor(Date.now() / DAY) * DAY - DAY;

  async function demo() {
    const service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 100_000 });
    toClose.push(() => service.close());
    return service;
  }

  it('(CSV) leaves no set that looks finished; the next start removes the temporary folder and says so', async () => {
    const service = await demo();
    const dataDir = await tempDir();
    const stopped = await runChildUntilKilled({
      dataDir,
      baseUrl: service.baseUrl,
      apiKey: DEMO_TEST_KEY,
      stopAt: 'report-table',
      work: { kind: 'report', serials: ['QT930998'], start: END - DAY, end: END, format: 'csv' },
    });
    const exports = join(dataDir, 'exports');
    // As the kill left it: one temporary folder, three tables whole and the fourth empty; no
    // folder, and no table, under the report's own name.
    const [temporary, ...others] = await readdir(exports);
    expect(others).toEqual([]);
    expect(temporary).toMatch(/^Mill Lane assessment .*\.fielddesk-[0-9a-f]{8}\.part$/);
    expect(String(stopped.path).startsWith(join(exports, temporary!))).toBe(true);
    const tables = await readdir(join(exports, temporary!));
    const sizes = await Promise.all(
      tables.map(async (name) => (await stat(join(exports, temporary!, name))).size),
    );
    expect(sizes.filter((size) => size > 0)).toHaveLength(3);
    expect(sizes.filter((size) => size === 0)).toHaveLength(1);
    // Another program's partial download in the same folder: not FieldDesk's, never touched.
    await writeFile(join(exports, 'Survey.pdf.part'), 'someone else’s');

    const { handlers } = await restart(dataDir, service.baseUrl, DEMO_TEST_KEY);
    expect(await readdir(exports)).toEqual(['Survey.pdf.part']);
    const notice = (await handlers['app.notices']({})).find((n) => n.id === UNFINISHED_NOTICE_ID);
    expect(notice?.tone).toBe('warning');
    expect(notice?.message).toContain('the CSV report “Mill Lane assessment ');
    expect(notice?.message).toContain(`temporary folder ${temporary} in ${exports}`);
    expect(await listedUnfinished(dataDir)).toEqual([]);

    // Asked again, the report is written whole.
    const site = (await handlers['assessment.sites']({})).sites[0]!;
    const again = await handlers['assessment.report']({
      siteId: site.id,
      start: END - DAY,
      end: END,
      format: 'csv',
    });
    if (!again.saved) throw new Error('not saved');
    expect(again.paths.length).toBeGreaterThanOrEqual(4);
    for (const path of again.paths) expect((await stat(path)).size).toBeGreaterThan(0);
  }, 60_000);

  it('(PDF) leaves no empty `.part` behind after the next start, and says what it removed', async () => {
    const service = await demo();
    const dataDir = await tempDir();
    const stopped = await runChildUntilKilled({
      dataDir,
      baseUrl: service.baseUrl,
      apiKey: DEMO_TEST_KEY,
      stopAt: 'report-pdf',
      work: { kind: 'report', serials: ['QT930998'], start: END - DAY, end: END, format: 'pdf' },
    });
    const part = String(stopped.path);
    expect((await stat(part)).size).toBe(0);

    const { handlers } = await restart(dataDir, service.baseUrl, DEMO_TEST_KEY);
    expect(existsSync(part)).toBe(false);
    expect(await readdir(join(dataDir, 'exports'))).toEqual([]);
    const notice = (await handlers['app.notices']({})).find((n) => n.id === UNFINISHED_NOTICE_ID);
    expect(notice?.message).toMatch(/the report “Mill Lane assessment .*\.pdf” \(temporary file /);
  }, 60_000);
});
