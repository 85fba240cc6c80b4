/**
 * Keys that stay, on the path users run: the backend loaded by Node's own module loader (the
 * harness built like the Electron main bundle, `out/harness/cli.cjs`, in a child `node` process —
 * never vitest's module graph) against a REAL Secret Service. Add an account, restart, and list
 * instruments without typing the key again; `secret-tool` sees the entry under the service name.
 *
 * Needs a D-Bus session with an unlocked keyring (TOOLCHAIN.md); without one it is skipped and says why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDemoService, type RunningDemoService } from '../../src/simulator';
import {
  ensureBuiltHarness,
  invokeBuilt as invoke,
  startBuiltHarness as startHarness,
  startedHarnesses as started,
  stopBuiltHarness as stop,
} from '../built-harness';
const SERVICE_NAME = `FieldDesk-restart-test-${randomUUID()}`;
const TOKEN = `restart-test-${randomUUID()}`;
const API_KEY = `sk-restart-${randomUUID()}`;

/** `secret-tool search` for our service name (it prints the attributes on stderr, the rest on stdout). */
function secretToolSearch(): string {
  const result = spawnSync('secret-tool', ['search', '--all', 'service', SERVICE_NAME], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

/** Whether a Secret Service takes a write here (a read alone succeeds even when it is locked). */
function secretServiceUsable(): string | null {
  try {
    execFileSync('secret-tool', ['store', '--label', 'probe', 'service', SERVICE_NAME, 'account', 'probe'], {
      input: 'probe',
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    execFileSync('secret-tool', ['clear', 'service', SERVICE_NAME, 'account', 'probe']);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : String(error);
  }
}

const unusable = secretServiceUsable();
const WHY_SKIPPED = `skipped: no usable Secret Service here (run inside dbus-run-session with an unlocked gnome-keyring) — ${unusable}`;
if (unusable !== null) console.info(`keychain restart test ${WHY_SKIPPED}`);

describe('API keys survive a restart (Node’s loader, real Secret Service)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-restart-'));
  let service: RunningDemoService | undefined;
  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (unusable === null) execFileSync('secret-tool', ['clear', 'service', SERVICE_NAME]);
  });

  it.skipIf(unusable !== null)(
    unusable === null
      ? 'add an account, restart, list instruments without the key again; secret-tool sees it'
      : WHY_SKIPPED,
    async () => {
      ensureBuiltHarness();
      service = await startDemoService({ port: 0, keys: { [API_KEY]: '*' }, rateLimit: 10_000 });

      const first = await startHarness({ dataDir, keychainService: SERVICE_NAME, token: TOKEN });
      const added = await invoke<{ account: { id: string; keyStorage: string } }>(first, 'accounts.add', {
        name: 'Site office',
        baseUrl: service.baseUrl,
        apiKey: API_KEY,
      });
      expect(added).toMatchObject({ ok: true, value: { account: { keyStorage: 'keychain' } } });
      await stop(first);

      // The key is in the Secret Service under the harness's service name, for that account.
      const found = secretToolSearch();
      expect(found).toContain(`attribute.service = ${SERVICE_NAME}`);
      expect(found).toContain(`attribute.account = ${added.value.account.id}`);

      const second = await startHarness({ dataDir, keychainService: SERVICE_NAME, token: TOKEN });
      try {
        const state = await invoke<{ accounts: Array<{ keyStorage: string }> }>(
          second,
          'accounts.getState',
          {},
        );
        expect(state.value.accounts).toMatchObject([{ keyStorage: 'keychain' }]);
        const list = await invoke<{ entries: unknown[] }>(second, 'instruments.list', {});
        expect(list.error).toBeUndefined();
        expect(list.value.entries.length).toBeGreaterThan(0);
      } finally {
        await stop(second);
      }
    },
  );
});
