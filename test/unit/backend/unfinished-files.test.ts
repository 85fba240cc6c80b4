/**
 * The list of files FieldDesk is still writing, on real files: what it lists survives a restart,
 * writers take their temporary paths off it, and the sweep at start removes only listed leftovers
 * with our naming, of the kind listed — never a download that will continue, another program's
 * `.part`, a symbolic link, or anything a damaged list names.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openUnfinishedFiles,
  sweepMessage,
  sweepUnfinished,
  temporaryPathFor,
  UNFINISHED_FILE_NAME,
  writeThroughPart,
} from '../../../src/main/backend/core/unfinished-files';
import { useTempDirs } from './helpers';

const tempDir = useTempDirs();
const now = () => 1_700_000_000_000;

describe('the list of unfinished files', () => {
  it('keeps what it lists across a restart, until it is taken off', async () => {
    const dataDir = await tempDir();
    const first = await openUnfinishedFiles(dataDir, now);
    await first.begin('/somewhere/a.pdf.fielddesk-0123abcd.part', 'file', 'the report “a.pdf”');
    await first.begin('/somewhere/b.fielddesk-89abcdef.part', 'folder', 'the CSV report “b”');
    await first.end('/somewhere/b.fielddesk-89abcdef.part');
    await first.flush();

    const again = await openUnfinishedFiles(dataDir, now);
    expect(again.warning).toBeNull();
    expect(again.entries()).toEqual([
      {
        path: '/somewhere/a.pdf.fielddesk-0123abcd.part',
        kind: 'file',
        what: 'the report “a.pdf”',
        since: now(),
      },
    ]);
  });

  it('says so and starts empty when the list is damaged, keeping the damaged file aside', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, UNFINISHED_FILE_NAME), '{"version": 1, "entries": [{"path": 3}');
    const list = await openUnfinishedFiles(dataDir, now);
    expect(list.entries()).toEqual([]);
    expect(list.warning).toMatch(
      /^FieldDesk’s notes of the files it was still writing are damaged, so anything a stopped FieldDesk left half-written is not removed this time\. The old file was kept as /,
    );
    expect((await readdir(dataDir)).some((name) => name.startsWith(`${UNFINISHED_FILE_NAME}.corrupt-`))).toBe(
      true,
    );
  });

  it('lists a write through a temporary file while it runs, and not once it is in place or failed', async () => {
    const dataDir = await tempDir();
    const folder = await tempDir();
    const list = await openUnfinishedFiles(dataDir, now);
    const path = join(folder, 'export.csv');
    let listedWhileWriting: string[] = [];
    await writeThroughPart({ path, what: 'the export “export.csv”', unfinished: list }, async (handle) => {
      listedWhileWriting = list.entries().map((entry) => entry.path);
      await handle.writeFile('a,b\r\n');
    });
    expect(listedWhileWriting).toHaveLength(1);
    expect(listedWhileWriting[0]).toMatch(/export\.csv\.fielddesk-[0-9a-f]{8}\.part$/);
    expect(list.entries()).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe('a,b\r\n');
    expect(await readdir(folder)).toEqual(['export.csv']);

    await expect(
      writeThroughPart(
        { path: join(folder, 'broken.csv'), what: 'the export', unfinished: list },
        async () => {
          throw new Error('the data could not be read');
        },
      ),
    ).rejects.toThrow('the data could not be read');
    expect(list.entries()).toEqual([]);
    expect(await readdir(folder)).toEqual(['export.csv']);
  });
});

describe('the sweep at start', () => {
  it('removes listed leftovers with our naming and says what; leaves everything else alone', async () => {
    const dataDir = await tempDir();
    const folder = await tempDir();
    const list = await openUnfinishedFiles(dataDir, now);

    // Left by a crash: a report's temporary file, a CSV set's temporary folder, an orphaned download.
    const pdfPart = temporaryPathFor(join(folder, 'Site A.pdf'));
    await writeFile(pdfPart, '');
    const setFolder = temporaryPathFor(join(folder, 'Site A'));
    await mkdir(setFolder);
    await writeFile(join(setFolder, 'Site A – figures.csv'), 'x');
    const orphan = join(folder, 'QT1 2026-11-23 091500 Recording.flac.part');
    await writeFile(orphan, 'half');
    // A download the next start continues: listed, and still its download's.
    const continued = join(folder, 'QT1 2026-11-23 101500 Recording.flac.part');
    await writeFile(continued, 'half');
    // Listed, but no longer what was listed: a link now (never followed, never removed) and a
    // folder under a name that is not ours (a damaged list).
    const target = join(folder, 'precious.txt');
    await writeFile(target, 'keep me');
    const linked = temporaryPathFor(join(folder, 'Linked.pdf'));
    await symlink(target, linked);
    const notOurs = join(folder, 'Photos');
    await mkdir(notOurs);
    await writeFile(join(notOurs, 'holiday.jpg'), 'keep me');
    // Not listed at all: another program's partial download.
    const browsers = join(folder, 'Survey.pdf.part');
    await writeFile(browsers, 'keep me');
    // Listed, never created (FieldDesk stopped before it made it).
    const neverMade = temporaryPathFor(join(folder, 'Never.xlsx'));

    await list.begin(pdfPart, 'file', 'the report “Site A.pdf”');
    await list.begin(setFolder, 'folder', 'the CSV report “Site A”');
    await list.begin(orphan, 'file', 'the recording “QT1 2026-11-23 091500 Recording.flac”');
    await list.begin(continued, 'file', 'the recording “QT1 2026-11-23 101500 Recording.flac”');
    await list.begin(linked, 'file', 'the report “Linked.pdf”');
    await list.begin(notOurs, 'folder', 'the CSV report “Photos”');
    await list.begin(neverMade, 'file', 'the report “Never.xlsx”');

    const result = await sweepUnfinished(list, (path) => path === continued);

    expect(result.removed.map((entry) => entry.path)).toEqual([pdfPart, setFolder, orphan]);
    expect(result.failed).toEqual([]);
    for (const path of [pdfPart, setFolder, orphan]) expect(existsSync(path)).toBe(false);
    expect(await readFile(continued, 'utf8')).toBe('half');
    expect(await readFile(target, 'utf8')).toBe('keep me');
    expect(existsSync(linked)).toBe(true);
    expect(await readFile(join(notOurs, 'holiday.jpg'), 'utf8')).toBe('keep me');
    expect(await readFile(browsers, 'utf8')).toBe('keep me');
    // Only the download that continues stays listed.
    expect(list.entries().map((entry) => entry.path)).toEqual([continued]);

    expect(sweepMessage(result)).toBe(
      'FieldDesk stopped last time before it finished saving, and has now removed what it left half-written: ' +
        `the report “Site A.pdf” (temporary file ${pdfPart.slice(folder.length + 1)} in ${folder}); ` +
        `the CSV report “Site A” (temporary folder ${setFolder.slice(folder.length + 1)} in ${folder}); ` +
        `the recording “QT1 2026-11-23 091500 Recording.flac” (temporary file QT1 2026-11-23 091500 Recording.flac.part in ${folder}). ` +
        'Nothing that had been saved whole was touched; save or download again what you still need.',
    );
  });

  it('keeps a listed download when the database cannot say whether it continues', async () => {
    const dataDir = await tempDir();
    const folder = await tempDir();
    const list = await openUnfinishedFiles(dataDir, now);
    const part = join(folder, 'QT1 2026-11-23 091500 Recording.flac.part');
    await writeFile(part, 'half');
    await list.begin(part, 'file', 'the recording');
    const result = await sweepUnfinished(list, () => {
      throw new Error('the local database is unavailable');
    });
    expect(result).toEqual({ removed: [], failed: [] });
    expect(existsSync(part)).toBe(true);
    expect(sweepMessage(result)).toBeNull();
  });

  it('says what it could not remove, and that it tries again', () => {
    const entry = {
      path: '/mnt/share/a.pdf.fielddesk-0123abcd.part',
      kind: 'file' as const,
      what: 'x',
      since: 0,
    };
    expect(sweepMessage({ removed: [], failed: [{ entry, code: 'EACCES' }] })).toBe(
      'FieldDesk could not remove what it left half-written when it stopped: ' +
        '/mnt/share/a.pdf.fielddesk-0123abcd.part (EACCES). You can delete it yourself; FieldDesk tries again at the next start.',
    );
  });
});
