/**
 * Visit photos a stopped FieldDesk left half-added, settled at the next start (visits/visit-photos.ts)
 * with real files in a real data folder:
 * - FieldDesk KILLED (SIGKILL, in a child `node` process: visit-photos-child.ts) while it wrote the
 *   thumbnail: the picture already in place is removed, and one notice says so in words, naming the
 *   visit (the thumbnail's temporary file is not named again in the general notice);
 * - killed after both files were in place but before the visit's record named them: the photo is
 *   added back, whole;
 * - files written here by hand: a picture with no thumbnail and no record is removed, picture and
 *   thumbnail of an existing visit are added back, a file that is not FieldDesk's is left alone,
 *   the folder of a deleted visit is removed, and after records.db is restored from a backup the
 *   photos of a visit the backup lacks are moved aside, not removed.
 * The killed children start a process and a backend each: their time limit is generous (60 s).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UNFINISHED_NOTICE_ID } from '../../../src/main/backend/core/unfinished-files';
import { RECORDS_FILE_NAME, RECORDS_NOTICE } from '../../../src/main/backend/records/records-database';
import {
  ADDED_BACK_NAME,
  SET_ASIDE_FOLDER,
  VISIT_PHOTOS_NOTICE_ID,
} from '../../../src/main/backend/visits/visit-photos';
import { visitTitle } from '../../../src/main/backend/visits/visit-sheet';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import type { SiteVisit } from '../../../src/shared/visits';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import { useTempDirs } from './helpers';

const PHOTO = join(__dirname, '../../fixtures/site-photo-mast.jpg');
const tempDir = useTempDirs();
let service: RunningDemoService;
const toClose: Array<() => Promise<void>> = [];

beforeEach(async () => {
  service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 10_000 });
});
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
  await service.close();
});

/** FieldDesk started on `dataDir` in this process (its demo account is the test's demo service). */
async function start(dataDir: string) {
  const made = await createRecordingBackend({
    ...demoBackendOptions(dataDir, service),
    recordsBackup: { delayMs: 0, spacingMs: 0 },
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

/** A visit started on a first run, which is then closed: the data folder as a later start finds it. */
async function visitOnDisk(dataDir: string): Promise<SiteVisit> {
  const first = await start(dataDir);
  await first.handlers['accounts.tryDemo']({});
  const { entries } = await first.handlers['instruments.list']({});
  const { visit } = await first.handlers['visits.start']({
    serials: [entries[0]!.instrument.serialNumber],
    engineer: 'Asha Patel',
  });
  await first.close();
  return visit;
}

const folderOf = (dataDir: string, visit: Pick<SiteVisit, 'accountId' | 'id'>) =>
  join(dataDir, 'visits', visit.accountId, visit.id);

/** "28 Nov 2026", as the notice says the visit's day. */
const day = (time: number) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(time);

const noticeOf = async (handlers: Awaited<ReturnType<typeof start>>['handlers'], id: string) =>
  (await handlers['app.notices']({})).find((n) => n.id === id);

/** Runs the child until it says it stopped where asked, then SIGKILLs it; answers what it said. */
function runChildUntilKilled(dataDir: string, stopAt: 'thumbnail' | 'record') {
  return new Promise<{ visitId: string; accountId: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'visit-photos-child.ts')], {
      cwd: join(__dirname, '../../..'),
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        BASE_URL: service.baseUrl,
        API_KEY: DEMO_TEST_KEY,
        STOP_AT: stopAt,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    let errors = '';
    let visit: { visitId: string; accountId: string } | null = null;
    let stopped = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      buffer += text;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        if (typeof line.visitId === 'string')
          visit = line as unknown as { visitId: string; accountId: string };
        if (!stopped && line.stoppedAt === stopAt) {
          stopped = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.stderr.on('data', (text: Buffer) => (errors += text.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' && stopped && visit !== null) resolve(visit);
      else reject(new Error(`the child ended without stopping at ${stopAt} (${code ?? signal}): ${errors}`));
    });
  });
}

describe('a photo whose adding FieldDesk was killed in', () => {
  it('(thumbnail) is removed at the next start, the one notice naming the visit in words', async () => {
    const dataDir = await tempDir();
    const { visitId, accountId } = await runChildUntilKilled(dataDir, 'thumbnail');
    const folder = folderOf(dataDir, { accountId, id: visitId });
    // As the kill left it: the 7 KB picture in place, the thumbnail only a temporary file.
    const left = await readdir(folder);
    expect(left).toHaveLength(2);
    expect(left.filter((name) => /^[0-9a-f-]{36}\.jpg$/.test(name))).toHaveLength(1);
    expect(left.filter((name) => /-thumb\.jpg\.fielddesk-[0-9a-f]{8}\.part$/.test(name))).toHaveLength(1);

    const { handlers } = await start(dataDir);
    expect(await readdir(folder)).toEqual([]);
    const { visit } = await handlers['visits.get']({ id: visitId });
    expect(visit.photos).toEqual([]);
    const notice = await noticeOf(handlers, VISIT_PHOTOS_NOTICE_ID);
    expect(notice?.tone).toBe('warning');
    expect(notice?.message).toBe(
      `FieldDesk found 1 photo of the visit of ${day(visit.arrivedAt)} at ${visitTitle(visit)} that was being ` +
        'added when FieldDesk stopped; it was removed, as it was not kept whole: add it again.',
    );
    // Said once: the general notice does not name the thumbnail's temporary file as well.
    expect(await noticeOf(handlers, UNFINISHED_NOTICE_ID)).toBeUndefined();
  }, 60_000);

  it('(record) is added back whole at the next start: both files were kept', async () => {
    const dataDir = await tempDir();
    const { visitId, accountId } = await runChildUntilKilled(dataDir, 'record');
    const folder = folderOf(dataDir, { accountId, id: visitId });
    expect(await readdir(folder)).toHaveLength(2);

    const { handlers } = await start(dataDir);
    const { visit } = await handlers['visits.get']({ id: visitId });
    const [photo] = visit.photos;
    expect(photo).toMatchObject({
      fileName: `${ADDED_BACK_NAME}.jpg`,
      caption: '',
      bytes: (await readFile(PHOTO)).length,
    });
    // The thumbnail the backend made before the kill, as it was kept.
    const thumbnail = await readFile(join(folder, `${photo!.id}-thumb.jpg`));
    expect(await handlers['visits.thumbnail']({ visitId, photoId: photo!.id })).toBe(
      `data:image/jpeg;base64,${thumbnail.toString('base64')}`,
    );
    const notice = await noticeOf(handlers, VISIT_PHOTOS_NOTICE_ID);
    expect(notice?.tone).toBe('info');
    expect(notice?.message).toBe(
      `FieldDesk found 1 photo of the visit of ${day(visit.arrivedAt)} at ${visitTitle(visit)} that was being ` +
        `added when FieldDesk stopped; it was added back, named “${ADDED_BACK_NAME}”.`,
    );
  }, 60_000);
});

describe('photo files no visit record names, found at start', () => {
  it('removes a picture without its thumbnail, adds back picture and thumbnail, leaves others’ files alone', async () => {
    const dataDir = await tempDir();
    const visit = await visitOnDisk(dataDir);
    const folder = folderOf(dataDir, visit);
    const photo = await readFile(PHOTO);
    await mkdir(folder, { recursive: true });
    const lone = '0b5e1c1e-0000-4000-8000-000000000001';
    const pair = '0b5e1c1e-0000-4000-8000-000000000002';
    await writeFile(join(folder, `${lone}.jpg`), photo);
    await writeFile(join(folder, `${pair}.jpg`), photo);
    await writeFile(join(folder, `${pair}-thumb.jpg`), photo);
    await writeFile(join(folder, 'notes.txt'), 'the engineer’s own');

    const { handlers } = await start(dataDir);
    expect((await readdir(folder)).sort()).toEqual([`${pair}-thumb.jpg`, `${pair}.jpg`, 'notes.txt']);
    const { visit: after } = await handlers['visits.get']({ id: visit.id });
    expect(after.photos.map((p) => [p.id, p.storedName])).toEqual([[pair, `${pair}.jpg`]]);
    const notice = await noticeOf(handlers, VISIT_PHOTOS_NOTICE_ID);
    expect(notice?.tone).toBe('warning');
    expect(notice?.message).toBe(
      `FieldDesk found 2 photos of the visit of ${day(visit.arrivedAt)} at ${visitTitle(visit)} that were being ` +
        `added when FieldDesk stopped; 1 was added back, named “${ADDED_BACK_NAME}”, and 1 removed, as not kept whole: ` +
        'add that one again.',
    );
  });

  it('removes a pair whose picture does not check out, and the folder of a deleted visit, silently', async () => {
    const dataDir = await tempDir();
    const visit = await visitOnDisk(dataDir);
    const folder = folderOf(dataDir, visit);
    const photo = await readFile(PHOTO);
    await mkdir(folder, { recursive: true });
    const cut = '0b5e1c1e-0000-4000-8000-000000000003';
    await writeFile(join(folder, `${cut}.jpg`), photo.subarray(0, 3000));
    await writeFile(join(folder, `${cut}-thumb.jpg`), photo);
    const deleted = folderOf(dataDir, { accountId: visit.accountId, id: 'a-visit-since-deleted' });
    await mkdir(deleted);
    await writeFile(join(deleted, '0b5e1c1e-0000-4000-8000-000000000004.jpg'), photo);

    const { handlers } = await start(dataDir);
    expect(await readdir(folder)).toEqual([]);
    expect(existsSync(deleted)).toBe(false);
    expect((await handlers['visits.get']({ id: visit.id })).visit.photos).toEqual([]);
    expect((await noticeOf(handlers, VISIT_PHOTOS_NOTICE_ID))?.message).toMatch(
      /^FieldDesk found 1 photo of the visit .* it was removed, as it was not kept whole: add it again\.$/,
    );
  });

  it('moves aside, never removes, the photos of a visit a restored backup does not hold', async () => {
    const dataDir = await tempDir();
    const visit = await visitOnDisk(dataDir);
    // A visit made after the backup was taken: its folder is there, its record is not.
    const newer = folderOf(dataDir, { accountId: visit.accountId, id: 'made-after-the-backup' });
    await mkdir(newer, { recursive: true });
    await writeFile(join(newer, '0b5e1c1e-0000-4000-8000-000000000005.jpg'), await readFile(PHOTO));
    const records = join(dataDir, RECORDS_FILE_NAME);
    await writeFile(records, Buffer.alloc((await readFile(records)).length));

    const { handlers } = await start(dataDir);
    expect(await noticeOf(handlers, RECORDS_NOTICE.restored)).toBeDefined();
    expect(existsSync(newer)).toBe(false);
    const [stamp] = await readdir(join(dataDir, SET_ASIDE_FOLDER));
    const moved = join(dataDir, SET_ASIDE_FOLDER, stamp!, visit.accountId, 'made-after-the-backup');
    expect(await readdir(moved)).toEqual(['0b5e1c1e-0000-4000-8000-000000000005.jpg']);
    const notice = await noticeOf(handlers, VISIT_PHOTOS_NOTICE_ID);
    expect(notice?.message).toBe(
      'Your records were restored from a backup that does not hold 1 visit whose photos are in the data folder: ' +
        `FieldDesk moved its photos to ${join(dataDir, SET_ASIDE_FOLDER, stamp!)}, so none is lost.`,
    );
    // The visit the backup holds is still there.
    expect((await handlers['visits.get']({ id: visit.id })).visit.id).toBe(visit.id);
  });
});
