/**
 * A site handed over as one `.fielddesk-site` file between two laptops (two backends, two data
 * folders, the demo service): the demo's site with an exclusion, a visit with its photo and the
 * calibrator its calibration named comes back record by record equal; a file read again is all
 * "same"; and a malformed, oversized, path-traversing, future-version or undecodable file is refused
 * with its reason, nothing written.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import {
  createRecordingBackend,
  DEMO_TEST_KEY,
  demoBackendOptions,
  FAST_ACTION_OPTIONS,
  operationFinished,
} from './backend-helpers';
import { makeTempDir } from './helpers';

const PHOTO = join(__dirname, '../../fixtures/site-photo-mast.jpg');
let service: RunningDemoService;
const folders: Array<{ path: string; remove(): Promise<void> }> = [];
const backends: Array<{ close(): Promise<void> }> = [];

beforeEach(async () => {
  service = await startDemoService({
    port: 0,
    keys: { [DEMO_TEST_KEY]: '*' },
    rateLimit: 10_000,
    timeScale: 0.01,
  });
});
afterEach(async () => {
  for (const backend of backends.splice(0)) await backend.close();
  for (const folder of folders.splice(0)) await folder.remove();
  await service.close();
});

async function laptop() {
  const folder = await makeTempDir();
  folders.push(folder);
  const made = await createRecordingBackend({
    ...demoBackendOptions(folder.path, service),
    ...FAST_ACTION_OPTIONS,
  });
  backends.push(made.backend);
  await made.handlers['accounts.tryDemo']({});
  return { ...made, dataDir: folder.path };
}
type Laptop = Awaited<ReturnType<typeof laptop>>;

/** The demo's site with what a day on site leaves: an exclusion, a visit, a photo, a calibration. */
async function siteWithAVisit(a: Laptop) {
  const { handlers } = a;
  const { entries } = await handlers['instruments.list']({});
  const serial = entries.find((e) => e.instrument.type === 'Noise')!.instrument.serialNumber;
  const site = await handlers['assessment.saveSite']({
    name: 'Mill Lane',
    timeZone: 'Europe/London',
    serials: [serial],
  });
  const now = Date.now();
  await handlers['assessment.addExclusion']({
    siteId: site.id,
    start: now - 7_200_000,
    end: now - 3_600_000,
    reason: 'Road works',
  });
  const { visit } = await handlers['visits.start']({
    serials: [serial],
    engineer: 'Ann Field',
    siteId: site.id,
  });
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
  await operationFinished(a, calibration.id);
  const photo = (await readFile(PHOTO)).toString('base64');
  await handlers['visits.addPhoto']({
    visitId: visit.id,
    fileName: 'mast.jpg',
    caption: 'Mast',
    imageBase64: photo,
    reduce: false,
  });
  return { siteId: site.id, visitId: visit.id, calibratorId: calibrator.id };
}

const withoutAccount = <T extends { accountId?: string }>(record: T) => ({ ...record, accountId: undefined });

describe('a site as one file', () => {
  it('goes to another laptop and comes back equal, record by record, photo and calibrator included', async () => {
    const a = await laptop();
    const b = await laptop();
    const { siteId, visitId, calibratorId } = await siteWithAVisit(a);

    const exported = await a.handlers['team.exportSite']({ siteId });
    if (!exported.saved) throw new Error('the export was not saved');
    expect(exported.fileName).toBe('Mill Lane.fielddesk-site');
    const data = (await readFile(exported.path)).toString('base64');

    const preview = await b.handlers['team.previewSite']({ fileName: exported.fileName, data });
    expect(preview).toMatchObject({
      siteName: 'Mill Lane',
      exportedBy: 'Ann Field',
      site: 'new',
      visits: { new: 1, changed: 0, same: 0, conflict: 0 },
      calibrators: { new: 1, changed: 0, same: 0, conflict: 0 },
      photos: 1,
    });
    // A preview writes nothing.
    expect((await b.handlers['assessment.sites']({})).sites).toEqual([]);
    const result = await b.handlers['team.importSite']({ token: preview.token, takeTheFiles: false });
    expect(result).toMatchObject({ imported: 3, keptHere: 0, siteId });

    const siteOn = async (l: Laptop) =>
      (await l.handlers['assessment.sites']({})).sites.find((s) => s.id === siteId)!;
    expect(withoutAccount(await siteOn(b))).toEqual(withoutAccount(await siteOn(a)));
    const visitOn = async (l: Laptop) => (await l.handlers['visits.get']({ id: visitId })).visit;
    expect(withoutAccount(await visitOn(b))).toEqual(withoutAccount(await visitOn(a)));
    const calibratorOn = async (l: Laptop) =>
      (await l.handlers['calibrators.list']({})).calibrators.find((c) => c.id === calibratorId)!;
    expect({ ...(await calibratorOn(b)), lastUsedAt: null }).toEqual({
      ...(await calibratorOn(a)),
      lastUsedAt: null,
    });
    const [photo] = (await visitOn(b)).photos;
    expect(await b.handlers['visits.photo']({ visitId, photoId: photo!.id })).toBe(
      await a.handlers['visits.photo']({ visitId, photoId: photo!.id }),
    );

    const again = await b.handlers['team.previewSite']({ fileName: exported.fileName, data });
    expect(again).toMatchObject({
      site: 'same',
      visits: { new: 0, changed: 0, same: 1, conflict: 0 },
      calibrators: { new: 0, changed: 0, same: 1, conflict: 0 },
    });

    // Renamed on this laptop after the file was written: a conflict, kept as it is here unless chosen.
    const here = await siteOn(b);
    await b.handlers['assessment.saveSite']({
      id: siteId,
      name: 'Mill Lane North',
      timeZone: here.timeZone,
      serials: here.serials,
    });
    const third = await b.handlers['team.previewSite']({ fileName: exported.fileName, data });
    expect(third.site).toBe('conflict');
    expect(await b.handlers['team.importSite']({ token: third.token, takeTheFiles: false })).toMatchObject({
      imported: 0,
      keptHere: 1,
    });
    expect((await siteOn(b)).name).toBe('Mill Lane North');
  }, 120_000);

  it('refuses a malformed, oversized, path-traversing, future-version or undecodable file with its reason, writing nothing', async () => {
    const b = await laptop();
    const manifest = (change: object = {}) =>
      strToU8(
        JSON.stringify({
          format: 'fielddesk-site',
          version: 1,
          exportedAt: 0,
          exportedBy: 'x',
          site: {},
          visits: [],
          calibrators: [],
          ...change,
        }),
      );
    const refusals: Array<[string, Uint8Array, RegExp]> = [
      ['not a zip', strToU8('just some text, not a zip'), /it is not a zip file/],
      ['no manifest', zipSync({ 'notes.txt': strToU8('hello') }), /a path a site file never has/],
      [
        'path traversal',
        zipSync({ 'manifest.json': manifest(), '../../outside.jpg': strToU8('x') }),
        /"..\/..\/outside.jpg", a path a site file never has/,
      ],
      ['an absolute path', zipSync({ '/etc/cron.d/job': strToU8('x') }), /"\/etc\/cron.d\/job", a path/],
      [
        'a future version',
        zipSync({ 'manifest.json': manifest({ version: 2 }) }),
        /written by a newer FieldDesk \(format version 2; this one reads version 1\)/,
      ],
      [
        'a site not as FieldDesk keeps it',
        zipSync({ 'manifest.json': manifest() }),
        /its site is not as FieldDesk keeps it/,
      ],
      [
        'a zip bomb',
        zipSync({ 'manifest.json': [new Uint8Array(8 * 1024 * 1024), { level: 9 }] }),
        /times its packed size \(a zip bomb\)/,
      ],
      [
        'an oversized entry',
        zipSync({ 'manifest.json': [new Uint8Array(17 * 1024 * 1024), { level: 0 }] }),
        /unpacks to 17 MB, more than 16 MB/,
      ],
    ];
    for (const [what, bytes, reason] of refusals) {
      await expect(
        b.handlers['team.previewSite']({
          fileName: `${what}.fielddesk-site`,
          data: Buffer.from(bytes).toString('base64'),
        }),
        what,
      ).rejects.toThrow(reason);
    }

    // A photo that does not decode, in an otherwise good file.
    const a = await laptop();
    const { siteId } = await siteWithAVisit(a);
    const exported = await a.handlers['team.exportSite']({ siteId });
    if (!exported.saved) throw new Error('the export was not saved');
    const { unzipSync } = await import('fflate');
    const files = unzipSync(await readFile(exported.path));
    const photoName = Object.keys(files).find(
      (name) => name.startsWith('photos/') && !name.endsWith('-thumb.jpg'),
    )!;
    files[photoName] = new Uint8Array(files[photoName]!.length).fill(0xff);
    files[photoName]![0] = 0xff;
    files[photoName]![1] = 0xd8;
    await expect(
      b.handlers['team.previewSite']({
        fileName: 'broken.fielddesk-site',
        data: Buffer.from(zipSync(files, { level: 0 })).toString('base64'),
      }),
    ).rejects.toThrow(/the photo "mast.jpg" is not a picture FieldDesk can read/);

    // Nothing written on the laptop that was handed those files, and no import without a preview.
    expect((await b.handlers['assessment.sites']({})).sites).toEqual([]);
    expect(existsSync(join(b.dataDir, 'visits'))).toBe(false);
    await expect(
      b.handlers['team.importSite']({ token: crypto.randomUUID(), takeTheFiles: true }),
    ).rejects.toThrow(/Choose the site file again/);
  }, 120_000);
});
