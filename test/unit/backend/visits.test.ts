/**
 * Site visits through the backend against the demo service: started, checked off, a photo copied
 * into the data folder, a calibration run during the visit linked with its verdict, the visit
 * sheet written and read back; and the visit kept across a restart, a damaged records file, and
 * the network lost.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strToU8, zipSync } from 'fflate';
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME } from '../../../src/main/backend/core/database';
import { RECORDS_FILE_NAME, RECORDS_NOTICE } from '../../../src/main/backend/records/records-database';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { FieldDeskError } from '../../../src/shared/errors';
import { DEFAULT_CHECKLISTS, PHOTO_MAX_BYTES } from '../../../src/shared/visits';
import {
  createRecordingBackend,
  DEMO_TEST_KEY,
  demoBackendOptions,
  FAST_ACTION_OPTIONS,
  operationFinished,
} from './backend-helpers';
import { makeTempDir } from './helpers';
import type { BackendOptions } from '../../../src/main/backend/backend';

const run = promisify(execFile);
const PHOTO = join(__dirname, '../../fixtures/site-photo-mast.jpg');
let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
let networkDown = false;

beforeEach(async () => {
  networkDown = false;
  service = await startDemoService({
    port: 0,
    keys: { [DEMO_TEST_KEY]: '*' },
    rateLimit: 10_000,
    timeScale: 0.01,
  });
  dataDir = await makeTempDir();
});

afterEach(async () => {
  await service.close();
  await dataDir.remove();
});

/** A 1 × 1 PNG sound in structure (every chunk's CRC right) whose IDAT holds `data`. */
function pngWithImageData(data: Buffer): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), body])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', data),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function open(options: Partial<BackendOptions> = {}) {
  return createRecordingBackend({
    ...demoBackendOptions(dataDir.path, service),
    ...FAST_ACTION_OPTIONS,
    recordsBackup: { delayMs: 0, spacingMs: 0 },
    fetch: (input, init) =>
      networkDown
        ? Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))
        : fetch(input, init),
    ...options,
  });
}

async function firstNoiseSerial(handlers: Awaited<ReturnType<typeof open>>['handlers']): Promise<string> {
  const { entries } = await handlers['instruments.list']({});
  return entries.find((e) => e.instrument.type === 'Noise')!.instrument.serialNumber;
}

const hasPoppler = async () => {
  try {
    await run('pdftotext', ['-v']);
    return true;
  } catch {
    return false;
  }
};

describe('a site visit from start to sheet', () => {
  it('checks off, keeps a photo, links the calibration run during it, and writes a sheet that says so', async () => {
    const made = await open();
    const { handlers } = made;
    try {
      await handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(handlers);
      const before = await handlers['actions.start']({ serial, action: 'Identify' });
      await operationFinished(made, before.id);

      const started = await handlers['visits.start']({ serials: [serial], engineer: 'Asha Patel' });
      const { visit } = started;
      expect(visit.leftAt).toBeNull();
      expect(visit.checklist.map((c) => c.label)).toEqual(DEFAULT_CHECKLISTS.Noise);
      // The Identify ran before the visit began: not part of it.
      expect(started.actions).toEqual([]);
      expect((await handlers['visits.templates']({})).lastEngineer).toBe('Asha Patel');

      const calibrator = await handlers['calibrators.save']({
        model: 'CR:515',
        serial: '054433',
        class: '1',
        levelsDb: [94, 114],
        certificateDate: '2026-03-01',
        dueDate: '2027-03-01',
      });
      const calibration = await handlers['actions.start']({
        serial,
        action: 'Calibration',
        calibratorId: calibrator.id,
      });
      const outcome = await operationFinished(made, calibration.id);
      expect(outcome.result?.kind).toBe('calibration');

      const checklist = visit.checklist.map((item, i) =>
        i === 0
          ? { ...item, state: 'issue' as const, note: 'Windshield torn by birds' }
          : { ...item, state: 'ok' as const },
      );
      await handlers['visits.update']({ id: visit.id, checklist, notes: 'Replaced the windshield.' });
      const photo = (await readFile(PHOTO)).toString('base64');
      const withPhoto = await handlers['visits.addPhoto']({
        visitId: visit.id,
        fileName: 'mast.jpg',
        caption: 'Mast after the repair',
        imageBase64: photo,
        reduce: false,
      });
      const [kept] = withPhoto.visit.photos;
      expect(kept).toMatchObject({ fileName: 'mast.jpg', caption: 'Mast after the repair' });
      const folder = join(dataDir.path, 'visits', withPhoto.visit.accountId, visit.id);
      expect((await readdir(folder)).sort()).toEqual([`${kept!.id}-thumb.jpg`, kept!.storedName].sort());
      // The thumbnail the backend made: a JPEG, its longer side 480 px (the photo is 640 × 480).
      const thumbnailUrl = await handlers['visits.thumbnail']({ visitId: visit.id, photoId: kept!.id });
      expect(thumbnailUrl.startsWith('data:image/jpeg;base64,')).toBe(true);
      const thumbnail = await sharp(Buffer.from(thumbnailUrl.split(',')[1]!, 'base64')).metadata();
      expect([thumbnail.format, thumbnail.width, thumbnail.height]).toEqual(['jpeg', 480, 360]);
      // The photo itself, whole, for the viewer; its copy gone, said plainly.
      expect(await handlers['visits.photo']({ visitId: visit.id, photoId: kept!.id })).toBe(
        `data:image/jpeg;base64,${photo}`,
      );
      const stored = await readFile(join(folder, kept!.storedName));
      await rm(join(folder, kept!.storedName));
      await expect(handlers['visits.photo']({ visitId: visit.id, photoId: kept!.id })).rejects.toThrow(
        'The copy of “mast.jpg” is missing from the data folder, so it cannot be shown.',
      );
      await writeFile(join(folder, kept!.storedName), stored);

      const left = Date.now();
      const done = await handlers['visits.update']({ id: visit.id, leftAt: left });
      expect(done.actions.map((a) => [a.action, a.id])).toEqual([['Calibration', calibration.id]]);
      const list = await handlers['visits.list']({ serial });
      expect(list.visits).toEqual([
        expect.objectContaining({ id: visit.id, engineer: 'Asha Patel', issues: 1, open: 0, photos: 1 }),
      ]);

      // Reopened, the departure is kept (and stays kept through other changes) until finished again.
      const reopened = await handlers['visits.update']({ id: visit.id, leftAt: null });
      expect(reopened.visit).toMatchObject({ leftAt: null, keptLeftAt: left });
      const noted = await handlers['visits.update']({ id: visit.id, engineer: 'Asha Patel' });
      expect(noted.visit.keptLeftAt).toBe(left);
      const again = await handlers['visits.update']({ id: visit.id, leftAt: left });
      expect(again.visit).toMatchObject({ leftAt: left, keptLeftAt: null });

      const sheet = await handlers['visits.sheet']({ id: visit.id });
      expect(sheet).toMatchObject({ saved: true });
      expect(sheet.pages).toBeGreaterThanOrEqual(1);
      expect(sheet.pages).toBeLessThanOrEqual(2);
      const bytes = await readFile(sheet.path!);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      if (!(await hasPoppler())) {
        console.info('pdftotext is not installed here (Debian: poppler-utils): the sheet is not read back');
        return;
      }
      const { stdout: text } = await run('pdftotext', ['-layout', sheet.path!, '-']);
      expect(text).toContain('Asha Patel');
      expect(text).toContain('Windshield torn by birds');
      expect(text).toContain('Replaced the windshield.');
      expect(text).toMatch(
        new RegExp(
          // The check's one record: FieldDesk's verdict named as its own, the instrument's word after it.
          `Calibration\\s+${outcome.result!.kind === 'calibration' && outcome.result!.passed ? 'Pass' : 'Fail'} \\(FieldDesk\\): level`,
        ),
      );
      expect(text).toContain('Mast after the repair');
      // The calibrator kept with the calibration's result, named as engineers write it.
      expect(text).toContain('CR:515 #054433');
      const { stdout: images } = await run('pdfimages', ['-list', sheet.path!]);
      // pdfimages lists a header of two lines, then one line per image.
      expect(images.trim().split('\n').length - 2).toBe(1);
    } finally {
      await made.backend.close();
    }
  });

  it('writes every photo of a site visit on its sheet, its times in the site’s zone with the offset', async () => {
    const made = await open();
    try {
      await made.handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(made.handlers);
      const site = await made.handlers['assessment.saveSite']({
        name: 'Harbour road',
        timeZone: 'Pacific/Auckland',
        serials: [serial],
      });
      // 10:30 UTC on 2 Dec 2026 is 23:30 in Auckland (UTC+13:00, its summer time).
      const arrivedAt = Date.UTC(2026, 11, 2, 10, 30);
      const { visit } = await made.handlers['visits.start']({
        serials: [serial],
        siteId: site.id,
        engineer: 'Asha Patel',
        arrivedAt,
      });
      const photo = (await readFile(PHOTO)).toString('base64');
      for (let i = 1; i <= 11; i++)
        await made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: `mast-${i}.jpg`,
          caption: `Photo number ${i}`,
          imageBase64: photo,
          reduce: false,
        });
      const sheet = await made.handlers['visits.sheet']({ id: visit.id });
      expect(sheet).toMatchObject({ saved: true });
      if (!(await hasPoppler())) {
        console.info('pdftotext is not installed here (Debian: poppler-utils): the sheet is not read back');
        return;
      }
      const { stdout: text } = await run('pdftotext', ['-layout', sheet.path!, '-']);
      expect(text).toContain('Photos (11)');
      for (let i = 1; i <= 11; i++) expect(text).toContain(`Photo number ${i} (mast-${i}.jpg)`);
      expect(text).not.toMatch(/more photos? kept/);
      expect(text).toContain('times in Pacific/Auckland (UTC+13:00)');
      expect(text).toMatch(/Arrived\s+.*2026.*23:30/);
      const { stdout: images } = await run('pdfimages', ['-list', sheet.path!]);
      expect(images.trim().split('\n').length - 2).toBe(11);
    } finally {
      await made.backend.close();
    }
  });

  it('refuses a file that is not a picture (or not only one), a picture it cannot decode and an end before the start', async () => {
    const made = await open();
    try {
      await made.handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(made.handlers);
      const { visit } = await made.handlers['visits.start']({ serials: [serial], engineer: 'Asha Patel' });
      const text = Buffer.from('not a photo at all').toString('base64');
      await expect(
        made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: 'notes.txt',
          caption: '',
          imageBase64: text,
          reduce: false,
        }),
      ).rejects.toThrow('“notes.txt” is not a JPEG, PNG, GIF or WebP picture');
      // Only starting like a JPEG is not enough: the picture is read whole, to its end.
      await expect(
        made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: 'cut.jpg',
          caption: '',
          imageBase64: Buffer.from([0xff, 0xd8, 0xff]).toString('base64'),
          reduce: false,
        }),
      ).rejects.toThrow(
        '“cut.jpg” is not a picture FieldDesk can read: it ends before its image data. It was not added; export it from the phone or camera again as JPEG.',
      );
      const html = Buffer.from('<html><body><script>alert(1)</script></body></html>');
      const zip = Buffer.from(zipSync({ 'readme.txt': strToU8('hello') }));
      const polyglot = Buffer.concat([await readFile(PHOTO), html, zip]).toString('base64');
      const extra = (html.length + zip.length).toLocaleString('en-GB');
      await expect(
        made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: 'mast.jpg',
          caption: '',
          imageBase64: polyglot,
          reduce: false,
        }),
      ).rejects.toThrow(
        `“mast.jpg” is not a picture FieldDesk can read: it has ${extra} bytes of something else after the picture.`,
      );
      // Sound in structure, but its pixels cannot be decoded (a PNG whose image data is not zlib).
      await expect(
        made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: 'scan.png',
          caption: '',
          imageBase64: pngWithImageData(Buffer.from('not zlib data at all')).toString('base64'),
          reduce: false,
        }),
      ).rejects.toThrow(
        '“scan.png” as a picture: its image data is damaged or coded in a way FieldDesk does not know. It was not added',
      );
      expect((await made.handlers['visits.get']({ id: visit.id })).visit.photos).toEqual([]);
      await expect(
        made.handlers['visits.update']({ id: visit.id, leftAt: visit.arrivedAt - 60_000 }),
      ).rejects.toThrow('The visit cannot end before it began.');
      await expect(
        made.handlers['visits.update']({
          id: visit.id,
          checklist: [{ id: 'x', serial: 'QT000000', label: 'Mast', state: 'ok', note: '' }],
        }),
      ).rejects.toThrow('The checklist names QT000000, which is not one of this visit');
      // A note and the next answer sent one after the other, each naming only its own item and
      // field, keep both; an item no longer on the visit is said as such.
      const [first, second] = visit.checklist;
      await made.handlers['visits.update']({
        id: visit.id,
        items: [{ id: first!.id, note: 'Windshield torn' }],
      });
      const both = await made.handlers['visits.update']({
        id: visit.id,
        items: [{ id: second!.id, state: 'ok' }],
      });
      expect(both.visit.checklist.slice(0, 2)).toEqual([
        { ...first, note: 'Windshield torn' },
        { ...second, state: 'ok' },
      ]);
      await expect(
        made.handlers['visits.update']({ id: visit.id, items: [{ id: 'gone', state: 'ok' }] }),
      ).rejects.toMatchObject({
        code: 'notFound',
        message: 'That checklist item is no longer on this visit.',
      });
      // Nothing was kept of the refused photos.
      expect(existsSync(join(dataDir.path, 'visits', visit.accountId, visit.id))).toBe(false);
      expect((await made.handlers['visits.get']({ id: visit.id })).visit.photos).toEqual([]);
    } finally {
      await made.backend.close();
    }
  });
});

describe('a visit is kept', () => {
  it('across a restart, offline, after records.db is damaged (restored from its backup, the notice naming it) and after the cache is', async () => {
    const first = await open();
    let id: string;
    try {
      await first.handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(first.handlers);
      // Without signal from here on: the visit starts from the last known list.
      networkDown = true;
      const { visit } = await first.handlers['visits.start']({ serials: [serial], engineer: 'Tom Reyes' });
      expect(visit.instruments[0]!.serial).toBe(serial);
      expect(visit.instruments[0]!.name).not.toBe('');
      await first.handlers['visits.update']({ id: visit.id, notes: 'Mast leaning; guy rope re-tensioned.' });
      id = visit.id;
    } finally {
      await first.backend.close();
    }

    const second = await open();
    try {
      const { visit } = await second.handlers['visits.get']({ id });
      expect(visit).toMatchObject({ engineer: 'Tom Reyes', notes: 'Mast leaning; guy rope re-tensioned.' });
    } finally {
      await second.backend.close();
    }

    const path = join(dataDir.path, RECORDS_FILE_NAME);
    await writeFile(path, Buffer.alloc((await readFile(path)).length));
    const third = await open();
    try {
      const { visit } = await third.handlers['visits.get']({ id });
      expect(visit.notes).toBe('Mast leaning; guy rope re-tensioned.');
      const notice = (await third.handlers['app.notices']({})).find((n) => n.id === RECORDS_NOTICE.restored);
      expect(notice?.message).toMatch(/site visits/);
      expect(notice?.message).toMatch(/Your records now hold 1 site visit\b/);
    } finally {
      await third.backend.close();
    }

    // The data cache damaged: set aside for a fresh one, and the visit — kept apart — is all there.
    const cache = join(dataDir.path, DATABASE_FILE_NAME);
    await writeFile(cache, Buffer.alloc((await readFile(cache)).length));
    const fourth = await open();
    try {
      const { visit } = await fourth.handlers['visits.get']({ id });
      expect(visit).toMatchObject({ engineer: 'Tom Reyes', notes: 'Mast leaning; guy rope re-tensioned.' });
    } finally {
      await fourth.backend.close();
    }
  });

  it('says a visit that is gone is gone', async () => {
    const made = await open();
    try {
      await made.handlers['accounts.tryDemo']({});
      const error = await made.handlers['visits.get']({ id: 'no-such-visit' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FieldDeskError);
      expect((error as FieldDeskError).message).toBe(
        'This visit no longer exists. It may have been deleted in another window.',
      );
    } finally {
      await made.backend.close();
    }
  });
});

describe('photos the backend reads and reduces', () => {
  /** A 4000 × 3000 JPEG, as a phone takes them. */
  const phonePhoto = () =>
    sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#2f6f4e' } })
      .jpeg({ quality: 90 })
      .toBuffer();

  it('keeps the camera’s file, or a reduced copy when asked, each with its thumbnail', async () => {
    const made = await open();
    try {
      await made.handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(made.handlers);
      const { visit } = await made.handlers['visits.start']({ serials: [serial], engineer: 'Asha Patel' });
      const original = await phonePhoto();
      const add = (reduce: boolean) =>
        made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: reduce ? 'reduced.jpg' : 'whole.jpg',
          caption: '',
          imageBase64: original.toString('base64'),
          reduce,
        });
      await add(false);
      const { visit: kept } = await add(true);
      const folder = join(dataDir.path, 'visits', kept.accountId, visit.id);
      const sizes = await Promise.all(
        kept.photos.map(async (photo) => {
          const bytes = await readFile(join(folder, photo.storedName));
          const meta = await sharp(bytes).metadata();
          const thumb = await sharp(await readFile(join(folder, `${photo.id}-thumb.jpg`))).metadata();
          return {
            name: photo.fileName,
            bytes: photo.bytes === bytes.length,
            size: [meta.width, meta.height],
            thumb: [thumb.width, thumb.height],
            same: bytes.equals(original),
          };
        }),
      );
      expect(sizes).toEqual([
        { name: 'whole.jpg', bytes: true, size: [4000, 3000], thumb: [480, 360], same: true },
        { name: 'reduced.jpg', bytes: true, size: [2560, 1920], thumb: [480, 360], same: false },
      ]);
    } finally {
      await made.backend.close();
    }
  });

  it('refuses a picture with more pixels than it decodes in that format, saying its size', async () => {
    const made = await open();
    try {
      await made.handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(made.handlers);
      const { visit } = await made.handlers['visits.start']({ serials: [serial], engineer: 'Asha Patel' });
      // A few kilobytes that would decode to 80 MB of RGBA: refused before it is decoded.
      const gif = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#ffffff' } })
        .gif()
        .toBuffer();
      expect(gif.length).toBeLessThan(1_000_000);
      await expect(
        made.handlers['visits.addPhoto']({
          visitId: visit.id,
          fileName: 'plan.gif',
          caption: '',
          imageBase64: gif.toString('base64'),
          reduce: false,
        }),
      ).rejects.toThrow('“plan.gif” is 5,000 × 4,000 pixels, more than FieldDesk takes in this format.');
    } finally {
      await made.backend.close();
    }
  });

  it('reads a photo chosen in the system dialog from its path, by the token it was given', async () => {
    const notes = join(dataDir.path, 'notes.txt');
    await writeFile(notes, 'not a photo at all');
    const video = join(dataDir.path, 'video.jpg');
    await writeFile(video, Buffer.alloc(PHOTO_MAX_BYTES + 1));
    let chosen: string[] | null = [PHOTO, notes, video];
    const made = await open({ choosePhotoFiles: async () => chosen });
    try {
      await made.handlers['accounts.tryDemo']({});
      const serial = await firstNoiseSerial(made.handlers);
      const { visit } = await made.handlers['visits.start']({ serials: [serial], engineer: 'Asha Patel' });
      const photos = await made.handlers['visits.choosePhotos']({});
      const photoBytes = (await readFile(PHOTO)).length;
      expect(photos.map(({ fileName, bytes }) => ({ fileName, bytes }))).toEqual([
        { fileName: 'site-photo-mast.jpg', bytes: photoBytes },
        { fileName: 'notes.txt', bytes: 18 },
        // Listed with no size: adding it says why.
        { fileName: 'video.jpg', bytes: 0 },
      ]);
      const [photo, text, large] = photos;
      await expect(
        made.handlers['visits.addChosenPhoto']({
          visitId: visit.id,
          token: large!.token,
          caption: '',
          reduce: false,
        }),
      ).rejects.toThrow('“video.jpg” is larger than FieldDesk keeps for a photo (26 MB at most).');
      const added = await made.handlers['visits.addChosenPhoto']({
        visitId: visit.id,
        token: photo!.token,
        caption: 'Mast',
        reduce: false,
      });
      expect(added.visit.photos).toMatchObject([
        { fileName: 'site-photo-mast.jpg', caption: 'Mast', bytes: photoBytes },
      ]);
      // A token is read once; a file that is no picture is said as such.
      await expect(
        made.handlers['visits.addChosenPhoto']({
          visitId: visit.id,
          token: photo!.token,
          caption: '',
          reduce: false,
        }),
      ).rejects.toThrow('That photo was chosen in an earlier dialog. Choose it again.');
      await expect(
        made.handlers['visits.addChosenPhoto']({
          visitId: visit.id,
          token: text!.token,
          caption: '',
          reduce: false,
        }),
      ).rejects.toThrow('“notes.txt” is not a JPEG, PNG, GIF or WebP picture');
      // Moved away after it was chosen: said, nothing kept.
      const [again] = await made.handlers['visits.choosePhotos']({});
      const moved = join(dataDir.path, 'moved.jpg');
      chosen = [moved];
      await writeFile(moved, await readFile(PHOTO));
      const [movedChoice] = await made.handlers['visits.choosePhotos']({});
      await rm(moved);
      await expect(
        made.handlers['visits.addChosenPhoto']({
          visitId: visit.id,
          token: movedChoice!.token,
          caption: '',
          reduce: false,
        }),
      ).rejects.toThrow('“moved.jpg” is no longer where it was chosen (moved or deleted). Choose it again.');
      // A new choice replaces the tokens of the last.
      await expect(
        made.handlers['visits.addChosenPhoto']({
          visitId: visit.id,
          token: again!.token,
          caption: '',
          reduce: false,
        }),
      ).rejects.toThrow('chosen in an earlier dialog');
      chosen = null;
      expect(await made.handlers['visits.choosePhotos']({})).toEqual([]);
      expect((await made.handlers['visits.get']({ id: visit.id })).visit.photos).toHaveLength(1);
    } finally {
      await made.backend.close();
    }
  });

  it('says the dialog needs the desktop app where there is none', async () => {
    const made = await open();
    try {
      await made.handlers['accounts.tryDemo']({});
      await expect(made.handlers['visits.choosePhotos']({})).rejects.toMatchObject({
        code: 'invalidRequest',
        message: expect.stringMatching(/^Choosing photos from the disk needs the desktop app/),
      });
    } finally {
      await made.backend.close();
    }
  });
});
