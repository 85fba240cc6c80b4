/** The demo service on a real socket. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createDemo } from './app';
import { resolveDemoKeys } from './auth';
import { DEFAULT_HOST, DEMO_BASE_PATH, type DemoServiceOptions, type RunningDemoService } from './options';

export async function startDemoService(options: DemoServiceOptions = {}): Promise<RunningDemoService> {
  const host = options.host ?? DEFAULT_HOST;
  const requestedPort = options.port ?? 0;
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new RangeError(`The port must be an integer from 0 to 65535, not ${requestedPort}.`);
  }
  const { keys, defaultKey } = resolveDemoKeys(options.keys);
  const { app, actions, webhooks, audio, close: stopWebhooks } = createDemo(options);
  // Leave the process's global Request/Response alone: tests run the client in the same process.
  const server = createServer(getRequestListener(app.fetch, { overrideGlobalObjects: false }));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(requestedPort, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo; // listening on TCP, so an AddressInfo
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${urlHost}:${port}${DEMO_BASE_PATH}`,
    port,
    keys,
    defaultKey,
    actions,
    webhooks,
    audio,
    close() {
      closing ??= Promise.all([
        stopWebhooks(),
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive sockets would otherwise hold close() open until they time out.
          server.closeAllConnections();
        }),
      ]).then(() => undefined);
      return closing;
    },
  };
}
