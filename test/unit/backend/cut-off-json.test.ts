/**
 * An answer cut off on the way is recognised as cut off wherever the cut falls (and asked again),
 * never called "not valid JSON": real answers of the demo service cut at every byte and at random
 * ones, arbitrary JSON cut anywhere, and a client that keeps getting cut answers until one is whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeAnswer, parseJson, UnreadableAnswer } from '../../../src/main/backend/service/answers';
import { isJsonPrefix } from '../../../src/main/backend/service/json-text';
import { createServiceClient } from '../../../src/main/backend/service/client';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { formatServiceTime } from '../../../src/shared/service/time';
import { sendJson, startTestServer, type TestServer } from './helpers';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 20, 12);

let service: RunningDemoService;
let apiKey: string;

beforeAll(async () => {
  service = await startDemoService({ port: 0, rateLimit: 100_000, now: () => NOW });
  apiKey = service.defaultKey as string;
});
afterAll(() => service.close());

/** A real answer of the demo service, as the text it sent. */
async function demoAnswer(path: string, query: Record<string, string> = {}): Promise<string> {
  const url = new URL(`${service.baseUrl}${path}`);
  url.search = new URLSearchParams(query).toString();
  const response = await fetch(url, { headers: { 'X-Api-Key': apiKey } });
  expect(response.status).toBe(200);
  return response.text();
}

/** What `parseJson` makes of a text: the value, or its error. */
function outcome(text: string): { value: unknown } | { error: unknown } {
  try {
    return { value: parseJson(text, 'a test answer') };
  } catch (error) {
    return { error };
  }
}

function expectCutOff(text: string): void {
  const result = outcome(text);
  if ('value' in result) throw new Error(`a cut answer parsed: ${text.slice(-40)}`);
  expect(result.error).toBeInstanceOf(UnreadableAnswer);
  const error = result.error as UnreadableAnswer;
  expect(error.cutOff, `cut at ${text.length}: …${text.slice(-30)}`).toBe(true);
  expect(error.retryable).toBe(true);
  expect(error.message).toMatch(/cut off before the end/);
}

/** The error `run` throws, as an UnreadableAnswer (failing the test when it throws none or another). */
function catchOf(run: () => unknown): UnreadableAnswer {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableAnswer);
    return error as UnreadableAnswer;
  }
  throw new Error('expected an unreadable answer');
}

describe('cut-off JSON', () => {
  it('a body cut inside a character is cut off (asked again); a wrong byte inside the text stays garbled', () => {
    const bytes = Buffer.from('[{"name":"Mill Lane – north"}]');
    const dash = bytes.indexOf(Buffer.from('–'));
    // The dash is three bytes (E2 80 93): cut after the first or the second of them.
    for (const cut of [dash + 1, dash + 2]) {
      const error = catchOf(() => decodeAnswer(bytes.subarray(0, cut), 'the list'));
      expect(error).toMatchObject({ cutOff: true, retryable: true });
      expect(error.message).toBe(
        "The service's answer was cut off before the end (expected the list). Try again.",
      );
    }
    const garbled = Buffer.from(bytes);
    garbled[dash + 1] = 0x41;
    expect(catchOf(() => decodeAnswer(garbled, 'the list'))).toMatchObject({ cutOff: false });
    // A last byte that no UTF-8 character starts with is garbling, not a cut.
    expect(catchOf(() => decodeAnswer(Buffer.from([0x5b, 0xff]), 'the list'))).toMatchObject({
      cutOff: false,
    });
  });

  it('a real answer (the instrument list) cut at every byte is cut off, never "not valid JSON"', async () => {
    const whole = await demoAnswer('/control/instruments');
    expect(whole.length).toBeGreaterThan(1000);
    for (let cut = 1; cut < whole.length; cut++) expectCutOff(whole.slice(0, cut));
  });

  it('a real data answer (a day of weather, 1 min) cut at random bytes is cut off', async () => {
    const serial = (JSON.parse(await demoAnswer('/control/instruments')) as Array<Record<string, unknown>>)
      .map((i) => ({ serial: String(i.serialNumber), feature: i.feature as string[] }))
      .find((i) => i.feature.includes('Weather'))!.serial;
    const whole = await demoAnswer('/data/weather', {
      instruments: serial,
      start: formatServiceTime(NOW - 2 * DAY),
      end: formatServiceTime(NOW - DAY),
    });
    expect(whole.length).toBeGreaterThan(100_000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: whole.length - 1 }), (cut) => {
        expectCutOff(whole.slice(0, cut));
      }),
      { numRuns: 300 },
    );
  });

  it('any JSON list or object, printed compactly or indented, cut anywhere, is cut off', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => typeof v === 'object' && v !== null),
        fc.constantFrom(undefined, 2, '\t'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (value, indent, where) => {
          const whole = JSON.stringify(value, null, indent);
          const cut = 1 + Math.floor(where * (whole.length - 1));
          fc.pre(cut < whole.length);
          const prefix = whole.slice(0, cut);
          // Whitespace alone is an empty answer, said as such.
          fc.pre(prefix.trim() !== '');
          expectCutOff(prefix);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['[1, 2,, 3]'],
    ['{"a" 1}'],
    ['[01]'],
    ['[1]]'],
    ['[1,]'],
    ['{"a":1,}'],
    ['[nul1]'],
    ['["tab\there"]'],
    ['["bad \\x escape"]'],
    ['[1] [2]'],
  ])('%s is not valid JSON, and not taken for a cut-off one', (text) => {
    expect(isJsonPrefix(text)).toBe(false);
    const result = outcome(text);
    expect('error' in result && result.error).toBeInstanceOf(UnreadableAnswer);
    const error = (result as { error: UnreadableAnswer }).error;
    expect(error.cutOff).toBe(false);
    expect(error.message).toMatch(/not valid JSON/);
  });
});

describe('a client getting cut-off answers', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('asks again after every cut, wherever it falls, until the answer is whole', async () => {
    const whole = await demoAnswer('/control/instruments');
    const bytes = Buffer.from(whole);
    let cuts: number[] = [];
    const server = await startTestServer((_req, res) => {
      const cut = cuts.shift();
      if (cut === undefined) return sendJson(res, 200, JSON.parse(whole));
      // The whole body promised, a part sent, the connection closed: what a dropped link leaves.
      res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'close' });
      res.end(bytes.subarray(0, cut));
    });
    servers.push(server);
    const client = createServiceClient({
      baseUrl: server.baseUrl,
      apiKey,
      timeoutMs: 5_000,
      retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 100 },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(
          fc.integer({ min: 1, max: bytes.length - 1 }),
          fc.integer({ min: 1, max: bytes.length - 1 }),
        ),
        async (twoCuts) => {
          cuts = [...twoCuts];
          const before = server.requests.length;
          const fleet = await client.listInstruments();
          expect(fleet.length).toBeGreaterThan(5);
          // Two cut answers and the whole one: each cut was asked again.
          expect(server.requests.length - before).toBe(3);
        },
      ),
      { numRuns: 60 },
    );
  });
});
