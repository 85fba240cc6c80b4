/**
 * The backend's composition root: opens the stores — the user's records (records.db, backed up),
 * the disposable data cache (fielddesk.db) and the small JSON files — builds the shared services
 * (events, connectivity, access to the service per account, the fleet) and merges the handlers of
 * every domain into the one IPC contract, each factory given a deps object. Plain Node (no
 * Electron), so the app, the browser test harness and vitest all run the same code; Electron pieces
 * (net.fetch, the data folder, the demo service starter) are injected. The handler of a request
 * `ns.method` lives in `ns/handlers.ts`.
 */
import { join } from 'node:path';
import type { AppInfo, BackendHandlers, EventSink } from '../../shared/ipc/contract';
import { FieldDeskError } from '../../shared/errors';
import { openAccountStore } from './accounts/account-store';
import { createAccountState } from './accounts/account-state';
import { createDemoRunner, type DemoService } from './accounts/demo';
import { accountHandlers } from './accounts/handlers';
import { createServiceAccess } from './accounts/service-access';
import type { KeyVault } from './accounts/vault';
import type { PollingOptions } from './actions/action-progress';
import { actionHandlers } from './actions/handlers';
import { cacheHandlers } from './cache/handlers';
import { calibratorHandlers } from './calibrators/handlers';
import { createConnectivity } from './connectivity/connectivity';
import { connectivityHandlers } from './connectivity/handlers';
import { secureDataFolder } from './core/data-folder';
import { createEventHub } from './core/events';
import { createLogger, logFolder, openLogFile, type Logger, type LogWriter } from './core/log';
import { withRequestLog } from './core/request-log';
import { createSecretRegistry } from './core/secrets';
import { createNoticeBoard } from './core/notices';
import {
  isTemporaryPath,
  openUnfinishedFiles,
  sweepMessage,
  sweepUnfinished,
  UNFINISHED_NOTICE_ID,
} from './core/unfinished-files';
import { appHandlers } from './app/handlers';
import { assessmentHandlers } from './assessment/handlers';
import { createAudioAddonCheck } from './audio/audio-addon';
import { createDownloadManager } from './audio/download-manager';
import { audioHandlers, type ChooseAudioFolder, type RevealInFileManager } from './audio/handlers';
import { createAudioLibrary } from './audio/library';
import { serveLibraryFile, type PlayRequest } from './audio/serve-library';
import { dataHandlers } from './data/handlers';
import { diagnosticsHandlers } from './diagnostics/handlers';
import { exportsFolder, type ChooseExportPath } from './core/export-path';
import { createReadThroughCache } from './data/read-through-cache';
import { openActionJournal } from './actions/action-journal';
import { createActionKeeper } from './actions/action-keeper';
import { openCacheDatabase } from './cache/cache-database';
import { createFleetService } from './instruments/fleet';
import { openRecordsDatabase } from './records/records-database';
import { historyHandlers } from './history/handlers';
import { instrumentHandlers } from './instruments/handlers';
import { createHealthService } from './instruments/health';
import { operationHandlers } from './operations/handlers';
import { createOperationRegistry } from './operations/registry';
import type { ServiceClientOptions } from './service/client';
import type { DataSource } from './service/data-source';
import { settingsHandlers, SETTINGS_NOTICE_ID } from './settings/handlers';
import { openSettingsStore } from './settings/settings-store';
import { syncHandlers } from './sync/handlers';
import { teamHandlers } from './team/handlers';
import { createSiteTransfer } from './team/site-transfer';
import { openTeamService } from './team/team-service';
import { openSyncProfileStore } from './sync/sync-profiles';
import { webhookHandlers } from './webhooks/handlers';
import type { HostLookup } from './webhooks/webhook-target';
import { visitHandlers } from './visits/handlers';
import { sweepVisitPhotos } from './visits/visit-photos';

export interface BackendOptions {
  dataDir: string;
  vault: KeyVault;
  fetch?: typeof fetch;
  appInfo: AppInfo;
  /** Starts the demo service (src/simulator); called at most once per backend life. */
  startDemo: () => Promise<DemoService>;
  now?: () => number;
  /** Tests shorten time limits, retries and answer limits. */
  clientOptions?: Partial<Pick<ServiceClientOptions, 'timeoutMs' | 'retry' | 'answerLimits'>>;
  /** Tests shorten the poll intervals of running actions. */
  polling?: Omit<PollingOptions, 'now'>;
  /** Makes the data client of an account (default `createDataClient`); tests inject fakes. */
  createDataSource?: (options: ServiceClientOptions) => DataSource;
  /** How often the service is probed while it cannot be reached (ms, default 20 s; 0 = never). */
  offlineProbeMs?: number;
  /** How long after its end a stored interval may still change at the service (ms, default 1 h). */
  openIntervalMs?: number;
  /** Requests in flight at once for one site sync (default 3). */
  syncConcurrency?: number;
  /** Where an export goes (the app's save dialog); default the data folder's `exports`. */
  chooseExportPath?: ChooseExportPath;
  /**
   * Where audio downloads go until the user chooses a folder: the app passes a visible one (see
   * audio/README.md); default `<dataDir>/audio`, so the harness and tests keep to their data folder.
   */
  audioFolder?: string;
  /** The system's folder picker for the downloads folder (the app); `audio.chooseFolder` says it cannot without. */
  chooseAudioFolder?: ChooseAudioFolder;
  /** Opens the downloads folder, or shows a file in it, in the file manager (the app). */
  revealInFileManager?: RevealInFileManager;
  /** Audio downloads running at once (default 2). */
  audioConcurrency?: number;
  /** Resolves webhook host names (default `dns.lookup`); tests give names the addresses they need. */
  lookupHost?: HostLookup;
  /** Where log records go (tests keep them in memory); default `<dataDir>/logs/fielddesk.log`. */
  log?: LogWriter;
  /** How long after a change to the user's records their backup is taken, and how far apart (ms). */
  recordsBackup?: { delayMs?: number; spacingMs?: number };
}

export interface Backend {
  handlers: BackendHandlers;
  /** Registers a receiver of pushed events; returns the function that removes it. */
  subscribe(sink: EventSink): () => void;
  /**
   * Plays a library file: the web Response to a request for the file of `key` (ranges honoured),
   * 404 for anything not in the library. Electron's `fielddesk-audio:` handler and the harness's
   * `/audio-library/:key` route both answer with it.
   */
  audioFile(key: string, request: PlayRequest): Promise<Response>;
  /** The backend's log, for what the transports see fail outside a request. */
  log: Logger;
  /** Stops the demo service (if started) and waits for pending saves. */
  close(): Promise<void>;
}

export async function createBackend(options: BackendOptions): Promise<Backend> {
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
    ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
    ...(options.syncConcurrency === undefined ? {} : { syncConcurrency: options.syncConcurrency }),
  });
  if (records.legacyImported()) cacheDatabase.dropImportedRecords();
  const cache = cacheDatabase.view('cache');
  const syncs = cacheDatabase.view('syncs');
  const knownFleets = cacheDatabase.view('knownFleets');
  const audioRecords = records.view('audio');

  const kept = createActionKeeper({
    records: records.view('actions'),
    journal: openActionJournal(dataDir),
    notices,
    log: log.child('actions'),
    dataDir,
  });
  kept.mergeJournal();
  kept.recoverHeld();
  const operations = createOperationRegistry({
    onChange: (snapshot) => events.emit('operations.progress', snapshot),
    onFinished: (snapshot) => kept.keep(snapshot),
    log: log.child('operations'),
  });
  const demo = createDemoRunner(options.startDemo);
  const accounts = createAccountState(store, vault, events, dataDir);
  const connectivity = createConnectivity({
    events,
    now,
    activeId: () => store.activeId(),
    probe: (accountId) => access.probe(accountId),
    log: log.child('connectivity'),
    ...(options.offlineProbeMs === undefined ? {} : { probeEveryMs: options.offlineProbeMs }),
  });
  const access = createServiceAccess({
    accounts,
    vault,
    demo,
    connectivity,
    secrets,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.clientOptions === undefined ? {} : { clientOptions: options.clientOptions }),
    ...(options.createDataSource === undefined ? {} : { createDataSource: options.createDataSource }),
  });
  const fleet = createFleetService({ access, connectivity, knownFleets, log: log.child('instruments'), now });
  const health = createHealthService({
    access,
    fleet,
    knownHealth: cacheDatabase.view('knownHealth'),
    log: log.child('instruments.health'),
    now,
  });
  const readThroughCache = createReadThroughCache({
    cache,
    access,
    connectivity,
    now,
    ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
  });

  const audioLibrary = createAudioLibrary(
    () => audioRecords,
    options.audioFolder ?? join(dataDir, 'audio'),
    log.child('audio'),
  );
  const audioAddon = createAudioAddonCheck(fleet);
  const downloads = createDownloadManager({
    records: () => audioRecords,
    library: audioLibrary,
    serviceFor: async (accountId) => {
      const account = accounts.store.get(accountId);
      if (account === undefined)
        throw new FieldDeskError(
          'invalidRequest',
          'The account this download belongs to no longer exists, so it cannot continue.',
        );
      return access.serviceOptionsFor(account);
    },
    audioAddon: async (accountId, serial) => {
      const account = accounts.store.get(accountId);
      return account === undefined ? null : audioAddon(account, serial);
    },
    emit: (snapshot) => events.emit('audio.progress', snapshot),
    unfinished,
    log: log.child('audio.downloads'),
    now,
    ...(options.audioConcurrency === undefined ? {} : { concurrency: options.audioConcurrency }),
  });

  const team = await openTeamService({
    dataDir,
    vault,
    secrets,
    events,
    rows: records.view('rows'),
    onCommitted: (listener) => records.onCommitted(listener),
    activeAccountId: () => accounts.requireActive().id,
    log: log.child('team'),
    now,
    unfinished,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  if (team.warning !== null) notices.raise({ id: 'team-file', tone: 'warning', message: team.warning });

  const chooseExportPath = options.chooseExportPath ?? exportsFolder(dataDir);
  const handlers: BackendHandlers = {
    ...appHandlers({ appInfo: options.appInfo, notices, log }),
    ...accountHandlers({
      accounts,
      access,
      vault,
      demo,
      connectivity,
      now,
      forgetCachedData: (accountId) => {
        try {
          cache.clear(accountId);
          fleet.forget(accountId);
          health.forget(accountId);
        } catch (error) {
          // A cache that cannot be cleared now is cleared with "Clear cache" later.
          log.warn('cached data of a removed account not cleared', { error });
        }
      },
    }),
    ...instrumentHandlers({ accounts, access, fleet, health, fetch: options.fetch ?? fetch, events }),
    ...actionHandlers({
      accounts,
      access,
      operations,
      kept,
      settings,
      calibrators: records.view('calibrators'),
      read: readThroughCache,
      log: log.child('actions'),
      now,
      ...(options.polling === undefined ? {} : { polling: options.polling }),
    }),
    ...calibratorHandlers({ calibrators: records.view('calibrators') }),
    ...operationHandlers({ operations }),
    ...historyHandlers({ accounts, read: readThroughCache, now }),
    ...dataHandlers({
      accounts,
      access,
      read: readThroughCache,
      chooseExportPath,
      events,
      refreshCachedAfterMinutes: () => settings.get().refreshCachedAfterMinutes,
      eventHistories: cacheDatabase.view('eventHistories'),
      log: log.child('data'),
      now,
      unfinished,
    }),
    ...syncHandlers({ accounts, access, fleet, syncs, profiles: syncProfiles }),
    ...cacheHandlers({ accounts, cache }),
    ...connectivityHandlers({ connectivity }),
    ...settingsHandlers({ settings, notices, dataDir }),
    ...webhookHandlers({
      accounts,
      access,
      now,
      secrets,
      ...(options.lookupHost === undefined ? {} : { lookupHost: options.lookupHost }),
    }),
    ...diagnosticsHandlers({
      dataDir,
      appInfo: options.appInfo,
      accounts,
      vault,
      secrets,
      log,
      chooseExportPath,
      now,
    }),
    ...audioHandlers({
      accounts,
      read: readThroughCache,
      refreshCachedAfterMinutes: () => settings.get().refreshCachedAfterMinutes,
      downloads,
      library: audioLibrary,
      audioAddon,
      ...(options.chooseAudioFolder === undefined ? {} : { chooseFolder: options.chooseAudioFolder }),
      ...(options.revealInFileManager === undefined ? {} : { reveal: options.revealInFileManager }),
    }),
    ...assessmentHandlers({
      accounts,
      read: readThroughCache,
      sites: records.view('sites'),
      fleet,
      events,
      log: log.child('assessment'),
      chooseExportPath,
      toleranceDb: () => settings.get().calibrationToleranceDb,
      sicToleranceDb: () => settings.get().sicToleranceDb,
      actionHistory: (accountId, serial) => kept.history(accountId, serial),
      visitHistory: (accountId, serial) => records.view('visits').list(accountId, serial).visits,
      now,
      unfinished,
    }),
    ...teamHandlers({
      team,
      transfer: createSiteTransfer({
        dataDir,
        sites: records.view('sites'),
        visits: records.view('visits'),
        calibrators: records.view('calibrators'),
        rows: records.view('rows'),
        actionHistory: (accountId, serial) => kept.history(accountId, serial),
        activeAccountId: () => accounts.requireActive().id,
        engineer: () => records.view('visits').lastEngineer(),
        chooseExportPath,
        unfinished,
        now,
      }),
    }),
    ...visitHandlers({
      accounts,
      visits: records.view('visits'),
      sites: records.view('sites'),
      kept,
      fleet,
      dataDir,
      chooseExportPath,
      unfinished,
      log: log.child('visits'),
      now,
    }),
  };
  // What a stopped FieldDesk left half-written is removed, and said, before anything new is written;
  // only a download's `.part` can still be wanted (it is continued), never an export's or a report's.
  const swept = await sweepUnfinished(
    unfinished,
    (path) => !isTemporaryPath(path) && audioRecords.usesPart(path),
  );
  // Visit photos a stop left half-added are settled and said once, by visit, in words (visits/
  // visit-photos.ts); the temporary files that notice tells of are not named again in this one.
  const photoSweep = await sweepVisitPhotos({
    dataDir,
    visits: records.view('visits'),
    notices,
    log: log.child('visits.photos'),
    now,
    removedParts: swept.removed.map((entry) => entry.path),
  });
  const sweptMessage = sweepMessage({
    ...swept,
    removed: swept.removed.filter((entry) => !photoSweep.accounted.has(entry.path)),
  });
  if (sweptMessage !== null)
    notices.raise({ id: UNFINISHED_NOTICE_ID, tone: 'warning', message: sweptMessage });
  // Downloads a previous run left queued or running continue now.
  downloads.start();

  return {
    handlers: withRequestLog(handlers, log.child('requests')),
    log,
    subscribe: (sink) => events.subscribe(sink),
    audioFile: (key, request) => serveLibraryFile(audioLibrary, key, request, log.child('audio')),
    async close() {
      // Stop watching (each running action is kept in the history as stopped), stop the downloads
      // (left queued for the next start), then close the databases (running site syncs stop as
      // interrupted, resumed at the next start; the records take a last backup).
      connectivity.close();
      operations.cancelAll();
      await downloads.close();
      kept.close();
      await team.close();
      await cacheDatabase.close();
      await records.close();
      events.clear();
      await Promise.all([store.flush(), settings.flush(), syncProfiles.flush(), unfinished.flush()]);
      await demo.close();
      await log.flush();
    },
  };
}
