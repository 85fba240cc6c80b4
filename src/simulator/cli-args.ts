/** Command-line arguments of `npm run demo-service`, parsed without side effects (tested directly). */
import { parseArgs } from 'node:util';
import { SCOPES, isScope, type Scope } from '../shared/service/scopes';
import { MAX_LONG_RECORDING_BYTES } from './audio/recordings';
import { isUsableKeyValue } from './auth';
import {
  DEFAULT_DEMO_KEY,
  DEFAULT_HOST,
  DEFAULT_RATE_LIMIT,
  DEFAULT_FLEET_SIZE,
  DEFAULT_SEED,
  MAX_FLEET_SIZE,
  WEBHOOK_DELIVERY_MODES,
  type DemoAudioOptions,
  type DemoServiceOptions,
  type WebhookDeliveryMode,
} from './options';

export const DEMO_CLI_USAGE = `Usage: npm run demo-service -- [options]

Runs the FieldDesk demo service: the service interface at /v1 with a generated fleet.

Options:
  --port N              Port to listen on (default 0: a random free port)
  --host HOST           Interface to listen on (default ${DEFAULT_HOST}, this computer only)
  --key NAME=SCOPES     Accept API key NAME with the comma-separated SCOPES, or * for every
                        scope. Repeat for several keys. Without --key, the key
                        ${DEFAULT_DEMO_KEY} is accepted with every scope.
  --rate-limit N        Requests per second per key, burst of N (default ${DEFAULT_RATE_LIMIT})
  --seed N              Seed of the demo fleet (default ${DEFAULT_SEED}); same seed, same fleet
  --time-scale X        Multiply simulated durations (Calibration 30–45 s, SIC 20–30 s) by X > 0,
                        e.g. 0.01 for fast tests (default 1)
  --fleet-size N        Instruments in the demo fleet, 1 to ${MAX_FLEET_SIZE} (default ${DEFAULT_FLEET_SIZE});
                        the first ten are always the same fleet for the same seed
  --faults RATE         Answer a share RATE (0 < RATE ≤ 1) of /v1/data requests with a fault,
                        in turn: HTTP 500, dropped connection, cut-off JSON, slow answer, 429
                        storm. Same --seed, same faults (default: no faults)
  --key-account KEY=ACCOUNT
                        Key KEY belongs to account ACCOUNT: keys of one account share their
                        webhooks, other accounts never see them. Repeat for several keys
                        (default: every key is an account of its own)
  --allow-loopback-webhooks
                        Also accept webhook addresses http://127.0.0.1:PORT/…,
                        http://localhost:PORT/… and http://[::1]:PORT/… (default: https only)
  --webhook-delivery MODE
                        any: deliver webhook messages to their address (default);
                        loopbackOnly: only to this computer, and record every other delivery
                        as a failed attempt without sending it
  --audio-no-ranges     Answer audio downloads without byte ranges: Range is ignored, every
                        answer is 200 with the whole file and no Accept-Ranges
  --audio-cut-after SIZE
                        Close the connection after SIZE bytes of every audio answer that is
                        longer, as an interrupted download (SIZE in bytes, or with k, M or G
                        for 1000, 1000² or 1000³)
  --audio-cut-once      With --audio-cut-after: cut only the first answer for each recording
                        and format; a resume or retry gets the rest
  --audio-long-recording SIZE
                        Add one long recording whose WAV is at least SIZE (e.g. 200M), on the
                        first instrument with the Audio add-on, ending at the start of this
                        hour: for download benchmarks
  -h, --help            Show this help

Scopes: ${SCOPES.join(', ')}

Webhooks are delivered as the interface describes (5 s time-out, 5 retries, removed after 3
failed deliveries in a row); the e-mails the real service would send to the owner are printed.

Example:
  npm run demo-service -- --port 8787 --key reader=instruments:read --key admin=*
  npm run demo-service -- --audio-long-recording 200M --audio-cut-after 5M --audio-cut-once
  npm run demo-service -- --key alice=* --key bob=* --key-account alice=site-a --key-account bob=site-b`;

/** A mistake in the command line, with a message meant for the person who typed it. */
export class DemoCliError extends Error {
  override name = 'DemoCliError';
}

function parseInteger(flag: string, text: string, min: number, max: number): number {
  const value = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new DemoCliError(`${flag} must be a whole number from ${min} to ${max}, not "${text}".`);
  }
  return value;
}

/** A plain decimal such as 2, 0.5 or .5; NaN for anything else (1e3, 0x10, Infinity, ''). */
function parseDecimal(text: string): number {
  return /^\+?(\d+(\.\d*)?|\.\d+)$/.test(text.trim()) ? Number(text) : Number.NaN;
}

function parsePositiveNumber(flag: string, text: string): number {
  const value = parseDecimal(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new DemoCliError(`${flag} must be a number greater than 0, not "${text}".`);
  }
  return value;
}

function parseFaultRate(text: string): number {
  const value = parseDecimal(text);
  // Also refuses NaN: every comparison with NaN is false.
  if (!(value > 0 && value <= 1)) {
    throw new DemoCliError(
      `--faults must be a number greater than 0 and at most 1 (the share of data requests that fail), not "${text}".`,
    );
  }
  return value;
}

/** `NAME=SCOPE,SCOPE` or `NAME=*`. Split at the last `=`: key values may end in `=` (base64). */
function parseKey(spec: string): [string, readonly Scope[] | '*'] {
  const split = spec.lastIndexOf('=');
  const name = split > 0 ? spec.slice(0, split) : '';
  const scopeText = split > 0 ? spec.slice(split + 1).trim() : '';
  if (name === '' || scopeText === '') {
    throw new DemoCliError(`--key must look like NAME=SCOPE,SCOPE or NAME=*, not "${spec}".`);
  }
  if (!isUsableKeyValue(name)) {
    throw new DemoCliError(
      `The key "${name}" must be printable ASCII without spaces (it is sent in a header).`,
    );
  }
  if (scopeText === '*') return [name, '*'];
  const names = scopeText.split(',').map((scope) => scope.trim());
  if (names.some((scope) => scope === '')) {
    throw new DemoCliError(`--key ${spec} has an empty scope name; separate scopes with single commas.`);
  }
  const unknown = names.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    throw new DemoCliError(
      `Unknown scope${unknown.length > 1 ? 's' : ''} in --key ${name}: ${unknown.join(', ')}. ` +
        `Valid scopes: ${SCOPES.join(', ')}, or * for every scope.`,
    );
  }
  return [name, [...new Set(names.filter(isScope))]];
}

/** `KEY=ACCOUNT`, split at the last `=` as --key is (key values may end in `=`). */
function parseKeyAccount(spec: string, acceptedKeys: readonly string[]): [string, string] {
  const split = spec.lastIndexOf('=');
  const key = split > 0 ? spec.slice(0, split) : '';
  const account = split > 0 ? spec.slice(split + 1).trim() : '';
  if (key === '' || account === '') {
    throw new DemoCliError(`--key-account must look like KEY=ACCOUNT, not "${spec}".`);
  }
  if (!acceptedKeys.includes(key)) {
    throw new DemoCliError(
      `--key-account ${spec} names the key "${key}", which the service does not accept; ` +
        `the keys are ${acceptedKeys.join(', ')}.`,
    );
  }
  return [key, account];
}

/** A size in bytes: a whole number, optionally with k, M or G (× 1000, 1000², 1000³) and B. */
function parseBytes(flag: string, text: string, min: number, max: number): number {
  const match = /^\s*(\d+)\s*([kMG]?)B?\s*$/i.exec(text);
  const power = { '': 0, k: 1, m: 2, g: 3 }[(match?.[2] ?? '').toLowerCase()] ?? 0;
  const value = match ? Number(match[1]) * 1000 ** power : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new DemoCliError(
      `${flag} must be a size from ${min} to ${max} bytes, such as 5000, 64k or 200M; not "${text}".`,
    );
  }
  return value;
}

function parseDeliveryMode(text: string): WebhookDeliveryMode {
  const mode = WEBHOOK_DELIVERY_MODES.find((m) => m.toLowerCase() === text.trim().toLowerCase());
  if (mode === undefined) {
    throw new DemoCliError(
      `--webhook-delivery must be ${WEBHOOK_DELIVERY_MODES.join(' or ')}, not "${text}".`,
    );
  }
  return mode;
}

/**
 * Parses the CLI arguments (without `node` and the script). Returns the service options, or
 * `{ help }` when help was asked for; throws `DemoCliError` with a readable message on a mistake.
 */
export function parseDemoCliArgs(argv: string[]): DemoServiceOptions | { help: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        key: { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        seed: { type: 'string' },
        'time-scale': { type: 'string' },
        faults: { type: 'string' },
        'fleet-size': { type: 'string' },
        'key-account': { type: 'string', multiple: true },
        'allow-loopback-webhooks': { type: 'boolean' },
        'webhook-delivery': { type: 'string' },
        'audio-no-ranges': { type: 'boolean' },
        'audio-cut-after': { type: 'string' },
        'audio-cut-once': { type: 'boolean' },
        'audio-long-recording': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // parseArgs explains unknown options and missing values well; keep its words.
    throw new DemoCliError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help) return { help: DEMO_CLI_USAGE };

  const options: DemoServiceOptions = {};
  if (values.port !== undefined) options.port = parseInteger('--port', values.port, 0, 65535);
  if (values.host !== undefined) {
    if (values.host.trim() === '') throw new DemoCliError('--host must not be empty.');
    options.host = values.host.trim();
  }
  if (values['rate-limit'] !== undefined) {
    options.rateLimit = parsePositiveNumber('--rate-limit', values['rate-limit']);
  }
  if (values.seed !== undefined) {
    options.seed = parseInteger('--seed', values.seed, 0, 0xffffffff);
  }
  if (values['time-scale'] !== undefined) {
    options.timeScale = parsePositiveNumber('--time-scale', values['time-scale']);
  }
  if (values.faults !== undefined) options.faults = { rate: parseFaultRate(values.faults) };
  if (values['fleet-size'] !== undefined) {
    options.fleetSize = parseInteger('--fleet-size', values['fleet-size'], 1, MAX_FLEET_SIZE);
  }
  if (values.key !== undefined) {
    // A Map, then fromEntries: a key named like an Object.prototype member stays an ordinary key.
    const keys = new Map<string, readonly Scope[] | '*'>();
    for (const spec of values.key) {
      const [name, scopes] = parseKey(spec);
      if (keys.has(name)) throw new DemoCliError(`The key "${name}" is given twice.`);
      keys.set(name, scopes);
    }
    options.keys = Object.fromEntries(keys);
  }
  if (values['key-account'] !== undefined) {
    const acceptedKeys = Object.keys(options.keys ?? { [DEFAULT_DEMO_KEY]: '*' });
    const accounts = new Map<string, string>();
    for (const spec of values['key-account']) {
      const [key, account] = parseKeyAccount(spec, acceptedKeys);
      if (accounts.has(key)) throw new DemoCliError(`--key-account gives the key "${key}" twice.`);
      accounts.set(key, account);
    }
    options.keyAccounts = Object.fromEntries(accounts);
  }
  if (values['allow-loopback-webhooks']) options.allowLoopbackWebhooks = true;
  if (values['webhook-delivery'] !== undefined) {
    options.webhookDelivery = parseDeliveryMode(values['webhook-delivery']);
  }
  const audio: DemoAudioOptions = {};
  if (values['audio-no-ranges']) audio.ranges = false;
  if (values['audio-cut-after'] !== undefined) {
    audio.cutAfterBytes = parseBytes(
      '--audio-cut-after',
      values['audio-cut-after'],
      0,
      Number.MAX_SAFE_INTEGER,
    );
  }
  if (values['audio-cut-once']) {
    if (audio.cutAfterBytes === undefined) {
      throw new DemoCliError('--audio-cut-once needs --audio-cut-after SIZE: it says which answers to cut.');
    }
    audio.cutOnce = true;
  }
  if (values['audio-long-recording'] !== undefined) {
    audio.longRecordingBytes = parseBytes(
      '--audio-long-recording',
      values['audio-long-recording'],
      1,
      MAX_LONG_RECORDING_BYTES,
    );
  }
  if (Object.keys(audio).length > 0) options.audio = audio;
  return options;
}
