/**
 * `npm run dev:web`: the harness (real backend + demo service) and a Vite dev server with hot
 * reload that proxies `/api` and `/audio-library` (recordings) to it. Data lives in ~/.fielddesk-dev
 * unless --data-dir is given.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { startHarness } from './server';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Vite's dev client injects CSS as <style> elements; the page's strict CSP would block them.
 * Relaxed for the dev server only — the built page keeps `style-src 'self'`.
 */
function devCspPlugin(): Plugin {
  return {
    name: 'fielddesk-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string', default: '5173' },
      'harness-port': { type: 'string', default: '0' },
      'keychain-service': { type: 'string' },
      token: { type: 'string' },
      'demo-time-scale': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(`npm run dev:web -- [options]

The UI with hot reload in your browser, against the real backend (in Node) and the demo service.

  --data-dir DIR          FieldDesk's data folder (default ~/.fielddesk-dev)
  --port N                the Vite dev server's port (default 5173)
  --harness-port N        the backend's port (default: any free one)
  --keychain-service NAME the keychain entry's service name (default FieldDesk-dev)
  --token T               the session token the address carries (default: a new one)
  --demo-time-scale X     shorten the demo's calibrations and checks (0.05: seconds)`);
    return;
  }
  // startHarness refuses a scale that is not a number greater than 0, with a message saying so.
  const timeScale = values['demo-time-scale'] === undefined ? 1 : Number(values['demo-time-scale']);
  const dataDir = resolve(values['data-dir'] ?? join(homedir(), '.fielddesk-dev'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const vitePort = Number(values.port);

  const harness = await startHarness({
    port: Number(values['harness-port']),
    dataDir,
    // Vite serves the UI in development; the harness's own copy is only a fallback.
    staticDir: resolve(REPO_ROOT, 'out/web'),
    ...(values['keychain-service'] ? { keychainService: values['keychain-service'] } : {}),
    ...(values.token === undefined ? {} : { token: values.token }),
    allowedOrigins: [`http://localhost:${vitePort}`, `http://127.0.0.1:${vitePort}`],
    demo: { timeScale },
  });

  const vite = await createServer({
    configFile: resolve(REPO_ROOT, 'vite.web.config.ts'),
    plugins: [devCspPlugin()],
    server: {
      host: '127.0.0.1',
      port: vitePort,
      strictPort: true, // The harness only accepts this origin.
      open: false,
      proxy: {
        '/api': { target: harness.origin, changeOrigin: true },
        '/audio-library': { target: harness.origin, changeOrigin: true },
      },
    },
  });
  await vite.listen();
  console.log(
    `FieldDesk (browser, hot reload): http://127.0.0.1:${vitePort}/web.html?token=${harness.token}`,
  );
  console.log(`Backend harness: ${harness.origin}  (data: ${dataDir})`);

  const stop = (): void => {
    void Promise.allSettled([vite.close(), harness.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
