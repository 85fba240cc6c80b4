/**
 * The backend's composition root: opens the stores, builds the shared services (events,
 * connectivity, access to the service per account, the local database) and merges the handlers of
 * every domain into the one IPC contract. Plain Node (no Electron), so the app, the browser test
 * harness and vitest all run the same code; Electron pieces (net.fetch, the data folder, the demo
 * service starter) are injected. The handler of a request `ns.method` lives in `ns/handlers.ts`.
 */
import type { AppInfo, BackendHandlers, EventSink } from '../../shared/ipc/contract';
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
import { dataHandlers, exportsFolder, type ChooseExportPath } from './data/handlers';
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
  /** Tests shorten time limits and retries. */
  clientOptions?: Partial<Pick<ServiceClientOptions, 'timeoutMs' | 'retry'>>;
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
}

export interface Backend {
  handlers: BackendHandlers;
  /** Registers a receiver of pushed events; returns the function that removes it. */
  subscribe(sink: EventSink): () => void;
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
      options.chooseExportPath ?? exportsFolder(options.dataDir),
      events,
      () => settings.get().refreshCachedAfterMinutes,
    ),
    ...syncHandlers(accounts, access, local, syncProfiles),
    ...cacheHandlers(accounts, local),
    ...connectivityHandlers(connectivity),
    ...settingsHandlers(settings, notices),
    ...webhookHandlers(accounts, access, now),
  };

  return {
    handlers: withDatabaseRecovery(handlers, local),
    subscribe: (sink) => events.subscribe(sink),
    async close() {
      // Stop watching (each running action is kept in the history as stopped), then close the database.
      connectivity.close();
      operations.cancelAll();
      await local.close();
      events.clear();
      await Promise.all([store.flush(), settings.flush(), syncProfiles.flush()]);
      await demo.close();
    },
  };
}
