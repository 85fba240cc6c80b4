import { describe, expect, it } from 'vitest';
import { DemoCliError, parseDemoCliArgs } from '../../../src/simulator';
import { SCOPES } from '../../../src/shared/service/scopes';

function parseError(argv: string[]): DemoCliError {
  try {
    parseDemoCliArgs(argv);
  } catch (error) {
    if (error instanceof DemoCliError) return error;
    throw error;
  }
  throw new Error(`parseDemoCliArgs accepted ${argv.join(' ')}`);
}

describe('parseDemoCliArgs', () => {
  it('gives empty options (all defaults) without arguments', () => {
    expect(parseDemoCliArgs([])).toEqual({});
  });

  it('reads port, host, keys, rate limit and seed', () => {
    expect(
      parseDemoCliArgs([
        '--port',
        '8787',
        '--key',
        'reader=instruments:read, data.noise:read',
        '--key',
        'admin=*',
        '--rate-limit',
        '20',
        '--seed',
        '7',
        '--host',
        '127.0.0.1',
      ]),
    ).toEqual({
      port: 8787,
      host: '127.0.0.1',
      keys: { reader: ['instruments:read', 'data.noise:read'], admin: '*' },
      rateLimit: 20,
      seed: 7,
    });
  });

  it('accepts --flag=value and a key value that itself ends in =', () => {
    expect(parseDemoCliArgs(['--port=0', '--key=YWJj==webhooks:read'])).toEqual({
      port: 0,
      keys: { 'YWJj=': ['webhooks:read'] },
    });
  });

  it('keeps a key named like an Object.prototype member as an ordinary key', () => {
    const options = parseDemoCliArgs(['--key', '__proto__=*', '--key', 'constructor=webhooks:read']);
    expect(options).toHaveProperty('keys');
    const keys = 'keys' in options ? options.keys : undefined;
    expect(Object.keys(keys ?? {})).toEqual(['__proto__', 'constructor']);
  });

  it('refuses unknown scopes, naming them and listing the valid ones', () => {
    const error = parseError(['--key', 'k=instruments:read,instruments:reed,data:all']);
    // Only the unknown ones are named as unknown.
    expect(error.message).toContain('in --key k: instruments:reed, data:all. Valid scopes:');
    for (const scope of SCOPES) expect(error.message).toContain(scope);
  });

  it.each([
    [['--key', 'nameonly'], /NAME=SCOPE/],
    [['--key', '=instruments:read'], /NAME=SCOPE/],
    [['--key', 'k='], /NAME=SCOPE/],
    [['--key', 'k=instruments:read,,webhooks:read'], /empty scope/],
    [['--key', 'a=*', '--key', 'a=webhooks:read'], /twice/],
  ])('refuses the key spec %j', (argv, message) => {
    expect(parseError(argv).message).toMatch(message);
  });

  // `--port=-1`: with a space, parseArgs itself refuses a value starting with a dash.
  it.each([['abc'], ['70000'], ['-1'], ['80.5'], ['']])('refuses --port %j', (port) => {
    expect(parseError([`--port=${port}`]).message).toMatch(/--port must be a whole number from 0 to 65535/);
  });

  it('refuses an option whose value is missing', () => {
    expect(parseError(['--port']).message).toMatch(/--port/);
    expect(parseError(['--port', '-1']).message).toMatch(/--port/);
  });

  it.each([['0'], ['-5'], ['fast'], ['1e999']])('refuses --rate-limit %j', (rate) => {
    expect(parseError([`--rate-limit=${rate}`]).message).toMatch(
      /--rate-limit must be a number greater than 0/,
    );
  });

  it('accepts a fractional rate limit and refuses a fractional seed', () => {
    expect(parseDemoCliArgs(['--rate-limit', '0.5'])).toEqual({ rateLimit: 0.5 });
    expect(parseError(['--seed', '1.5']).message).toMatch(/--seed/);
  });

  it('refuses unknown options and positional arguments', () => {
    expect(parseError(['--prot', '8787']).message).toMatch(/--prot/);
    expect(parseError(['8787']).message.length).toBeGreaterThan(0);
  });

  it('returns the usage for --help and -h', () => {
    for (const flag of ['--help', '-h']) {
      const result = parseDemoCliArgs([flag]);
      expect(result).toHaveProperty('help');
      const help = 'help' in result ? result.help : '';
      expect(help).toMatch(/^Usage: npm run demo-service/);
      expect(help).toContain('--rate-limit');
      expect(help).toContain('demo-key-all-scopes');
    }
  });
});

describe('parseDemoCliArgs --time-scale', () => {
  it('reads a positive time scale, whole or fractional', () => {
    expect(parseDemoCliArgs(['--time-scale', '0.01'])).toEqual({ timeScale: 0.01 });
    expect(parseDemoCliArgs(['--time-scale=2'])).toEqual({ timeScale: 2 });
  });

  it.each([['0'], ['-1'], ['0.0'], ['fast'], [''], ['1e999']])('refuses --time-scale %j', (scale) => {
    expect(parseError([`--time-scale=${scale}`]).message).toMatch(
      /--time-scale must be a number greater than 0/,
    );
  });

  it('is described in the usage', () => {
    const result = parseDemoCliArgs(['--help']);
    expect('help' in result ? result.help : '').toMatch(/--time-scale X +Multiply simulated durations/);
  });
});

describe('parseDemoCliArgs --faults', () => {
  it('reads a share of data requests to fail, up to and including 1', () => {
    expect(parseDemoCliArgs(['--faults', '0.3'])).toEqual({ faults: { rate: 0.3 } });
    expect(parseDemoCliArgs(['--faults=1', '--seed', '9'])).toEqual({ faults: { rate: 1 }, seed: 9 });
  });

  it.each([['0'], ['1.5'], ['abc'], ['-0.5'], [''], ['1e-1']])('refuses --faults %j', (rate) => {
    expect(parseError([`--faults=${rate}`]).message).toBe(
      `--faults must be a number greater than 0 and at most 1 (the share of data requests that fail), not "${rate}".`,
    );
  });

  it('is described in the usage', () => {
    const result = parseDemoCliArgs(['--help']);
    expect('help' in result ? result.help : '').toMatch(
      /--faults RATE +Answer a share RATE \(0 < RATE ≤ 1\)/,
    );
  });
});

describe('parseDemoCliArgs --fleet-size', () => {
  it('reads a whole number of instruments and refuses anything else', () => {
    expect(parseDemoCliArgs(['--fleet-size', '5000'])).toEqual({ fleetSize: 5000 });
    for (const bad of ['0', '1.5', 'many', '100001']) {
      expect(parseError(['--fleet-size', bad]).message).toMatch(/--fleet-size/);
    }
  });
});

describe('parseDemoCliArgs webhook flags', () => {
  it('reads --key-account for keys given with --key, or for the default key', () => {
    expect(
      parseDemoCliArgs([
        '--key',
        'alice=*',
        '--key',
        'YWJj==webhooks:read',
        '--key-account',
        'alice=site-a',
        '--key-account=YWJj==site-a',
      ]),
    ).toEqual({
      keys: { alice: '*', 'YWJj=': ['webhooks:read'] },
      keyAccounts: { alice: 'site-a', 'YWJj=': 'site-a' },
    });
    expect(parseDemoCliArgs(['--key-account', 'demo-key-all-scopes=me'])).toEqual({
      keyAccounts: { 'demo-key-all-scopes': 'me' },
    });
  });

  it.each([
    [['--key-account', 'alice'], /KEY=ACCOUNT/],
    [['--key-account', 'alice='], /KEY=ACCOUNT/],
    [['--key-account', '=site'], /KEY=ACCOUNT/],
    [
      ['--key', 'alice=*', '--key-account', 'bob=site'],
      /key "bob", which the service does not accept; the keys are alice/,
    ],
    [['--key-account', 'alice=site'], /the keys are demo-key-all-scopes/],
    [['--key', 'a=*', '--key-account', 'a=x', '--key-account', 'a=y'], /gives the key "a" twice/],
  ])('refuses the account spec %j', (argv, message) => {
    expect(parseError(argv).message).toMatch(message);
  });

  it('reads --allow-loopback-webhooks and --webhook-delivery', () => {
    expect(parseDemoCliArgs(['--allow-loopback-webhooks'])).toEqual({ allowLoopbackWebhooks: true });
    expect(parseDemoCliArgs(['--webhook-delivery', 'loopbackOnly'])).toEqual({
      webhookDelivery: 'loopbackOnly',
    });
    expect(parseDemoCliArgs(['--webhook-delivery=any'])).toEqual({ webhookDelivery: 'any' });
    expect(parseError(['--webhook-delivery', 'nowhere']).message).toBe(
      '--webhook-delivery must be any or loopbackOnly, not "nowhere".',
    );
    expect(parseError(['--allow-loopback-webhooks=yes']).message).toMatch(/allow-loopback-webhooks/);
  });

  it('describes the flags in the usage', () => {
    const result = parseDemoCliArgs(['--help']);
    const help = 'help' in result ? result.help : '';
    expect(help).toMatch(/--key-account KEY=ACCOUNT\n/);
    expect(help).toMatch(
      /--allow-loopback-webhooks\n +Also accept webhook addresses http:\/\/127\.0\.0\.1:PORT/,
    );
    expect(help).toMatch(/--webhook-delivery MODE\n +any: deliver/);
  });
});

describe('parseDemoCliArgs audio flags', () => {
  it('reads ranges off, a cut (once) and a long recording, sizes with k, M or G', () => {
    expect(parseDemoCliArgs([])).toEqual({});
    expect(parseDemoCliArgs(['--audio-no-ranges'])).toEqual({ audio: { ranges: false } });
    expect(parseDemoCliArgs(['--audio-cut-after', '5000'])).toEqual({ audio: { cutAfterBytes: 5000 } });
    expect(parseDemoCliArgs(['--audio-cut-after=64k', '--audio-cut-once'])).toEqual({
      audio: { cutAfterBytes: 64_000, cutOnce: true },
    });
    expect(parseDemoCliArgs(['--audio-long-recording', '200M'])).toEqual({
      audio: { longRecordingBytes: 200_000_000 },
    });
    expect(parseDemoCliArgs(['--audio-long-recording', '2GB'])).toEqual({
      audio: { longRecordingBytes: 2_000_000_000 },
    });
  });

  it.each([
    [['--audio-cut-after=-1'], /--audio-cut-after must be a size/],
    [['--audio-cut-after', '1.5M'], /--audio-cut-after must be a size/],
    [['--audio-cut-once'], /--audio-cut-once needs --audio-cut-after/],
    [['--audio-long-recording', '0'], /--audio-long-recording must be a size from 1 to/],
    [['--audio-long-recording', '5G'], /--audio-long-recording must be a size from 1 to 4294944044 bytes/],
    [['--audio-no-ranges=yes'], /audio-no-ranges/],
  ])('refuses %j', (argv, message) => {
    expect(parseError(argv).message).toMatch(message);
  });

  it('describes the flags in the usage', () => {
    const result = parseDemoCliArgs(['--help']);
    const help = 'help' in result ? result.help : '';
    expect(help).toMatch(/--audio-no-ranges +Answer audio downloads without byte ranges/);
    expect(help).toMatch(/--audio-cut-after SIZE\n +Close the connection after SIZE bytes/);
    expect(help).toMatch(/--audio-cut-once +With --audio-cut-after/);
    expect(help).toMatch(/--audio-long-recording SIZE\n +Add one long recording/);
  });
});
