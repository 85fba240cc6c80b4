/**
 * Run in a child process by sync-kill.test.ts (`node --import tsx`): a backend on DATA_DIR that
 * starts a site sync against the demo service at BASE_URL (every data answer slowed down) and
 * prints one JSON line per progress event, until the parent kills it with SIGKILL.
 */
import { createBackend } from '../../../src/main/backend/backend';
import { createDataClient } from '../../../src/main/backend/service/data-client';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';

const { DATA_DIR, BASE_URL, API_KEY, SYNC_JSON, DELAY_MS } = process.env;
if (!DATA_DIR || !BASE_URL || !API_KEY || !SYNC_JSON) throw new Error('missing environment');

async function main(): Promise<void> {
  const backend = await createBackend({
    dataDir: DATA_DIR!,
    vault: createMemoryVault('child process'),
    appInfo: { version: '0.1.0-test', shell: 'harness' },
    startDemo: async () => ({ baseUrl: BASE_URL!, apiKey: API_KEY!, close: async () => undefined }),
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/data/')) await new Promise((resolve) => setTimeout(resolve, Number(DELAY_MS ?? 60)));
      return fetch(input, init);
    },
    createDataSource: (options) =>
      createDataClient({
        ...options,
        // As SPLIT_FOR_TEST in sync-kill.test.ts.
        maxRangeMs: {
          noiseMeasurements: 6 * 3_600_000,
          calibrations: 400 * 86_400_000,
          calibrationLog: 400 * 86_400_000,
          sic: 400 * 86_400_000,
        },
      }),
    syncConcurrency: 2,
  });
  backend.subscribe((channel, payload) => {
    if (channel === 'sync.progress') process.stdout.write(`${JSON.stringify(payload)}\n`);
  });
  await backend.handlers['accounts.tryDemo']({});
  await backend.handlers['sync.start'](JSON.parse(SYNC_JSON!));
  setInterval(() => undefined, 1000); // keep running until killed
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
