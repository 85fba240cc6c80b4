/**
 * The backend's composition root: opens the stores, builds the shared services (events,
 * connectivity, access to the service per account, the local database) and merges the handlers of
 * every domain into the one IPC contract. Plain Node (no Electron), so the app, the browser test
 * harness and vitest all run the same code; Electron pieces (net.fetch, the data folder, the demo
 * service starter) are injected. The handler of a request `ns.method` lives in `ns/handlers.ts`.
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
import { createConnectivity } from './connectivity/connectivity';
import { connectivityHandlers } from './connectivity/handlers';
import { createEventHub } from './core/events';
import { createNoticeBoard } from './core/notices';
import { appHandlers } from './app/handlers';
import { assessmentHandlers } from './assessment/handlers';
import { createAudioAddonCheck } from './audio/audio-addon';
import { createDownloadManager } from './audio/download-manager';
import { audioHandlers, type ChooseAudioFolder, type RevealInFileManager } from './audio/handlers';
import { createAudioLibrary } from './audio/library';
import { serveLibraryFile, type PlayRequest } from './audio/serve-library';
import { dataHandlers } from './data/handlers';
import { exportsFolder, type ChooseExportPath } from './core/export-path';
import { createReadThroughCache } from './data/read-through-cache';
import { historyHandlers } from './history/handlers';
import { instrumentHandlers } from './instruments/handlers';
import { openLocalData, withDatabaseRecovery } from './local-data';
import { operationHandlers } from './operations/handlers';
import { createOperationRegistry } from './operations/registry';
import type { ServiceClientOptions } from './service/client';
import type { DataSource } from './service/data-source';
import { settingsHandlers, SETTINGS_NOTICE_ID } from './settings/handlers';
import { openSettingsStore } from './settings/settings-store';
import { syncHandlers } from './sync/handlers';
import { openSyncProfileStore } from './sync/sync-profiles';
import { webhookHandlers } from './webhooks/handlers';

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
  /** Stops the demo service (if started) and waits for pending saves. */
  close(): Promise<void>;
}

export async function createBackend(options: BackendOptions): Promise<Backend> {
  const now = options.now ?? Date.now;
  const { vault } = options;
  const events = createEventHub();
  const notices = createNoticeBoard(events, now);
  const store = await openAccountStore(options.dataDir, { now });
  const settings = await openSettingsStore(options.dataDir, now);
  const syncProfiles = await openSyncProfileStore(options.dataDir, now);
  for (const [id, warning] of [
    ['accounts-file', store.warning],
    [SETTINGS_NOTICE_ID, settings.warning],
    ['sync-profiles-file', syncProfiles.warning],
  ] as const) {
    if (warning !== null) notices.raise({ id, tone: 'warning', message: warning });
  }
  const local = openLocalData({
    dataDir: options.dataDir,
    events,
    notices,
    now,
    ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
    ...(options.syncConcurrency === undefined ? {} : { syncConcurrency: options.syncConcurrency }),
  });
  const operations = createOperationRegistry({
    onChange: (snapshot) => events.emit('operations.progress', snapshot),
    onFinished: (snapshot) => local.keep(snapshot),
  });
  const demo = createDemoRunner(options.startDemo);
  const accounts = createAccountState(store, vault, events);
  const connectivity = createConnectivity({
    events,
    now,
    activeId: () => store.activeId(),
    probe: (accountId) => access.probe(accountId),
    ...(options.offlineProbeMs === undefined ? {} : { probeEveryMs: options.offlineProbeMs }),
  });
  const access = createServiceAccess({
    accounts,
    vault,
    demo,
    connectivity,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.clientOptions === undefined ? {} : { clientOptions: options.clientOptions }),
    ...(options.createDataSource === undefined ? {} : { createDataSource: options.createDataSource }),
  });
  const readThroughCache = createReadThroughCache({
    local,
    access,
    connectivity,
    now,
    ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
  });

  const audioLibrary = createAudioLibrary(
    () => local.audio(),
    options.audioFolder ?? join(options.dataDir, 'audio'),
  );
  const audioAddon = createAudioAddonCheck(local, access, connectivity);
  const downloads = createDownloadManager({
    records: () => local.audio(),
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
    now,
    ...(options.audioConcurrency === undefined ? {} : { concurrency: options.audioConcurrency }),
  });

  const chooseExportPath = options.chooseExportPath ?? exportsFolder(options.dataDir);
  const handlers: BackendHandlers = {
    ...appHandlers(options.appInfo, notices),
    ...accountHandlers({
      accounts,
      access,
      vault,
      demo,
      connectivity,
      now,
      forgetCachedData: (accountId) => {
        try {
          local.cache().clear(accountId);
          local.knownFleets().forget(accountId);
        } catch {
          // A cache that cannot be cleared now is cleared with "Clear cache" later.
        }
      },
    }),
    ...instrumentHandlers(accounts, access, now, local),
    ...actionHandlers({
      accounts,
      access,
      operations,
      local,
      settings,
      now,
      ...(options.polling === undefined ? {} : { polling: options.polling }),
    }),
    ...operationHandlers(operations),
    ...historyHandlers(accounts, readThroughCache, now),
    ...dataHandlers(
      accounts,
      access,
      readThroughCache,
      chooseExportPath,
      events,
      () => settings.get().refreshCachedAfterMinutes,
      local,
      now,
    ),
    ...syncHandlers(accounts, access, local, syncProfiles),
    ...cacheHandlers(accounts, local),
    ...connectivityHandlers(connectivity),
    ...settingsHandlers(settings, notices),
    ...webhookHandlers(accounts, access, now),
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
      access,
      read: readThroughCache,
      local,
      events,
      chooseExportPath,
      toleranceDb: () => settings.get().calibrationToleranceDb,
      now,
    }),
  };
  // Downloads a previous run left queued or running continue now.
  downloads.start();

  return {
    handlers: withDatabaseRecovery(handlers, local),
    subscribe: (sink) => events.subscribe(sink),
    audioFile: (key, request) => serveLibraryFile(audioLibrary, key, request),
    async close() {
      // Stop watching (each running action is kept in the history as stopped), stop the downloads
      // (left queued for the next start), then close the database.
      connectivity.close();
      operations.cancelAll();
      await downloads.close();
      await local.close();
      events.clear();
      await Promise.all([store.flush(), settings.flush(), syncProfiles.flush()]);
      await demo.close();
    },
  };
}
