/** Building backends for the backend tests: the demo service as the demo account, events recorded. */
import { afterEach, beforeEach } from 'vitest';
import { createBackend, type BackendOptions } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import type { EventChannel } from '../../../src/shared/ipc/channels';
import type { EventPayloads } from '../../../src/shared/ipc/contract';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { isFinishedState, type OperationSnapshot } from '../../../src/shared/operations';
import { makeTempDir } from './helpers';

/** One event a backend pushed, with its channel. */
export type RecordedEvent = { [E in EventChannel]: { channel: E; payload: EventPayloads[E] } }[EventChannel];

export const TEST_APP_INFO: BackendOptions['appInfo'] = { version: '0.1.0-test', shell: 'harness' };

/**
 * A backend that watches the demo's actions closely (its time scale makes a calibration take well
 * under a second): a short time limit, no retries, polls every few tens of milliseconds.
 */
export const FAST_ACTION_OPTIONS = {
  clientOptions: {
    timeoutMs: 2_000,
    retry: { limit: 0, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 500 },
  },
  polling: { fastIntervalMs: 40, slowIntervalMs: 80, fastPhaseMs: 1_000 },
} satisfies Partial<BackendOptions>;

/** The key the demo service under test is started with (`keys: { [DEMO_TEST_KEY]: '*' }`). */
export const DEMO_TEST_KEY = 'key-all';

/**
 * A backend on `dataDir` with keys in memory whose demo account is the demo service the test
 * already runs, rather than one the backend starts itself.
 */
export function demoBackendOptions(dataDir: string, service: RunningDemoService): BackendOptions {
  return {
    dataDir,
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: async () => ({
      baseUrl: service.baseUrl,
      apiKey: DEMO_TEST_KEY,
      close: async () => undefined,
    }),
  };
}

/** A backend with every event it pushes recorded in `events`; the caller closes it. */
export async function createRecordingBackend(options: BackendOptions) {
  const events: RecordedEvent[] = [];
  const backend = await createBackend(options);
  backend.subscribe((channel, payload) => events.push({ channel, payload } as RecordedEvent));
  return { backend, handlers: backend.handlers, events };
}

/** Waits for an operation's finished snapshot among the events a recording backend received. */
export async function operationFinished(
  made: { events: RecordedEvent[] },
  id: string,
): Promise<OperationSnapshot> {
  for (;;) {
    const done = made.events.find(
      (e) => e.channel === 'operations.progress' && e.payload.id === id && isFinishedState(e.payload.state),
    );
    if (done !== undefined) return done.payload as OperationSnapshot;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What `startDemoBackend` opened, closed after each test (newest first). */
const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/**
 * A demo service (every scope under `DEMO_TEST_KEY`) and a backend on a fresh data folder with the
 * demo account active, all closed after the test; `overrides` change the backend's options.
 */
export async function startDemoBackend(overrides: Partial<BackendOptions> = {}) {
  const service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 10_000 });
  opened.push(() => service.close());
  const dataDir = await makeTempDir();
  opened.push(() => dataDir.remove());
  const made = await createRecordingBackend({ ...demoBackendOptions(dataDir.path, service), ...overrides });
  opened.push(() => made.backend.close());
  await made.handlers['accounts.tryDemo']({});
  return { ...made, service, dataDir: dataDir.path };
}

/**
 * For tests that lose the network: per test, a demo service (every scope under `DEMO_TEST_KEY`)
 * and a fresh data folder; backends on that folder whose requests fail as a refused connection
 * while `network.down` is true, and which record the data requests they make. A backend can be
 * closed and another opened on the same folder (a restart). Everything is closed after each test.
 */
export function demoBackendsWithNetwork() {
  const network = { down: false, dataRequests: [] as string[] };
  let service: RunningDemoService | null = null;
  let dataDir: { path: string; remove(): Promise<void> } | null = null;
  const backends: Array<{ close(): Promise<void> }> = [];

  beforeEach(async () => {
    network.down = false;
    network.dataRequests = [];
    service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 100_000 });
    dataDir = await makeTempDir();
  });
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((backend) => backend.close()));
    await service?.close();
    await dataDir?.remove();
  });

  /** A backend on the test's folder; `addDemo` adds the demo account (once: it is kept on disk). */
  async function open(options: { addDemo?: boolean; overrides?: Partial<BackendOptions> } = {}) {
    const made = await createRecordingBackend({
      ...demoBackendOptions(dataDir!.path, service!),
      fetch: async (input, init) => {
        if (network.down)
          throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes('/data/')) network.dataRequests.push(url);
        return fetch(input, init);
      },
      clientOptions: {
        timeoutMs: 10_000,
        retry: { limit: 0, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 200 },
      },
      offlineProbeMs: 50,
      ...options.overrides,
    });
    backends.push(made.backend);
    if (options.addDemo !== false) await made.handlers['accounts.tryDemo']({});
    return made;
  }

  /** Closes a backend opened here (as FieldDesk quitting), before the test's end. */
  async function close(backend: { close(): Promise<void> }): Promise<void> {
    backends.splice(backends.indexOf(backend), 1);
    await backend.close();
  }

  return { network, open, close, dataDir: () => dataDir!.path };
}
