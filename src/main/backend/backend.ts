/**
 * The backend's composition root, in four steps, each its own file: the foundation (the data folder,
 * log, events, notices, the JSON files and both databases: backend-foundation.ts), the services
 * built on it (backend-services.ts), every domain's handlers merged into the one IPC contract
 * (backend-handlers.ts), and what a stopped FieldDesk left behind settled (backend-startup.ts);
 * then one orderly close. Plain Node (no Electron), so the app, the browser test harness and
 * vitest all run the same code; Electron pieces (net.fetch, the data folder, the demo service
 * starter) are injected. The handler of a request `ns.method` lives in `ns/handlers.ts`.
 */
import { openFoundation } from './backend-foundation';
import { bindHandlers } from './backend-handlers';
import { createServices } from './backend-services';
import { settleAtStart } from './backend-startup';
import type { AppInfo, BackendHandlers, EventSink } from '../../shared/ipc/contract';
import type { DemoService } from './accounts/demo';
import type { KeyVault } from './accounts/vault';
import type { PollingOptions } from './actions/action-progress';
import type { Logger, LogWriter } from './core/log';
import { trackInFlight, withRequestLog } from './core/request-log';
import type { ChooseAudioFolder, RevealInFileManager } from './audio/handlers';
import { serveLibraryFile, type PlayRequest } from './audio/serve-library';
import type { ChooseExportPath } from './core/export-path';
import type { ServiceClientOptions } from './service/client';
import type { DataSource } from './service/data-source';
import type { HostLookup } from './webhooks/webhook-target';
import type { ChoosePhotoFiles } from './visits/chosen-photos';

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
  /** The system's dialog for visit photos (the app); `visits.choosePhotos` says it cannot without. */
  choosePhotoFiles?: ChoosePhotoFiles;
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

/** How long a close waits for the requests already running (a long report is not waited for). */
const CLOSE_WAITS_FOR_REQUESTS_MS = 3_000;

export async function createBackend(options: BackendOptions): Promise<Backend> {
  const foundation = await openFoundation(options);
  const services = await createServices(options, foundation);
  // Counted, so a close lets the requests already running finish before the databases close.
  const requests = trackInFlight(bindHandlers(options, foundation, services));
  await settleAtStart(foundation, services);
  const { log, events, store, settings, syncProfiles, unfinished, records, cacheDatabase } = foundation;
  const { connectivity, operations, downloads, kept, team, demo, audioLibrary } = services;
  const audioLog = log.child('audio');

  return {
    handlers: withRequestLog(requests.handlers, log.child('requests')),
    log,
    subscribe: (sink) => events.subscribe(sink),
    audioFile: (key, request) => serveLibraryFile(audioLibrary, key, request, audioLog),
    async close() {
      // Stop watching (each running action is kept in the history as stopped), stop the downloads
      // (left queued for the next start), then close the databases (running site syncs stop as
      // interrupted, resumed at the next start; the records take a last backup).
      connectivity.close();
      operations.cancelAll();
      await requests.idle(CLOSE_WAITS_FOR_REQUESTS_MS);
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
