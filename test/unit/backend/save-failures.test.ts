/**
 * Exports and reports the disk refuses, told by the one `saveFailure` (core/disk-errors.ts): a full
 * disk, a read-only one and a folder FieldDesk may not write to each have their own sentence naming
 * the folder and what was not saved, for a data CSV, a chart image and a report (PDF and CSV alike),
 * and an audio download whose folder is refused the same way; a failure that is not the disk's
 * says what failed.
 *
 * Full and read-only disks cannot be made here, and these tests may run as root, for whom chmod
 * denies nothing: the refusals are injected into `node:fs/promises` (as the system reports them:
 * an errno error with its code and path) for paths in one folder. The real refusals that can be
 * made are made too: a folder under a file (ENOTDIR) always, a folder without write permission
 * when not root (checked with `process.getuid()`, said when skipped).
 */
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FieldDeskError } from '../../../src/shared/errors';
import { saveFailure } from '../../../src/main/backend/core/disk-errors';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import type { Recording } from '../../../src/shared/audio';
import { audioBody, startAudioServer, TEST_SERIAL } from './audio-server';
import { createRecordingBackend, startDemoBackend, TEST_APP_INFO } from './backend-helpers';
import { failureOf, useTempDirs } from './helpers';

/** Paths under this folder are refused with `refusal` (null: nothing refused). */
const injected: { folder: string | null; refusal: string | null } = { folder: null, refusal: null };

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof fsPromises>();
  /** The error Node gives when the system refuses: an Error with errno code, syscall and path. */
  const refuse = (syscall: string, path: unknown): Error | null => {
    if (injected.folder === null || injected.refusal === null) return null;
    const target = String(path);
    if (target !== injected.folder && !target.startsWith(`${injected.folder}/`)) return null;
    const error = Object.assign(new Error(`${injected.refusal}: ${syscall} '${String(path)}'`), {
      code: injected.refusal,
      syscall,
      path: target,
    });
    return error;
  };
  return {
    ...actual,
    open: (async (...args: Parameters<typeof actual.open>) => {
      const refused = refuse('open', args[0]);
      if (refused !== null) throw refused;
      return actual.open(...args);
    }) as typeof actual.open,
    mkdir: (async (...args: Parameters<typeof actual.mkdir>) => {
      const refused = refuse('mkdir', args[0]);
      if (refused !== null) throw refused;
      return actual.mkdir(...args);
    }) as typeof actual.mkdir,
  };
});

const tempDir = useTempDirs();

const RECORDING: Recording = {
  id: 'au_recording-one_0123456789abcdef',
  source: 'recording',
  serial: TEST_SERIAL,
  start: Date.UTC(2026, 10, 23, 9, 15, 0),
  end: Date.UTC(2026, 10, 23, 9, 15, 30),
  triggerStart: null,
  triggerEnd: null,
  triggerName: '',
};

/** Polls until `check` answers a value (the download runs on its own); never a fixed wait. */
async function waitFor<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 1_000; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition never came true');
}
afterEach(() => {
  injected.folder = null;
  injected.refusal = null;
});

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC',
  'base64',
);
const DAY = 86_400_000;
const HOUR = 3_600_000;
const END = Math.floor(Date.now() / DAY) * DAY - DAY;

/** A backend whose exports go to `folder.path` (changed by the test), with the demo account. */
async function backendSavingTo(folder: { path: string }) {
  return startDemoBackend({ chooseExportPath: async (name) => join(folder.path, name) });
}

const MESSAGES: Record<string, (folder: string, what: string) => string> = {
  ENOSPC: (folder, what) =>
    `The disk holding ${folder} is full, so ${what} could not be saved. Free some space and try again.`,
  EROFS: (folder, what) =>
    `${folder} is on a read-only disk, so ${what} could not be saved. Choose a folder on a writable disk.`,
  EACCES: (folder, what) =>
    `FieldDesk is not allowed to write to ${folder}, so ${what} could not be saved. Check the folder's permissions, or choose another.`,
};

describe('an export or report the disk refuses', () => {
  for (const refusal of Object.keys(MESSAGES)) {
    it(`(${refusal}) says so in its own words, naming the folder and what was not saved`, async () => {
      const folder = { path: await tempDir() };
      const { handlers } = await backendSavingTo(folder);
      injected.folder = folder.path;
      injected.refusal = refusal;
      const expected = MESSAGES[refusal]!;

      const image = await failureOf(
        handlers['data.saveImage']({ fileName: 'QT1 chart.png', pngBase64: PIXEL.toString('base64') }),
      );
      expect(image).toMatchObject({ code: 'diskError', retryable: true });
      expect(image.message).toBe(expected(folder.path, 'the chart image “QT1 chart.png”'));

      const query = { serial: 'QT930998', dataset: 'noiseTimeHistory' as const, start: END - HOUR, end: END };
      const csv = await failureOf(handlers['data.export'](query));
      expect(csv.code).toBe('diskError');
      expect(csv.message).toMatch(withAnyName(expected(folder.path, 'the export “NAME”')));

      const site = await handlers['assessment.saveSite']({
        name: 'Mill Lane',
        timeZone: 'Europe/London',
        serials: ['QT930998'],
      });
      for (const [format, what] of [
        ['pdf', 'the report “NAME”'],
        ['csv', 'the CSV report “NAME”'],
      ] as const) {
        const report = await failureOf(
          handlers['assessment.report']({ siteId: site.id, start: END - DAY, end: END, format }),
        );
        expect(report.code).toBe('diskError');
        expect(report.message).toMatch(withAnyName(expected(folder.path, what)));
        expect(report.message).toContain('“Mill Lane assessment ');
      }
      // Nothing was left in the folder: no temporary file, no temporary folder.
      injected.folder = null;
      expect(await readdir(folder.path)).toEqual([]);
    }, 60_000);
  }

  it('an audio download into a folder the disk refuses says which refusal, for each of the three', async () => {
    const server = await startAudioServer({ body: audioBody(64 * 1024), ranges: true });
    try {
      for (const refusal of Object.keys(MESSAGES)) {
        const dataDir = await tempDir();
        const made = await createRecordingBackend({
          dataDir,
          vault: createMemoryVault('tests keep keys in memory'),
          appInfo: TEST_APP_INFO,
          startDemo: async () => ({ baseUrl: server.baseUrl, apiKey: 'k', close: async () => undefined }),
        });
        try {
          await made.handlers['accounts.tryDemo']({});
          const folder = join(dataDir, 'audio');
          injected.folder = folder;
          injected.refusal = refusal;
          const [queued] = await made.handlers['audio.download']({ recordings: [RECORDING], format: 'WAV' });
          const failed = await waitFor(async () =>
            (await made.handlers['audio.downloads']({})).find(
              (d) => d.id === queued!.id && d.state === 'failed',
            ),
          );
          expect(failed.error).toMatchObject({ code: 'diskError', retryable: true });
          expect(failed.error!.message).toBe(MESSAGES[refusal]!(folder, 'the recording'));
          expect(server.audioRequests).toHaveLength(0);
        } finally {
          injected.folder = null;
          await made.backend.close();
        }
      }
    } finally {
      await server.close();
    }
  }, 60_000);

  it('(ENOTDIR, not injected) a folder that is really a file is named as missing, and nothing is left', async () => {
    const parent = await tempDir();
    await writeFile(join(parent, 'not a folder'), 'a file');
    const folder = { path: join(parent, 'not a folder') };
    const { handlers } = await backendSavingTo(folder);
    const image = await failureOf(
      handlers['data.saveImage']({ fileName: 'x.png', pngBase64: PIXEL.toString('base64') }),
    );
    expect(image).toMatchObject({ code: 'diskError', retryable: true });
    expect(image.message).toBe(
      `The folder ${folder.path} does not exist (any more), so the chart image “x.png” could not be saved. Choose another folder.`,
    );
    expect(await readdir(parent)).toEqual(['not a folder']);
  });

  const root = process.getuid?.() === 0;
  it.skipIf(root)(
    root
      ? '(EACCES, not injected) skipped: running as root, for whom a folder without write permission still takes files'
      : '(EACCES, not injected) a folder without write permission is named, and nothing is left',
    async () => {
      const folder = { path: join(await tempDir(), 'locked') };
      await mkdir(folder.path);
      await chmod(folder.path, 0o500);
      try {
        const { handlers } = await backendSavingTo(folder);
        const image = await failureOf(
          handlers['data.saveImage']({ fileName: 'x.png', pngBase64: PIXEL.toString('base64') }),
        );
        expect(image.message).toBe(MESSAGES.EACCES!(folder.path, 'the chart image “x.png”'));
        expect(await readdir(folder.path)).toEqual([]);
      } finally {
        await chmod(folder.path, 0o700);
      }
    },
  );

  it('a failure that is not the disk’s says what failed, and that nothing was saved', () => {
    const failure = saveFailure(new Error('the PDF library ran out of pages.'), {
      path: '/home/me/Site A.pdf',
      what: 'the report “Site A.pdf”',
    });
    expect(failure).toBeInstanceOf(FieldDeskError);
    expect(failure).toMatchObject({ code: 'internal', retryable: false });
    expect(failure.message).toBe(
      'FieldDesk could not make the report “Site A.pdf”: the PDF library ran out of pages. Nothing was saved.',
    );
    // One of ours passes through as it is (it already says what went wrong).
    const cancelled = new FieldDeskError('cancelled', 'The report was stopped.');
    expect(saveFailure(cancelled, { path: '/x/y.pdf', what: 'the report' })).toBe(cancelled);
  });

  it('the injection reaches the code under test (a guard against a mock that no longer applies)', async () => {
    injected.folder = '/injected';
    injected.refusal = 'EROFS';
    await expect(fsPromises.open('/injected/x', 'w')).rejects.toMatchObject({
      code: 'EROFS',
      path: '/injected/x',
    });
  });
});

/** The whole of `message` as a pattern in which NAME stands for any file name. */
function withAnyName(message: string): RegExp {
  const literal = message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${literal.replace('NAME', '[^”]+')}$`);
}
