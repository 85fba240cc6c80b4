/**
 * Every domain's handlers merged into the one IPC contract: each factory is given exactly what it
 * needs from the foundation and the services. The handler of a request `ns.method` lives in
 * `ns/handlers.ts`.
 */
import type { BackendHandlers } from '../../shared/ipc/contract';
import { accountHandlers } from './accounts/handlers';
import { actionHandlers } from './actions/handlers';
import { cacheHandlers } from './cache/handlers';
import { calibratorHandlers } from './calibrators/handlers';
import { connectivityHandlers } from './connectivity/handlers';
import { appHandlers } from './app/handlers';
import { assessmentHandlers } from './assessment/handlers';
import { audioHandlers } from './audio/handlers';
import { dataHandlers } from './data/handlers';
import { diagnosticsHandlers } from './diagnostics/handlers';
import { exportsFolder } from './core/export-path';
import { historyHandlers } from './history/handlers';
import { instrumentHandlers } from './instruments/handlers';
import { operationHandlers } from './operations/handlers';
import { settingsHandlers } from './settings/handlers';
import { syncHandlers } from './sync/handlers';
import { teamHandlers } from './team/handlers';
import { createSiteTransfer } from './team/site-transfer';
import { webhookHandlers } from './webhooks/handlers';
import { visitHandlers } from './visits/handlers';
import type { BackendOptions } from './backend';
import type { Foundation } from './backend-foundation';
import type { Services } from './backend-services';

export function bindHandlers(
  options: BackendOptions,
  foundation: Foundation,
  services: Services,
): BackendHandlers {
  const {
    now,
    dataDir,
    vault,
    secrets,
    log,
    events,
    damaged,
    notices,
    settings,
    syncProfiles,
    unfinished,
    records,
    cacheDatabase,
    cache,
    syncs,
  } = foundation;
  const {
    kept,
    operations,
    demo,
    accounts,
    connectivity,
    access,
    fleet,
    health,
    readThroughCache,
    audioLibrary,
    audioAddon,
    downloads,
    team,
  } = services;
  const chooseExportPath = options.chooseExportPath ?? exportsFolder(dataDir);
  return {
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
      damaged,
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
      ...(options.choosePhotoFiles === undefined ? {} : { choosePhotoFiles: options.choosePhotoFiles }),
      unfinished,
      log: log.child('visits'),
      now,
    }),
  };
}
