/** Building backends for the backend tests: the demo service as the demo account, events recorded. */
import { afterEach } from 'vitest';
import { createBackend, type BackendOptions } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import type { EventChannel } from '../../../src/shared/ipc/channels';
import type { EventPayloads } from '../../../src/shared/ipc/contract';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { makeTempDir } from './helpers';

/** One event a backend pushed, with its channel. */
export type RecordedEvent = { [E in EventChannel]: { channel: E; payload: EventPayloads[E] } }[EventChannel];

export const TEST_APP_INFO: BackendOptions['appInfo'] = { version: '0.1.0-test', shell: 'harness' };

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
