/**
 * Run in a child process by visit-photos-sweep.test.ts (`node --import tsx`): a backend on DATA_DIR
 * that starts a visit and adds the test photo to it, held at one moment of adding it until the
 * parent kills it with SIGKILL. The moment is held by wrapping one `node:fs/promises` function (the
 * backend's modules read it at each call), as finishing-child.ts does: when the call comes, the child
 * prints one JSON line and never returns from it.
 *
 * STOP_AT:
 * - `thumbnail`: the picture is in place under its name; the thumbnail's temporary file was just made.
 * - `record`: picture and thumbnail are both in place; the visit's record does not name them yet.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createBackend } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';

const { DATA_DIR, BASE_URL, API_KEY, STOP_AT } = process.env;
if (!DATA_DIR || !BASE_URL || !API_KEY || !STOP_AT) throw new Error('missing environment');

const fs = process.getBuiltinModule('node:fs/promises');
/** Never settles: the child stays inside the call until it is killed. */
const forever = (): Promise<never> => new Promise<never>(() => undefined);
const say = (what: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(what)}\n`);
const original = { open: fs.open, rename: fs.rename };
const thumbnailPart = (path: string) => /-thumb\.jpg\.fielddesk-[0-9a-f]{8}\.part$/.test(basename(path));

fs.open = (async (...args: Parameters<typeof fs.open>) => {
  const handle = await original.open(...args);
  if (STOP_AT === 'thumbnail' && thumbnailPart(String(args[0]))) {
    say({ stoppedAt: STOP_AT, path: String(args[0]) });
    return forever();
  }
  return handle;
}) as typeof fs.open;

fs.rename = async (from, to) => {
  await original.rename(from, to);
  if (STOP_AT === 'record' && thumbnailPart(String(from))) {
    say({ stoppedAt: STOP_AT, to: String(to) });
    return forever();
  }
};

async function main(): Promise<void> {
  const backend = await createBackend({
    dataDir: DATA_DIR!,
    vault: createMemoryVault('child process'),
    appInfo: { version: '0.1.0-test', shell: 'harness' },
    startDemo: async () => ({ baseUrl: BASE_URL!, apiKey: API_KEY!, close: async () => undefined }),
    clientOptions: { timeoutMs: 10_000, retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 20 } },
  });
  const { handlers } = backend;
  await handlers['accounts.tryDemo']({});
  const { entries } = await handlers['instruments.list']({});
  const serial = entries[0]!.instrument.serialNumber;
  const { visit } = await handlers['visits.start']({ serials: [serial], engineer: 'Asha Patel' });
  say({ visitId: visit.id, accountId: visit.accountId });
  const photo = readFileSync(join(__dirname, '../../fixtures/site-photo-mast.jpg')).toString('base64');
  await handlers['visits.addPhoto']({
    visitId: visit.id,
    fileName: 'mast.jpg',
    caption: 'Mast after the repair',
    imageBase64: photo,
    reduce: false,
  });
  say({ finished: true });
  setInterval(() => undefined, 1000); // keep running until killed
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
