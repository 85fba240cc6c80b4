/**
 * "Save diagnostics…" on the path users run: the built harness (shaped like the Electron main
 * bundle, fflate resolved from the bundle) in a plain `node` child, with an account on a service
 * that echoes its key in every spelling into an instrument's name and into an error. The zip opens,
 * holds the log, versions, settings, accounts and the data folder's file list, and no trace of the key.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountCheck, AccountsState } from '../../../src/shared/accounts';
import { DIAGNOSTICS_FILES, type DiagnosticsResult } from '../../../src/shared/diagnostics';
import {
  ensureBuiltHarness,
  invokeBuilt,
  startBuiltHarness,
  startedHarnesses,
  stopBuiltHarness,
} from '../../built-harness';
import { startTestServer, wireInstrument, type TestServer } from './helpers';
import { allSpellings, tracesIn } from './secret-encodings';

const KEY = 'Zq4+w/Er=t~Yu&I!o*Pa.Sd_Fg-Hj8';
const SPELLINGS = allSpellings(KEY);
// Line breaks (of wrapped base64) escaped, as JSON needs them.
const ECHO = Object.values(SPELLINGS).join(' | ').replace(/\r/g, '\\r').replace(/\n/g, '\\n');

/** A service that accepts the key and repeats it: in the one instrument's name, and in a refusal. */
async function echoingService(): Promise<TestServer> {
  return startTestServer((request, response) => {
    const answer = (status: number, text: string): void =>
      void response.writeHead(status, { 'Content-Type': 'application/json' }).end(text);
    if (request.headers['x-api-key'] !== KEY) return answer(401, '{"error":"TokenExpired"}');
    if (request.method === 'PUT')
      return answer(400, `{"error":"Echo ${ECHO}","description":"Renaming with ${ECHO} is not allowed."}`);
    if (/\/control\/instruments\/?$/.test(request.url))
      return answer(200, JSON.stringify([wireInstrument('QT1', '@')]).replace('"@"', `"Echo ${ECHO}"`));
    return answer(404, '{"error":"NotFound","description":"Nothing here."}');
  });
}

describe('the diagnostics from the built bundle', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const child of startedHarnesses) child.kill('SIGKILL');
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('writes a zip that opens, holds what support needs and no trace of the key', async () => {
    ensureBuiltHarness();
    const service = await echoingService();
    cleanups.push(() => service.close());
    const dataDir = await mkdtemp(join(tmpdir(), 'fielddesk-diagnostics-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const cli = await startBuiltHarness({
      dataDir,
      keychainService: `FieldDesk-diagnostics-test-${randomUUID()}`,
      token: `diagnostics-${randomUUID()}`,
    });
    try {
      const added = await invokeBuilt<AccountCheck>(cli, 'accounts.add', {
        name: 'Riverside client',
        baseUrl: service.baseUrl,
        apiKey: KEY,
      });
      expect(added.error).toBeUndefined();
      const rename = await invokeBuilt(cli, 'instruments.rename', { serial: 'QT1', name: 'North gate' });
      expect(rename.ok).toBe(false);
      expect(rename.error?.message).toContain('[API key]');

      const saved = await invokeBuilt<DiagnosticsResult>(cli, 'diagnostics.save', {});
      expect(saved.error).toBeUndefined();
      if (!saved.value.saved) throw new Error('the diagnostics were not saved');
      const bytes = await readFile(saved.value.path);
      expect(bytes.byteLength).toBe(saved.value.bytes);
      const zip = unzipSync(new Uint8Array(bytes));
      const text = (name: string) => strFromU8(zip[name] ?? new Uint8Array());

      expect(Object.keys(zip).sort()).toEqual(
        [
          'logs/fielddesk.log',
          DIAGNOSTICS_FILES.about,
          DIAGNOSTICS_FILES.settings,
          DIAGNOSTICS_FILES.accounts,
          DIAGNOSTICS_FILES.files,
        ].sort(),
      );
      for (const [name, content] of Object.entries(zip)) {
        expect({ name, traces: tracesIn(strFromU8(content), SPELLINGS) }).toEqual({ name, traces: [] });
      }
      // The rename's refusal is in the log, the key replaced where the service repeated it.
      const logLines = text('logs/fielddesk.log')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { level: string; reason?: string; request?: { channel: string } });
      const refusal = logLines.find((line) => line.request?.channel === 'instruments.rename');
      expect(refusal).toMatchObject({ level: 'info' });
      expect(refusal?.reason).toContain('[API key]');

      const about = JSON.parse(text(DIAGNOSTICS_FILES.about)) as {
        app: { version: string; shell: string };
        versions: { node: string };
        os: { platform: string };
      };
      expect(about.app.shell).toBe('harness');
      expect(about.versions.node).toBe(process.versions.node);
      expect(about.os.platform).toBe(process.platform);
      const accounts = JSON.parse(text(DIAGNOSTICS_FILES.accounts)) as AccountsState;
      expect(accounts.accounts.map((a) => [a.name, a.baseUrl])).toEqual([
        ['Riverside client', service.baseUrl],
      ]);
      expect(text(DIAGNOSTICS_FILES.settings)).toMatch(/defaults apply|"settings"/);
      expect(text(DIAGNOSTICS_FILES.files)).toMatch(/^logs\/fielddesk\.log\t\d+\t\d{4}-\d\d-\d\dT/m);
      expect(text(DIAGNOSTICS_FILES.files)).toMatch(/^accounts\.json\t\d+\t/m);

      const state = await invokeBuilt<AccountsState>(cli, 'accounts.getState', {});
      for (const account of state.value.accounts)
        await invokeBuilt(cli, 'accounts.remove', { id: account.id });
    } finally {
      await stopBuiltHarness(cli);
    }
  }, 60_000);
});
