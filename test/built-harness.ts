/**
 * The harness built like the Electron main bundle (`out/harness/cli.cjs`), run in a child `node`
 * process: the backend under Node's own module loader, as the app loads it — never vitest's module
 * graph. Tests that must take the user's path (native modules, package files found at run time)
 * drive it over its HTTP contract.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

export const BUILT_HARNESS = 'out/harness/cli.cjs';

export interface RunningCli {
  origin: string;
  child: ChildProcess;
  token: string;
}

/** Every harness started, so a failed assertion never leaves one running (and vitest waiting). */
export const startedHarnesses = new Set<ChildProcess>();

/** Builds the harness bundle when a lone test run finds none (`npm test` builds it before the tests). */
export function ensureBuiltHarness(): void {
  if (existsSync(BUILT_HARNESS)) return;
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.harness.config.ts', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
}

/** Starts the built harness with plain `node`; resolves once it prints its address. */
export async function startBuiltHarness(options: {
  dataDir: string;
  keychainService: string;
  token: string;
}): Promise<RunningCli> {
  const child = spawn(
    process.execPath,
    [
      BUILT_HARNESS,
      '--port',
      '0',
      '--data-dir',
      options.dataDir,
      '--keychain-service',
      options.keychainService,
      '--token',
      options.token,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  startedHarnesses.add(child);
  child.once('exit', () => startedHarnesses.delete(child));
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /FieldDesk harness: (http:\/\/[^/]+\/)\?token=/.exec(line)?.[1];
    if (url !== undefined) return { origin: url, child, token: options.token };
  }
  throw new Error('the built harness did not start');
}

export async function stopBuiltHarness(cli: RunningCli): Promise<void> {
  const exited = new Promise((resolve) => cli.child.once('exit', resolve));
  cli.child.kill('SIGTERM');
  await exited;
}

/** One request of the contract, as the page sends it; the envelope it answers. */
export async function invokeBuilt<T>(
  cli: RunningCli,
  channel: string,
  arg: unknown,
): Promise<{ ok: boolean; value: T; error?: { code: string; message: string } }> {
  const response = await fetch(`${cli.origin}api/invoke/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${cli.token}` },
    body: JSON.stringify(arg),
  });
  return (await response.json()) as { ok: boolean; value: T };
}
