/**
 * Run in a child process by change-journal.test.ts (`node --import tsx`): the user's records on
 * DATA_DIR, doing one of two things until the parent kills it with SIGKILL.
 *
 * MODE:
 * - `changes`: saves a site after another, deleting every third one again, and prints one JSON line
 *   after each change returned (`{"saved":"Site 7"}`, `{"deleted":"Site 5"}`): what the user was told.
 * - `backup`: makes a change, then takes a backup held at the moment its copy exists under its
 *   temporary name (the copy's `chmod`, wrapped here as the backend's modules call it), prints
 *   `{"held":true}` and never returns from it.
 */
import { join } from 'node:path';
import { createEventHub } from '../../../src/main/backend/core/events';
import type { Logger } from '../../../src/main/backend/core/log';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import { openRecordsDatabase } from '../../../src/main/backend/records/records-database';

const { DATA_DIR, MODE } = process.env;
if (!DATA_DIR || (MODE !== 'changes' && MODE !== 'backup')) throw new Error('missing environment');

const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message) => process.stderr.write(`${message}\n`),
  child: () => silent,
  flush: async () => undefined,
};

if (MODE === 'backup') {
  const fs = process.getBuiltinModule('node:fs/promises');
  const chmod = fs.chmod;
  fs.chmod = (async (path: Parameters<typeof chmod>[0], mode: Parameters<typeof chmod>[1]) => {
    if (String(path).endsWith('.part') && String(path).includes(join(DATA_DIR, 'backups'))) {
      say({ held: true });
      await new Promise(() => undefined);
    }
    return chmod(path, mode);
  }) as typeof chmod;
}

const records = openRecordsDatabase({
  dataDir: DATA_DIR,
  notices: createNoticeBoard(createEventHub(), Date.now),
  log: silent,
  now: Date.now,
  backupDelayMs: 3_600_000,
  backupSpacingMs: 0,
});
const sites = records.view('sites');

if (MODE === 'backup') {
  sites.save('acc', { name: 'Before the held backup', timeZone: 'UTC', serials: [] });
  void records.backupNow();
} else {
  void makeChanges();
}

/** Sites saved and deleted until the parent kills this process. */
async function makeChanges(): Promise<void> {
  const ids: string[] = [];
  for (let i = 1; ; i++) {
    const site = sites.save('acc', { name: `Site ${i}`, timeZone: 'UTC', serials: [] })!;
    ids.push(site.id);
    say({ saved: `Site ${i}` });
    if (i % 3 === 0) {
      sites.remove('acc', ids[i - 2]!);
      say({ deleted: `Site ${i - 1}` });
    }
    // Let the parent read and kill between changes as well as inside them.
    if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}
