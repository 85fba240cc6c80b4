/**
 * The backend's foundation, opened first: the data folder made private, the redacting log, events and
 * notices, the small JSON files and the two databases — the user's records (records.db) and the
 * disposable cache (fielddesk.db). What could not be read is raised as a notice in words; a stored
 * row that cannot be read is left out on its own, logged and counted for the diagnostics
 * (core/damaged-rows.ts).
 */
import { openAccountStore } from './accounts/account-store';
import { secureDataFolder } from './core/data-folder';
import { createDamagedRows } from './core/damaged-rows';
import { createEventHub } from './core/events';
import { createLogger, logFolder, openLogFile } from './core/log';
import { createSecretRegistry } from './core/secrets';
import { createNoticeBoard } from './core/notices';
import { openUnfinishedFiles } from './core/unfinished-files';
import { openCacheDatabase } from './cache/cache-database';
import { openRecordsDatabase } from './records/records-database';
import { SETTINGS_NOTICE_ID } from './settings/handlers';
import { openSettingsStore } from './settings/settings-store';
import { openSyncProfileStore } from './sync/sync-profiles';
import type { BackendOptions } from './backend';

export async function openFoundation(options: BackendOptions) {
  const now = options.now ?? Date.now;
  const { vault, dataDir } = options;
  // Before the first file (the log) is written in it, so its names are never listed by others.
  const folderProblem = await secureDataFolder(dataDir);
  // Every key and webhook secret met is redacted from events, the log and the diagnostics.
  const secrets = createSecretRegistry();
  const log = createLogger(options.log ?? openLogFile(logFolder(dataDir)), {
    redact: secrets.redactValue,
  });
  log.info('FieldDesk backend starting', { version: options.appInfo.version, shell: options.appInfo.shell });
  // The files inside stay 0600 each, so FieldDesk goes on; the log says what was left open.
  if (folderProblem !== null) log.warn(folderProblem);
  const events = createEventHub({ redact: secrets.redactValue, log: log.child('events') });
  // Given to every reader of stored rows: a damaged row is logged once and counted for the diagnostics.
  const damaged = createDamagedRows(log.child('damaged-rows'));
  const notices = createNoticeBoard(events, now);
  const store = await openAccountStore(dataDir, { now, log: log.child('accounts') });
  const settings = await openSettingsStore(dataDir, now, log.child('settings'));
  const syncProfiles = await openSyncProfileStore(dataDir, now, log.child('sync'));
  const unfinished = await openUnfinishedFiles(dataDir, now);
  for (const [id, warning] of [
    ['accounts-file', store.warning],
    [SETTINGS_NOTICE_ID, settings.warning],
    ['sync-profiles-file', syncProfiles.warning],
    ['unfinished-files-list', unfinished.warning],
  ] as const) {
    if (warning !== null) notices.raise({ id, tone: 'warning', message: warning });
  }

  // What the user made first: records.db reads what an earlier version kept in the cache file
  // before the cache's own migrations put it aside.
  const records = openRecordsDatabase({
    dataDir,
    notices,
    log: log.child('records'),
    now,
    damaged,
    ...(options.recordsBackup?.delayMs === undefined ? {} : { backupDelayMs: options.recordsBackup.delayMs }),
    ...(options.recordsBackup?.spacingMs === undefined
      ? {}
      : { backupSpacingMs: options.recordsBackup.spacingMs }),
  });
  const cacheDatabase = openCacheDatabase({
    dataDir,
    events,
    notices,
    log: log.child('cache'),
    now,
    damaged,
    ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
    ...(options.syncConcurrency === undefined ? {} : { syncConcurrency: options.syncConcurrency }),
  });
  if (records.legacyImported()) cacheDatabase.dropImportedRecords();
  const cache = cacheDatabase.view('cache');
  const syncs = cacheDatabase.view('syncs');
  const knownFleets = cacheDatabase.view('knownFleets');
  const audioRecords = records.view('audio');

  return {
    now,
    dataDir,
    vault,
    secrets,
    log,
    events,
    damaged,
    notices,
    store,
    settings,
    syncProfiles,
    unfinished,
    records,
    cacheDatabase,
    cache,
    syncs,
    knownFleets,
    audioRecords,
  };
}

export type Foundation = Awaited<ReturnType<typeof openFoundation>>;
