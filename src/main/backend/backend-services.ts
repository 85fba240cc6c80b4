/**
 * The backend's services, built on its foundation (backend-foundation.ts): the action keeper and the
 * operations, the accounts and their access to the service, connectivity, the fleet and its health,
 * the read-through cache, the audio library and downloads, and the team's replication. Each gets
 * what it needs as functions, not the whole.
 */
import { join } from 'node:path';
import { FieldDeskError } from '../../shared/errors';
import { createAccountState } from './accounts/account-state';
import { createDemoRunner } from './accounts/demo';
import { createServiceAccess } from './accounts/service-access';
import { createConnectivity } from './connectivity/connectivity';
import { createAudioAddonCheck } from './audio/audio-addon';
import { createDownloadManager } from './audio/download-manager';
import { createAudioLibrary } from './audio/library';
import { createReadThroughCache } from './data/read-through-cache';
import { openActionJournal } from './actions/action-journal';
import { createActionKeeper } from './actions/action-keeper';
import { createFleetService } from './instruments/fleet';
import { createHealthService } from './instruments/health';
import { createOperationRegistry } from './operations/registry';
import { openTeamService } from './team/team-service';
import type { BackendOptions } from './backend';
import type { Foundation } from './backend-foundation';

export async function createServices(options: BackendOptions, foundation: Foundation) {
  const {
    now,
    dataDir,
    vault,
    secrets,
    log,
    events,
    damaged,
    notices,
    store,
    unfinished,
    records,
    cacheDatabase,
    cache,
    knownFleets,
    audioRecords,
  } = foundation;
  const kept = createActionKeeper({
    records: records.view('actions'),
    journal: openActionJournal(dataDir, { damaged }),
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
    damaged,
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
    damaged,
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

  return {
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
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
