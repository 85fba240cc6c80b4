/**
 * Run in a child process by finishing-kill.test.ts (`node --import tsx`): a backend on DATA_DIR that
 * downloads a recording or writes a report, stopped at one chosen moment of finishing until the
 * parent kills it with SIGKILL. The moment is held by wrapping one `node:fs/promises` function (the
 * backend's modules read it at each call, as Node's own loader gives them): when the call the test
 * names comes, the child prints one JSON line and never returns from it.
 *
 * STOP_AT:
 * - `whole-part`: the download's `.part` holds every byte (synced, closed), its size is being
 *   checked; the final name is not recorded yet.
 * - `before-rename`: the final name is recorded, the `.part` not yet renamed to it.
 * - `after-rename`: the `.part` was renamed; the library entry is not written yet.
 * - `report-table`: a CSV report has written three tables into its temporary folder.
 * - `report-pdf`: the PDF report's temporary file was just created, nothing written in it.
 */
import { basename, dirname, join } from 'node:path';
import { createBackend } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import type { AudioFormat, Recording } from '../../../src/shared/audio';

const { DATA_DIR, BASE_URL, API_KEY, STOP_AT, WORK_JSON } = process.env;
if (!DATA_DIR || !BASE_URL || !API_KEY || !STOP_AT || !WORK_JSON) throw new Error('missing environment');

type Work =
  | { kind: 'audio'; recording: Recording; format: AudioFormat; size: number }
  | { kind: 'report'; serials: string[]; start: number; end: number; format: 'csv' | 'pdf' };
const work = JSON.parse(WORK_JSON) as Work;

const fs = process.getBuiltinModule('node:fs/promises');
/** Never settles: the child stays inside the call until it is killed. */
const forever = (): Promise<never> => new Promise<never>(() => undefined);
const say = (what: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(what)}\n`);

const original = { rename: fs.rename, stat: fs.stat, open: fs.open };
const inTemporaryFolder = (path: string) => /\.fielddesk-[0-9a-f]{8}\.part$/.test(basename(dirname(path)));
let tablesOpened = 0;

fs.stat = (async (...args: Parameters<typeof fs.stat>) => {
  const info = await original.stat(...args);
  const path = String(args[0]);
  if (
    STOP_AT === 'whole-part' &&
    work.kind === 'audio' &&
    path.endsWith('.part') &&
    dirname(path) === join(DATA_DIR!, 'audio') &&
    info.size === work.size
  ) {
    say({ stoppedAt: STOP_AT, path });
    return forever();
  }
  return info;
}) as typeof fs.stat;

fs.rename = async (from, to) => {
  // The recording's own `.part` in the downloads folder (not, say, a backup copy's).
  const audioPart =
    work.kind === 'audio' &&
    String(from).endsWith('.part') &&
    dirname(String(from)) === join(DATA_DIR!, 'audio');
  if (audioPart && STOP_AT === 'before-rename') {
    say({ stoppedAt: STOP_AT, from, to });
    return forever();
  }
  await original.rename(from, to);
  if (audioPart && STOP_AT === 'after-rename') {
    say({ stoppedAt: STOP_AT, from, to });
    return forever();
  }
};

fs.open = (async (...args: Parameters<typeof fs.open>) => {
  const handle = await original.open(...args);
  const path = String(args[0]);
  if (STOP_AT === 'report-table' && inTemporaryFolder(path) && ++tablesOpened === 4) {
    // Three tables are written and synced; the fourth file is created, empty.
    say({ stoppedAt: STOP_AT, path });
    return forever();
  }
  if (STOP_AT === 'report-pdf' && /\.pdf\.fielddesk-[0-9a-f]{8}\.part$/.test(path)) {
    say({ stoppedAt: STOP_AT, path });
    return forever();
  }
  return handle;
}) as typeof fs.open;

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
  if (work.kind === 'audio') {
    const [queued] = await handlers['audio.download']({ recordings: [work.recording], format: work.format });
    say({ queued: queued!.id });
  } else {
    const site = await handlers['assessment.saveSite']({
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: work.serials,
    });
    await handlers['assessment.report']({
      siteId: site.id,
      start: work.start,
      end: work.end,
      format: work.format,
    });
    say({ finished: true });
  }
  setInterval(() => undefined, 1000); // keep running until killed
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
