/** Entry of `npm run demo-service`: starts the demo service and stops it on Ctrl+C / SIGTERM. */
import { SCOPES } from '../shared/service/scopes';
import { DemoCliError, parseDemoCliArgs } from './cli-args';
import { DEFAULT_RATE_LIMIT, DEFAULT_SEED } from './options';
import { startDemoService } from './server';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseDemoCliArgs(argv);
  } catch (error) {
    if (!(error instanceof DemoCliError)) throw error;
    console.error(`demo-service: ${error.message}\nRun with --help for the options.`);
    return 2;
  }
  if ('help' in parsed) {
    console.log(parsed.help);
    return 0;
  }
  // The e-mails the real service would send about failing webhooks.
  const service = await startDemoService({ ...parsed, log: (line) => console.warn(line) });
  const keyWidth = Math.max(...Object.keys(service.keys).map((key) => key.length));
  console.log(`FieldDesk demo service at ${service.baseUrl}`);
  console.log(
    `Fleet seed ${parsed.seed ?? DEFAULT_SEED}; rate limit ${parsed.rateLimit ?? DEFAULT_RATE_LIMIT} requests/s per key.`,
  );
  if (parsed.timeScale !== undefined && parsed.timeScale !== 1) {
    console.log(
      `Time scale ${parsed.timeScale}: Calibration and SIC take ${parsed.timeScale} × their usual time.`,
    );
  }
  if (parsed.faults !== undefined) {
    console.log(
      `Faults: ${Number((parsed.faults.rate * 100).toPrecision(3))}% of /v1/data requests fail on purpose (500s, drops, cut-off JSON, slow answers, 429 storms).`,
    );
  }
  console.log('API keys (send in the X-Api-Key header):');
  for (const [key, scopes] of Object.entries(service.keys)) {
    const described =
      scopes.length === SCOPES.length ? `every scope (${scopes.join(', ')})` : scopes.join(', ');
    const account = parsed.keyAccounts?.[key];
    console.log(
      `  ${key.padEnd(keyWidth)}  ${described || '(no scopes)'}${account === undefined ? '' : `; account ${account}`}`,
    );
  }
  if (parsed.allowLoopbackWebhooks) {
    console.log(
      'Webhooks: http:// addresses on this computer (127.0.0.1, localhost, [::1]) are accepted too.',
    );
  }
  if (parsed.webhookDelivery === 'loopbackOnly') {
    console.log('Webhooks: messages are delivered only to this computer; other deliveries fail unsent.');
  }
  const audio = parsed.audio;
  if (audio?.ranges === false) console.log('Audio: byte ranges are ignored; every download is sent whole.');
  if (audio?.cutAfterBytes !== undefined) {
    console.log(
      `Audio: ${audio.cutOnce ? 'the first download of each recording and format is' : 'downloads are'} cut after ${audio.cutAfterBytes} bytes.`,
    );
  }
  if (audio?.longRecordingBytes !== undefined) {
    console.log(
      `Audio: a long recording (WAV of at least ${audio.longRecordingBytes} bytes) is listed for the first instrument with the Audio add-on.`,
    );
  }
  if (parsed.host !== undefined && !LOOPBACK.test(parsed.host)) {
    console.warn(`Warning: listening on ${parsed.host} lets other computers reach the demo service.`);
  }
  console.log('Press Ctrl+C to stop.');

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      console.log(`\n${signal}: stopping the demo service.`);
      void service.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`demo-service: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
