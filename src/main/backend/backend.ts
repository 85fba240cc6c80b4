/**
 * The backend: accounts, keys and instruments behind the one IPC contract. Plain Node (no Electron),
 * so the app, the browser test harness and vitest all run the same code; Electron pieces (net.fetch,
 * the data folder, the demo service starter) are injected.
 */
import pLimit from 'p-limit';
import type { AccountCheck, AccountsState, AccountSummary } from '../../shared/accounts';
import { defaultDatasetsFor, type DataReadResult, type Dataset, type DatasetQuery } from '../../shared/data';
import { FieldDeskError, toErrorData, type FieldDeskErrorData } from '../../shared/errors';
import type { EventChannel } from '../../shared/ipc/channels';
import type {
  AppInfo,
  BackendHandlers,
  Connectivity,
  EventPayloads,
  EventSink,
  InstrumentEntry,
} from '../../shared/ipc/contract';
import type { Instrument } from '../../shared/service/schemas';
import { isScope, type Scope } from '../../shared/service/scopes';
import { openAccountStore, type AccountStore, type StoredAccount } from './accounts/account-store';
import { createActionHistory, type ActionHistory } from './actions/action-records';
import { createPollingProgressSource, type PollingOptions } from './actions/action-progress';
import { startActionOperation } from './actions/action-operation';
import { createCacheStore, type CacheStore } from './cache/cache-store';
import { readDataset } from './data/read-through-cache';
import { createDataClient } from './service/data-client';
import type { DataSource } from './service/data-source';
import { openDatabase, type FieldDeskDatabase } from './core/database';
import {
  calibrationLogEntriesOf,
  calibrationRecordsOf,
  nothingAnswered,
  sicRecordsOf,
} from './history/history-records';
import { createOperationRegistry } from './operations/registry';
import { openSettingsStore } from './settings/settings-store';
import { createSyncManager, type SyncManager } from './sync/sync-manager';
import {
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceExchange,
} from './service/client';
import type { KeyVault } from './accounts/vault';

export interface DemoService {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

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
}

export interface Backend {
  handlers: BackendHandlers;
  /** Registers a receiver of pushed events; returns the function that removes it. */
  subscribe(sink: EventSink): () => void;
  /** Stops the demo service (if started) and waits for pending saves. */
  close(): Promise<void>;
}

export const DEMO_ACCOUNT_NAME = 'Demo fleet';
/** Status reads in flight at once for one instrument list: enough to be quick, gentle on the service. */
const STATUS_CONCURRENCY = 4;
/** While the service cannot be reached, one light request this often notices its return. */
export const OFFLINE_PROBE_MS = 20_000;

const MESSAGES = {
  noAccount: 'No account is active. Add an account or try the demo.',
  unknownAccount: 'That account no longer exists. It may have been removed in another window.',
  unknownSync:
    'FieldDesk has no record of that site sync. It may have been removed with its account or long ago.',
  syncAccountGone: 'The account this site sync belongs to no longer exists, so it cannot be resumed.',
  unknownSerial: (serial: string) =>
    `This account has no instrument ${serial}. It may have been removed; refresh the instrument list.`,
  keyRejected:
    'The service did not accept this API key. Check that it was copied whole and has not been revoked.',
  cannotList:
    'This key lacks the instruments:read scope, so FieldDesk cannot list instruments. Create a key with instruments:read in the web console.',
  demoKey: 'The demo account needs no key.',
  demoStart: 'The demo service could not start. Try again, or restart FieldDesk.',
  saveFailed:
    'FieldDesk could not save its account list to disk. Check that there is free space and try again.',
  settingsSaveFailed:
    'FieldDesk could not save its settings to disk. Check that there is free space and try again.',
  actionRunning: (action: string, serial: string) =>
    `${action} is already running on ${serial} from FieldDesk. Wait for it to finish, or stop watching it, before starting another action.`,
} as const;

/** The data client of an account: `createDataClient` of data-client.ts. */
function defaultDataSource(options: ServiceClientOptions): DataSource {
  return createDataClient(options);
}

function isUnreachable(error: FieldDeskError): boolean {
  return error.code === 'offline' || error.code === 'timeout';
}

export async function createBackend(options: BackendOptions): Promise<Backend> {
  const now = options.now ?? Date.now;
  const vault = options.vault;
  const store: AccountStore = await openAccountStore(options.dataDir, { now });
  const settings = await openSettingsStore(options.dataDir, now);
  // The local database is not needed to use accounts or instruments: if it cannot be opened, say
  // why where it is needed (action history) and keep everything else working.
  let database: FieldDeskDatabase | null = null;
  let history: ActionHistory | null = null;
  let cache: CacheStore | null = null;
  let syncs: SyncManager | null = null;
  let databaseProblem: FieldDeskError | null = null;
  try {
    database = openDatabase(options.dataDir);
    history = createActionHistory(database.db);
    cache = createCacheStore(database.db);
    syncs = createSyncManager({
      db: database.db,
      store: cache,
      now,
      emit: (snapshot) => emit('sync.progress', snapshot),
      ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
      ...(options.syncConcurrency === undefined ? {} : { concurrency: options.syncConcurrency }),
    });
  } catch (error) {
    databaseProblem =
      error instanceof FieldDeskError
        ? error
        : new FieldDeskError('internal', 'FieldDesk could not open its local database.', { cause: error });
  }
  const operations = createOperationRegistry({
    onChange: (snapshot) => emit('operations.progress', snapshot),
    onFinished: (snapshot) => history?.record(snapshot),
  });
  const sinks = new Set<EventSink>();
  let connectivity: Connectivity = {
    state: 'unknown',
    accountId: store.activeId(),
    since: now(),
    message: null,
  };
  /** The last "cannot reach the service" error of the active account, while offline. */
  let unreachable: FieldDeskErrorData | null = null;
  let probe: ReturnType<typeof setInterval> | null = null;
  let probing = false;
  let closed = false;
  let demo: Promise<DemoService> | null = null;
  /** A second "Try the demo" click while the first runs joins it instead of adding a second account. */
  let tryingDemo: Promise<AccountCheck> | null = null;

  // ---- events -------------------------------------------------------------------------------

  function emit<E extends EventChannel>(channel: E, payload: EventPayloads[E]): void {
    for (const sink of sinks) {
      try {
        sink(channel, payload);
      } catch {
        // A failing receiver (e.g. a closed window) must not break the backend or other receivers.
      }
    }
  }

  async function emitAccountsChanged(): Promise<void> {
    if (sinks.size > 0) emit('accounts.changed', await getState());
  }

  function setConnectivity(
    accountId: string | null,
    state: Connectivity['state'],
    message: string | null,
  ): void {
    if (state !== 'offline') unreachable = null;
    if (state === 'offline') startProbe();
    else stopProbe();
    if (connectivity.accountId === accountId && connectivity.state === state) return;
    connectivity = { state, accountId, since: now(), message };
    emit('connectivity.changed', { ...connectivity });
  }

  // ---- noticing the service's return --------------------------------------------------------

  function stopProbe(): void {
    if (probe !== null) clearInterval(probe);
    probe = null;
  }

  /** While offline, a light `GET /control/instruments` (no retries) every few seconds. */
  function startProbe(): void {
    const every = options.offlineProbeMs ?? OFFLINE_PROBE_MS;
    if (probe !== null || closed || !(every > 0)) return;
    probe = setInterval(() => void probeOnce(), every);
    probe.unref?.();
  }

  async function probeOnce(): Promise<void> {
    const account = connectivity.accountId === null ? undefined : store.get(connectivity.accountId);
    if (probing || closed || connectivity.state !== 'offline' || account === undefined) {
      if (account === undefined || connectivity.state !== 'offline') stopProbe();
      return;
    }
    probing = true;
    try {
      const client = createServiceClient({
        ...clientOptionsFor(await credentialsFor(account), (exchange) =>
          noteConnectivity(account.id, exchange.error),
        ),
        retry: { ...options.clientOptions?.retry, limit: 0 },
      });
      await client.listInstruments();
    } catch {
      // Still offline (noted by onExchange), or a problem the next real request will explain.
    } finally {
      probing = false;
    }
  }

  /** Every answer (or lack of one) for the active account updates its connectivity. */
  function noteConnectivity(accountId: string, error: FieldDeskError | null): void {
    if (accountId !== store.activeId() || error?.code === 'cancelled') return;
    if (error !== null && isUnreachable(error)) {
      unreachable = error.toData();
      setConnectivity(accountId, 'offline', error.message);
    } else setConnectivity(accountId, 'online', null);
  }

  // ---- accounts -----------------------------------------------------------------------------

  async function saving<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw new FieldDeskError('internal', MESSAGES.saveFailed, { cause: error });
    }
  }

  async function summarize(account: StoredAccount): Promise<AccountSummary> {
    const held = account.kind === 'demo' ? null : await vault.get(account.id);
    return {
      id: account.id,
      name: account.name,
      baseUrl: account.baseUrl,
      kind: account.kind,
      keyStorage: account.kind === 'demo' ? 'demo' : (held?.storage ?? 'missing'),
      missingScopes: [...account.missingScopes],
      createdAt: account.createdAt,
      lastCheckedAt: account.lastCheckedAt,
    };
  }

  async function getState(): Promise<AccountsState> {
    const accounts = await Promise.all(store.list().map(summarize));
    // Read the vault status after the keys: a failed keychain read switches it to memory.
    const state: AccountsState = { accounts, activeId: store.activeId(), vault: vault.status() };
    if (store.warning !== null) state.notice = store.warning;
    return state;
  }

  function requireAccount(id: string): StoredAccount {
    const account = store.get(id);
    if (account === undefined)
      throw new FieldDeskError('invalidInput', MESSAGES.unknownAccount, { field: 'id' });
    return account;
  }

  function requireActive(): StoredAccount {
    const id = store.activeId();
    const account = id === null ? undefined : store.get(id);
    if (account === undefined) throw new FieldDeskError('noAccount', MESSAGES.noAccount);
    return account;
  }

  function ensureDemo(): Promise<DemoService> {
    demo ??= options.startDemo().catch((error: unknown) => {
      demo = null; // let a later attempt try again
      throw new FieldDeskError('internal', MESSAGES.demoStart, { cause: error });
    });
    return demo;
  }

  /** Options for a client of these credentials, with the backend's fetch and client settings. */
  function clientOptionsFor(
    credentials: { baseUrl: string; apiKey: string },
    onExchange: (exchange: ServiceExchange) => void,
  ): ServiceClientOptions {
    return {
      ...options.clientOptions,
      ...credentials,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      onExchange,
    };
  }

  /** The address and key to use for an account; restarts the demo lazily for a saved demo account. */
  async function credentialsFor(account: StoredAccount): Promise<{ baseUrl: string; apiKey: string }> {
    if (account.kind === 'demo') {
      const running = await ensureDemo();
      if (account.baseUrl !== running.baseUrl) {
        // The demo listens on a new port each run.
        await saving(store.update(account.id, (a) => ({ ...a, baseUrl: running.baseUrl })));
      }
      return { baseUrl: running.baseUrl, apiKey: running.apiKey };
    }
    const held = await vault.get(account.id);
    if (held !== null) return { baseUrl: account.baseUrl, apiKey: held.key };
    const status = vault.status();
    if (status.storage === 'memory') {
      throw new FieldDeskError(
        'keychainUnavailable',
        `The API key of “${account.name}” is not available because the system keychain cannot be used. ` +
          'Enter the key again to use this account until FieldDesk closes.',
      );
    }
    throw new FieldDeskError(
      'unauthorized',
      `FieldDesk has no API key stored for “${account.name}”. Enter the key again to use this account.`,
      { retryable: false },
    );
  }

  /** Learned scopes: a 403 adds the missing scope, a success on an endpoint clears the scopes it needs. */
  function learnScopes(current: readonly Scope[], exchanges: readonly ServiceExchange[]): Scope[] {
    const learned = new Set(current);
    for (const exchange of exchanges) {
      if (exchange.error === null) for (const scope of exchange.scopes) learned.delete(scope);
      else if (exchange.error.code === 'forbidden' && exchange.error.missingScope !== undefined) {
        if (isScope(exchange.error.missingScope)) learned.add(exchange.error.missingScope);
      }
    }
    return [...learned];
  }

  async function applyScopeLearning(accountId: string, exchanges: readonly ServiceExchange[]): Promise<void> {
    const account = store.get(accountId);
    if (account === undefined || exchanges.length === 0) return;
    const next = learnScopes(account.missingScopes, exchanges);
    const same =
      next.length === account.missingScopes.length && next.every((s) => account.missingScopes.includes(s));
    if (same) return;
    await store.update(accountId, (a) => ({ ...a, missingScopes: next }));
    await emitAccountsChanged();
  }

  /**
   * Runs service calls for an account (or for a key not yet saved when `accountId` is null),
   * feeding connectivity as answers arrive and scope learning once the work is done.
   */
  async function withClient<T>(
    accountId: string | null,
    credentials: { baseUrl: string; apiKey: string },
    work: (client: ServiceClient) => Promise<T>,
  ): Promise<T> {
    const exchanges: ServiceExchange[] = [];
    const client = createServiceClient(
      clientOptionsFor(credentials, (exchange) => {
        exchanges.push(exchange);
        if (accountId !== null) noteConnectivity(accountId, exchange.error);
      }),
    );
    try {
      return await work(client);
    } finally {
      if (accountId !== null) {
        // Learned scopes are a hint: failing to save them must not hide the real outcome.
        await applyScopeLearning(accountId, exchanges).catch(() => undefined);
      }
    }
  }

  /**
   * Client options for long-running work (an action being watched, data reads and syncs): every
   * answer feeds connectivity and scope learning as it arrives, not when the work ends.
   */
  async function watchingOptions(account: StoredAccount): Promise<ServiceClientOptions> {
    return clientOptionsFor(await credentialsFor(account), (exchange) => {
      noteConnectivity(account.id, exchange.error);
      void applyScopeLearning(account.id, [exchange]).catch(() => undefined);
    });
  }

  async function watchingClient(account: StoredAccount): Promise<ServiceClient> {
    return createServiceClient(await watchingOptions(account));
  }

  /** The data client of an account. */
  async function dataSourceFor(account: StoredAccount): Promise<DataSource> {
    const make = options.createDataSource ?? defaultDataSource;
    return make(await watchingOptions(account));
  }

  /**
   * A cache-aware read (`data.read`, the instrument history): what the cache covers without a
   * request, the gaps and the still-open recent interval from the service when it can be
   * reached, and where the answer came from.
   */
  async function readThroughCache(account: StoredAccount, request: DatasetQuery): Promise<DataReadResult> {
    const { cache } = requireCache();
    const offline =
      connectivity.accountId === account.id && connectivity.state === 'offline'
        ? (unreachable ?? {
            code: 'offline' as const,
            message: connectivity.message ?? 'The service cannot be reached.',
            retryable: true,
          })
        : null;
    let source: DataSource | null = null;
    let sourceProblem: FieldDeskErrorData | undefined;
    try {
      source = await dataSourceFor(account);
    } catch (error) {
      // Without a key (or the demo service) the cache still answers what it holds.
      if (!(error instanceof FieldDeskError) || error.code === 'invalidInput') throw error;
      sourceProblem = error.toData();
    }
    return readDataset(
      {
        store: cache,
        source,
        now,
        accountId: account.id,
        offline,
        ...(sourceProblem === undefined ? {} : { sourceProblem }),
        ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
      },
      request,
    );
  }

  /**
   * A history read through the cache. When nothing at all could be answered (no copy, and the
   * service unreachable or refusing), that failure is thrown: the history shows it as an error
   * (or, for a missing scope, its "no records with this key" notice) rather than an empty table.
   */
  async function readHistory(account: StoredAccount, request: DatasetQuery): Promise<DataReadResult> {
    const result = await readThroughCache(account, request);
    const failure = nothingAnswered(result, now());
    if (failure !== null) throw failure;
    return result;
  }

  function requireCache(): { cache: CacheStore; syncs: SyncManager } {
    if (cache === null || syncs === null)
      throw databaseProblem ?? new FieldDeskError('internal', 'The local data cache is unavailable.');
    return { cache, syncs };
  }

  /** Datasets per serial: the user's choice, else the defaults of the instrument's type. */
  async function resolveSyncDatasets(
    account: StoredAccount,
    serials: readonly string[],
    chosen: Readonly<Record<string, readonly Dataset[]>>,
  ): Promise<Record<string, Dataset[]>> {
    const datasets: Record<string, Dataset[]> = {};
    const needDefaults = serials.filter((serial) => chosen[serial] === undefined);
    if (needDefaults.length > 0) {
      const instruments = await withClient(account.id, await credentialsFor(account), (client) =>
        client.listInstruments(),
      );
      for (const serial of needDefaults) {
        const instrument = instruments.find((i) => i.serialNumber === serial);
        if (instrument === undefined)
          throw new FieldDeskError('invalidInput', MESSAGES.unknownSerial(serial), { field: 'serials' });
        datasets[serial] = defaultDatasetsFor(instrument);
      }
    }
    for (const serial of serials) {
      const given = chosen[serial];
      if (given !== undefined) datasets[serial] = [...new Set(given)];
    }
    return datasets;
  }

  /** Tests a key the way every account check does: list the instruments. Returns how many. */
  async function testKey(
    accountId: string | null,
    credentials: { baseUrl: string; apiKey: string },
  ): Promise<number> {
    try {
      return (await withClient(accountId, credentials, (client) => client.listInstruments())).length;
    } catch (error) {
      throw explainKeyTestFailure(error, credentials.baseUrl);
    }
  }

  function explainKeyTestFailure(error: unknown, baseUrl: string): unknown {
    if (!(error instanceof FieldDeskError)) return error;
    const extra = {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.serverCode === undefined ? {} : { serverCode: error.serverCode }),
      cause: error,
    };
    switch (error.code) {
      case 'unauthorized':
        return new FieldDeskError('unauthorized', MESSAGES.keyRejected, extra);
      case 'forbidden':
        return new FieldDeskError('forbidden', MESSAGES.cannotList, {
          ...extra,
          missingScope: 'instruments:read',
        });
      case 'offline':
      case 'timeout': {
        // Name the whole address the user typed, not just the host.
        const host = new URL(baseUrl).host;
        return new FieldDeskError(error.code, error.message.replace(host, baseUrl), extra);
      }
      case 'notFound':
      case 'badResponse':
        return new FieldDeskError(
          error.code,
          `${error.message} Check that ${baseUrl} is the service's base address (it ends in /v1).`,
          extra,
        );
      default:
        return error;
    }
  }

  // ---- instruments --------------------------------------------------------------------------

  async function readStatuses(client: ServiceClient, instruments: Instrument[]): Promise<InstrumentEntry[]> {
    const limit = pLimit(STATUS_CONCURRENCY);
    // Once the service is unreachable, the remaining reads would only wait out the same failure.
    let unreachable: FieldDeskError | null = null;
    return Promise.all(
      instruments.map((instrument) =>
        limit(async (): Promise<InstrumentEntry> => {
          if (unreachable !== null) return { instrument, status: null, statusError: unreachable.toData() };
          try {
            return {
              instrument,
              status: await client.getInstrumentStatus(instrument.serialNumber),
              statusError: null,
            };
          } catch (error) {
            if (error instanceof FieldDeskError && isUnreachable(error)) unreachable = error;
            return { instrument, status: null, statusError: toErrorData(error) };
          }
        }),
      ),
    );
  }

  async function activate(accountId: string | null, knownOnline: boolean): Promise<void> {
    await saving(store.setActive(accountId));
    if (knownOnline && accountId !== null) setConnectivity(accountId, 'online', null);
    else setConnectivity(accountId, 'unknown', null);
  }

  async function tryDemo(): Promise<AccountCheck> {
    const running = await ensureDemo();
    const existing = store.list().find((a) => a.kind === 'demo');
    const instrumentCount = await testKey(existing?.id ?? null, running);
    const checkedAt = now();
    const account =
      existing === undefined
        ? await saving(
            store.add({
              name: DEMO_ACCOUNT_NAME,
              baseUrl: running.baseUrl,
              kind: 'demo',
              createdAt: checkedAt,
              lastCheckedAt: checkedAt,
              missingScopes: [],
            }),
          )
        : await saving(
            store.update(existing.id, (a) => ({
              ...a,
              baseUrl: running.baseUrl,
              lastCheckedAt: checkedAt,
            })),
          );
    if (account === undefined) throw new FieldDeskError('invalidInput', MESSAGES.unknownAccount);
    await activate(account.id, true);
    await emitAccountsChanged();
    return { account: await summarize(account), instrumentCount, checkedAt };
  }

  // ---- handlers -----------------------------------------------------------------------------

  const handlers: BackendHandlers = {
    'app.getInfo': async () => ({ ...options.appInfo }),

    'accounts.getState': getState,

    'accounts.add': async ({ name, baseUrl, apiKey }) => {
      // Test before saving anything: a failed add leaves no trace.
      const instrumentCount = await testKey(null, { baseUrl, apiKey });
      const checkedAt = now();
      const account = await saving(
        store.add({
          name,
          baseUrl,
          kind: 'service',
          createdAt: checkedAt,
          lastCheckedAt: checkedAt,
          missingScopes: [],
        }),
      );
      try {
        await vault.set(account.id, apiKey);
      } catch (error) {
        await store.remove(account.id).catch(() => undefined);
        throw new FieldDeskError('keychainUnavailable', 'FieldDesk could not keep the API key. Try again.', {
          cause: error,
        });
      }
      await activate(account.id, true);
      await emitAccountsChanged();
      return { account: await summarize(account), instrumentCount, checkedAt };
    },

    'accounts.check': async ({ id }) => {
      const account = requireAccount(id);
      const instrumentCount = await testKey(account.id, await credentialsFor(account));
      const checkedAt = now();
      const updated = await saving(store.update(id, (a) => ({ ...a, lastCheckedAt: checkedAt })));
      await emitAccountsChanged();
      return { account: await summarize(updated ?? requireAccount(id)), instrumentCount, checkedAt };
    },

    'accounts.rename': async ({ id, name }) => {
      requireAccount(id);
      const updated = await saving(store.update(id, (a) => ({ ...a, name })));
      await emitAccountsChanged();
      return summarize(updated ?? requireAccount(id));
    },

    'accounts.replaceKey': async ({ id, apiKey }) => {
      const account = requireAccount(id);
      if (account.kind === 'demo')
        throw new FieldDeskError('invalidInput', MESSAGES.demoKey, { field: 'apiKey' });
      // The old key stays until the new one has proven itself.
      const instrumentCount = await testKey(null, { baseUrl: account.baseUrl, apiKey });
      await vault.set(id, apiKey);
      const checkedAt = now();
      // A new key has its own scopes: forget what was learned about the old one.
      const updated = await saving(
        store.update(id, (a) => ({ ...a, lastCheckedAt: checkedAt, missingScopes: [] })),
      );
      if (store.activeId() === id) setConnectivity(id, 'online', null);
      await emitAccountsChanged();
      return { account: await summarize(updated ?? requireAccount(id)), instrumentCount, checkedAt };
    },

    'accounts.remove': async ({ id }) => {
      const account = requireAccount(id);
      const accounts = store.list();
      const index = accounts.findIndex((a) => a.id === id);
      const wasActive = store.activeId() === id;
      if (account.kind === 'service') await vault.delete(id);
      await saving(store.remove(id));
      // The removed account's cached data goes with it (best effort: the account is gone either way).
      try {
        cache?.clear(id);
      } catch {
        // A cache that cannot be cleared now is cleared with "Clear cache" later.
      }
      if (wasActive) {
        const remaining = accounts.filter((a) => a.id !== id);
        const next = remaining[index] ?? remaining[index - 1] ?? null;
        await activate(next?.id ?? null, false);
      }
      const state = await getState();
      emit('accounts.changed', state);
      return state;
    },

    'accounts.activate': async ({ id }) => {
      requireAccount(id);
      if (store.activeId() !== id) await activate(id, false);
      const state = await getState();
      emit('accounts.changed', state);
      return state;
    },

    'accounts.tryDemo': () => {
      tryingDemo ??= tryDemo().finally(() => {
        tryingDemo = null;
      });
      return tryingDemo;
    },

    'instruments.list': async () => {
      const account = requireActive();
      const entries = await withClient(account.id, await credentialsFor(account), async (client) =>
        readStatuses(client, await client.listInstruments()),
      );
      return { accountId: account.id, entries, fetchedAt: now() };
    },

    'instruments.get': async ({ serial }) => {
      const account = requireActive();
      return withClient(account.id, await credentialsFor(account), async (client) => {
        const [instrument, statusRead] = await Promise.all([
          client.getInstrument(serial),
          client.getInstrumentStatus(serial).then(
            (status) => ({ status, statusError: null }),
            (error: unknown) => ({ status: null, statusError: toErrorData(error) }),
          ),
        ]);
        return { accountId: account.id, instrument, ...statusRead, fetchedAt: now() };
      });
    },

    'instruments.rename': async ({ serial, name }) => {
      const account = requireActive();
      return withClient(account.id, await credentialsFor(account), async (client) => {
        await client.renameInstrument(serial, name);
        return client.getInstrument(serial);
      });
    },

    'actions.start': async ({ serial, action }) => {
      const account = requireActive();
      const client = await watchingClient(account);
      // Checked after the last await, so two quick clicks cannot both pass.
      const busy = operations.running().find((op) => op.serial === serial);
      if (busy !== undefined)
        throw new FieldDeskError('conflict', MESSAGES.actionRunning(busy.action, serial));
      return startActionOperation(
        {
          client,
          progress: createPollingProgressSource(client, { ...options.polling, now }),
          registry: operations,
          now,
        },
        { accountId: account.id, serial, action, settings: settings.get() },
      );
    },

    'actions.history': async ({ serial }) => {
      const account = requireActive();
      if (history === null)
        throw databaseProblem ?? new FieldDeskError('internal', 'Action history is unavailable.');
      return history.list(account.id, serial);
    },

    'operations.list': async () => operations.list(),

    'operations.cancel': async ({ id }) => operations.cancel(id),

    'history.calibrations': async ({ serial, start, end }) => {
      const result = await readHistory(requireActive(), { serial, dataset: 'calibrations', start, end });
      return { records: calibrationRecordsOf(serial, result.records), provenance: result.provenance };
    },

    'history.calibrationLog': async ({ serial, start, end }) => {
      const result = await readHistory(requireActive(), { serial, dataset: 'calibrationLog', start, end });
      return { records: calibrationLogEntriesOf(serial, result.records), provenance: result.provenance };
    },

    'history.sic': async ({ serial, start, end }) => {
      const result = await readHistory(requireActive(), { serial, dataset: 'sic', start, end });
      return { records: sicRecordsOf(serial, result.records), provenance: result.provenance };
    },

    'data.read': async (query) =>
      readThroughCache(requireActive(), {
        serial: query.serial,
        dataset: query.dataset,
        start: query.start,
        end: query.end,
        ...(query.options === undefined ? {} : { options: query.options }),
      }),

    'sync.start': async (request) => {
      const account = requireActive();
      const { syncs } = requireCache();
      const serials = [...new Set(request.serials)];
      const datasets = await resolveSyncDatasets(account, serials, request.datasets);
      const source = await dataSourceFor(account);
      return syncs.start(account.id, { serials, start: request.start, end: request.end, datasets }, source);
    },

    'sync.list': async () => requireCache().syncs.list(),

    'sync.cancel': async ({ id }) => requireCache().syncs.cancel(id),

    'sync.resume': async ({ id }) => {
      const { syncs } = requireCache();
      const accountId = syncs.accountOf(id);
      if (accountId === undefined)
        throw new FieldDeskError('invalidInput', MESSAGES.unknownSync, { field: 'id' });
      const account = store.get(accountId);
      if (account === undefined) throw new FieldDeskError('invalidInput', MESSAGES.syncAccountGone);
      return syncs.resume(id, await dataSourceFor(account));
    },

    'cache.summary': async () => requireCache().cache.summary(requireActive().id),

    'cache.clear': async ({ serial }) => {
      const account = requireActive();
      const { cache } = requireCache();
      cache.clear(account.id, serial);
      return cache.summary(account.id);
    },

    'connectivity.get': async () => ({ ...connectivity }),

    'settings.get': async () => settings.get(),

    'settings.update': async (change) => {
      try {
        return await settings.update({
          ...(change.calibrationReferenceDb === undefined
            ? {}
            : { calibrationReferenceDb: change.calibrationReferenceDb }),
          ...(change.calibrationToleranceDb === undefined
            ? {}
            : { calibrationToleranceDb: change.calibrationToleranceDb }),
        });
      } catch (error) {
        throw new FieldDeskError('internal', MESSAGES.settingsSaveFailed, { cause: error });
      }
    },
  };

  return {
    handlers,
    subscribe(sink) {
      sinks.add(sink);
      return () => {
        sinks.delete(sink);
      };
    },
    async close() {
      // Stop watching (each running action is kept in the history as stopped), then close the database.
      closed = true;
      stopProbe();
      operations.cancelAll();
      // Running site syncs stop as `interrupted`: the next start offers to resume them.
      await syncs?.stopAll();
      sinks.clear();
      database?.close();
      await Promise.all([store.flush(), settings.flush()]);
      const running = demo;
      demo = null;
      if (running !== null) {
        await running.then(
          (service) => service.close(),
          () => undefined,
        );
      }
    },
  };
}
