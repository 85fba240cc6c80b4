/**
 * Starts the browser harness:
 *   npm run harness -- --port 5180 --data-dir DIR [--static out/web] [--keychain-service NAME]
 *                      [--token T] [--demo-time-scale 0.05]
 * Without --data-dir a fresh temporary folder is used (a clean first run every time). Without
 * --token a random one is made; either way it is printed in the URL, and every API call must send
 * it as `Authorization: Bearer T`. --demo-time-scale multiplies the demo service's simulated
 * durations (0.05: a calibration in ~2 s). The keychain name defaults to FieldDesk-dev.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startHarness } from './server';

const USAGE =
  'Usage: npm run harness -- [--port 5180] [--data-dir DIR] [--static out/web] [--keychain-service NAME] [--token T] [--demo-time-scale 1]';

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '5180' },
        'data-dir': { type: 'string' },
        static: { type: 'string' },
        'keychain-service': { type: 'string' },
        token: { type: 'string' },
        'demo-time-scale': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535.\n${USAGE}`);
    process.exit(2);
  }
  const timeScaleText = values['demo-time-scale'];
  const timeScale = timeScaleText === undefined ? undefined : Number(timeScaleText);
  if (timeScale !== undefined && !(Number.isFinite(timeScale) && timeScale > 0)) {
    console.error(`--demo-time-scale must be a number greater than 0, such as 0.05.\n${USAGE}`);
    process.exit(2);
  }
  const dataDir = values['data-dir']
    ? resolve(values['data-dir'])
    : mkdtempSync(join(tmpdir(), 'fielddesk-harness-'));

  const harness = await startHarness({
    port,
    dataDir,
    staticDir: resolve(values.static ?? 'out/web'),
    ...(values['keychain-service'] ? { keychainService: values['keychain-service'] } : {}),
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(timeScale === undefined ? {} : { demo: { timeScale } }),
  });
  console.log(`FieldDesk harness: ${harness.url}  (data: ${dataDir})`);

  const stop = (): void => {
    void harness.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
