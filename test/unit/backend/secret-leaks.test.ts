/**
 * The API key in no spelling anywhere FieldDesk keeps or shows text: a service that echoes the key
 * (every spelling of secret-encodings.ts: literal, URL- and form-encoded once or twice,
 * percent-escaped in either case, JSON-escaped, HTML character references, hex, base64 and
 * base64url at each byte alignment, also wrapped in lines, and its first or last 12 characters
 * alone) into error descriptions and into records' text fields — the
 * demo service behind a fetch that rewrites some of its answers — and then the answers the backend
 * returns, the events it pushes, every file of its data folder (the SQLite database, the log) and
 * the diagnostics zip are searched for every spelling.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend, type Backend } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { dispatchRequest, type EventPayloads } from '../../../src/shared/ipc/contract';
import type { RequestChannel } from '../../../src/shared/ipc/channels';
import type { DiagnosticsResult } from '../../../src/shared/diagnostics';
import { isFinishedState, type OperationSnapshot } from '../../../src/shared/operations';
import type { SyncSnapshot } from '../../../src/shared/data';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { TEST_APP_INFO } from './backend-helpers';
import { makeTempDir } from './helpers';
import { allSpellings, tracesIn } from './secret-encodings';

/** A key with characters every encoding spells differently (no `"` or `\`: they are tested in secrets.test.ts). */
const KEY = 'fD7+q/Z9=k~Lm&T!r*8sP.QeN4_x';
const SPELLINGS = allSpellings(KEY);
/**
 * Every spelling, as raw JSON string content (the JSON-escaped ones decode to the key when parsed;
 * line breaks are escaped, as JSON needs them).
 */
const ECHO = Object.values(SPELLINGS).join(' | ').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
const ECHO_ERROR = `{"error":"Echo ${ECHO}","description":"Your key ${ECHO} is not valid for this."}`;

const NOISE = 'QT930998';
const NOISE_2 = 'QT882792';
const AIR = 'AQ132935';
const DAY = 86_400_000;
const END = Math.floor(Date.now() / DAY) * DAY - DAY;

const json = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'Content-Type': 'application/json' } });

/**
 * The demo service, except: an instrument's name, the calibration log's texts, and the errors of
 * one status, a rename, an action and every data request for one instrument repeat the key in every spelling.
 */
const echoingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const path = new URL(request.url).pathname.replace(/^\/v1/, '');
  if (path === `/control/instruments/${NOISE_2}/status`) return json(ECHO_ERROR, 400);
  if (path === `/control/instruments/${NOISE}` && request.method === 'PUT') return json(ECHO_ERROR, 400);
  if (path === `/control/instruments/${NOISE}/action`) return json(ECHO_ERROR, 400);
  if (path.startsWith('/data/') && new URL(request.url).search.includes(AIR)) return json(ECHO_ERROR, 400);
  if (path === '/data/calibrations/log') {
    const time = new Date(END - DAY / 2).toISOString();
    return json(`[{"time":"${time}","instrument":"${NOISE}","user":"Echo ${ECHO}","message":"Key ${ECHO}"}]`);
  }
  const answer = await fetch(request);
  if (path === '/control/instruments' && answer.ok) {
    const list = (await answer.json()) as Array<Record<string, unknown>>;
    const named = list.map((item) => (item['serialNumber'] === NOISE ? { ...item, name: '@ECHO@' } : item));
    return json(JSON.stringify(named).replace('"@ECHO@"', `"Echo ${ECHO}"`));
  }
  return answer;
};

let service: RunningDemoService | null = null;
let dataDir: { path: string; remove(): Promise<void> } | null = null;
afterEach(async () => {
  await service?.close();
  await dataDir?.remove();
});

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** What a transport sends: the envelope as JSON (typed arrays as their numbers). */
const sent = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) => (ArrayBuffer.isView(item) ? '[typed array]' : item));

async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 800; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not happen`);
}

describe('an API key the service echoes in every spelling', () => {
  it('reaches no answer, event, file of the data folder, log line or diagnostics zip', async () => {
    service = await startDemoService({ port: 0, keys: { [KEY]: '*' }, rateLimit: 100_000 });
    dataDir = await makeTempDir();
    const demo = service;
    const backend: Backend = await createBackend({
      dataDir: dataDir.path,
      vault: createMemoryVault('tests keep keys in memory'),
      appInfo: TEST_APP_INFO,
      startDemo: async () => ({ baseUrl: demo.baseUrl, apiKey: KEY, close: async () => undefined }),
      fetch: echoingFetch,
      clientOptions: { timeoutMs: 5_000, retry: { limit: 0 } },
    });
    const events: string[] = [];
    backend.subscribe((channel, payload: EventPayloads[typeof channel]) => events.push(sent(payload)));
    const answers: string[] = [];
    const call = async <T>(channel: RequestChannel, arg: unknown = {}) => {
      const envelope = await dispatchRequest(backend.handlers, channel, arg);
      answers.push(sent(envelope));
      return envelope as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
    };

    try {
      expect((await call('accounts.tryDemo')).ok).toBe(true);
      expect((await call('instruments.list')).ok).toBe(true);
      expect((await call('instruments.get', { serial: NOISE })).ok).toBe(true);
      const rename = await call('instruments.rename', { serial: NOISE, name: 'Riverside' });
      expect(rename.ok).toBe(false);
      const action = await call<OperationSnapshot>('actions.start', { serial: NOISE, action: 'Identify' });
      if (!action.ok) throw new Error(action.error.message);
      const operation = await waitFor(async () => {
        const list = await call<OperationSnapshot[]>('operations.list');
        const found = list.ok ? list.value.find((op) => op.id === action.value.id) : undefined;
        return found !== undefined && isFinishedState(found.state) ? found : undefined;
      }, 'the action');
      expect(operation.state).toBe('failed');
      expect((await call('actions.history', { serial: NOISE })).ok).toBe(true);
      expect(
        (await call('history.calibrationLog', { serial: NOISE, start: END - 10 * DAY, end: END })).ok,
      ).toBe(true);
      const calibrationLog = { serial: NOISE, dataset: 'calibrationLog', start: END - 10 * DAY, end: END };
      expect((await call('data.read', calibrationLog)).ok).toBe(true);
      const refused = { serial: AIR, dataset: 'particulates', start: END - DAY, end: END };
      // The service's refusal is said in the answer (partial, with why): redacted there too.
      await call('data.read', refused);
      expect(answers.at(-1)).toContain('[API key]');
      const sync = await call<SyncSnapshot>('sync.start', {
        serials: [AIR],
        datasets: {},
        start: END - DAY,
        end: END,
      });
      if (!sync.ok) throw new Error(sync.error.message);
      await waitFor(async () => {
        const list = await call<SyncSnapshot[]>('sync.list');
        const found = list.ok ? list.value.find((s) => s.id === sync.value.id) : undefined;
        return found !== undefined && !['running', 'starting'].includes(found.state) ? found : undefined;
      }, 'the sync');
      const diagnostics = await call<DiagnosticsResult>('diagnostics.save');
      if (!diagnostics.ok || !diagnostics.value.saved) throw new Error('the diagnostics were not saved');
      const zipPath = diagnostics.value.path;
      await backend.close();

      // The echo went everywhere, redacted: each place holds the label where the key was.
      const allAnswers = answers.join('\n');
      const allEvents = events.join('\n');
      expect(allAnswers).toContain('[API key]');
      expect(allEvents).toContain('[API key]');
      expect(tracesIn(allAnswers, SPELLINGS)).toEqual([]);
      expect(tracesIn(allEvents, SPELLINGS)).toEqual([]);

      const files = await filesUnder(dataDir.path);
      const database = files.find((file) => file.endsWith('.db'));
      const log = files.find((file) => file.endsWith('fielddesk.log'));
      expect(database).toBeDefined();
      expect(log).toBeDefined();
      expect((await readFile(database!)).includes('[API key]')).toBe(true);
      const logText = await readFile(log!, 'utf8');
      const renameLine = logText
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { level: string; request?: { channel: string }; reason?: string })
        .find((record) => record.request?.channel === 'instruments.rename');
      expect(renameLine).toMatchObject({ level: 'info' });
      expect(renameLine?.reason).toContain('[API key]');
      for (const file of files.filter((path) => !path.endsWith('.zip'))) {
        expect({ file, traces: tracesIn((await readFile(file)).toString('latin1'), SPELLINGS) }).toEqual({
          file,
          traces: [],
        });
      }

      const zip = unzipSync(new Uint8Array(await readFile(zipPath)));
      expect(Object.keys(zip)).toContain('logs/fielddesk.log');
      for (const [name, bytes] of Object.entries(zip)) {
        expect({ name, traces: tracesIn(strFromU8(bytes), SPELLINGS) }).toEqual({ name, traces: [] });
      }
    } finally {
      await backend.close();
    }
  }, 60_000);
});
