/** Fault injection of the demo service, over real HTTP: what the client sees of every kind of fault. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDemoApp,
  createFaultPlan,
  DEFAULT_DEMO_KEY,
  FAULT_KINDS,
  RATE_LIMIT_STORM_LENGTH,
  SLOW_ANSWER_MS,
  startDemoService,
  type DemoServiceOptions,
  type FaultKind,
  type RunningDemoService,
} from '../../../src/simulator';
import type { WireErrorBody, WireInstrument } from '../../../src/shared/service/wire';

/** Sunday 1 June 2025, 12:00 UTC: a fixed clock, so two services answer the same data. */
const NOW = Date.UTC(2025, 5, 1, 12);
/** Slow answers then take a quarter of `SLOW_ANSWER_MS`. */
const TIME_SCALE = 0.25;
const SLOW_MS = SLOW_ANSWER_MS * TIME_SCALE;
const HEADERS = { 'X-Api-Key': DEFAULT_DEMO_KEY };

const running: RunningDemoService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

async function start(options: DemoServiceOptions = {}): Promise<RunningDemoService> {
  const service = await startDemoService({ now: () => NOW, timeScale: TIME_SCALE, ...options });
  running.push(service);
  return service;
}

type Outcome =
  | { dropped: true; error: unknown }
  | {
      dropped: false;
      status: number;
      contentType: string | null;
      retryAfter: string | null;
      text: string;
      /** Whether the body is a whole JSON document. */
      parses: boolean;
      ms: number;
    };

async function get(service: RunningDemoService, path: string): Promise<Outcome> {
  const startedAt = performance.now();
  try {
    const response = await fetch(`${service.baseUrl}${path}`, { headers: HEADERS });
    const text = await response.text();
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false;
    }
    return {
      dropped: false,
      status: response.status,
      contentType: response.headers.get('content-type'),
      retryAfter: response.headers.get('retry-after'),
      text,
      parses,
      ms: performance.now() - startedAt,
    };
  } catch (error) {
    return { dropped: true, error };
  }
}

async function listInstruments(service: RunningDemoService): Promise<WireInstrument[]> {
  const response = await fetch(`${service.baseUrl}/control/instruments`, { headers: HEADERS });
  expect(response.status).toBe(200);
  return (await response.json()) as WireInstrument[];
}

/** The path of one hour of noise measurements of a noise instrument of the fleet. */
async function dataPath(service: RunningDemoService): Promise<string> {
  const noise = (await listInstruments(service)).find((instrument) => instrument.type === 'Noise');
  if (noise === undefined) throw new Error('the demo fleet has no noise instrument');
  return `/data/noise/measurements?instruments=${noise.serialNumber}&start=2025-05-28T00:00:00Z&end=2025-05-28T01:00:00Z`;
}

/** `count` data requests one after the other, so the service sees them in a known order. */
async function getInTurn(service: RunningDemoService, path: string, count: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < count; i++) outcomes.push(await get(service, path));
  return outcomes;
}

/** What a client can tell apart without a clock: slow and normal answers both look like 'ok'. */
const signature = (outcome: Outcome): string =>
  outcome.dropped ? 'dropped' : outcome.parses ? String(outcome.status) : `${outcome.status} cut off`;

const planned = (rate: number, seed: number, count: number): (FaultKind | null)[] => {
  const next = createFaultPlan(rate, seed);
  return Array.from({ length: count }, () => next());
};

describe('fault injection (faults: { rate, seed })', () => {
  it('at rate 1 faults every data request, and every kind occurs as a client sees it', async () => {
    const reference = await start();
    const path = await dataPath(reference);
    const real = await get(reference, path);
    if (real.dropped || real.status !== 200) throw new Error('the reference answer failed');

    const service = await start({ faults: { rate: 1, seed: 7 } });
    const outcomes = await getInTurn(service, path, 15);

    const seen = outcomes.map((outcome): FaultKind => {
      if (outcome.dropped) {
        // fetch rejects: the connection closed with no answer at all.
        expect(String(outcome.error)).toMatch(/fetch failed/);
        return 'droppedConnection';
      }
      if (outcome.status === 500) {
        const body = JSON.parse(outcome.text) as WireErrorBody;
        expect(body).toEqual({ error: 'InternalError', description: expect.any(String) as string });
        return 'serverError';
      }
      if (outcome.status === 429) {
        expect(outcome.retryAfter).toMatch(/^[01]$/);
        expect((JSON.parse(outcome.text) as WireErrorBody).error).toBe('TooManyRequests');
        return 'rateLimitStorm';
      }
      expect(outcome.status).toBe(200);
      expect(outcome.contentType).toMatch(/^application\/json/);
      if (!outcome.parses) {
        // The first half of the real answer, and nothing else.
        expect(outcome.text.length).toBe(Math.floor(real.text.length / 2));
        expect(real.text.startsWith(outcome.text)).toBe(true);
        return 'truncatedJson';
      }
      // At rate 1 a whole answer can only be a slow one.
      expect(outcome.text).toBe(real.text);
      expect(outcome.ms).toBeGreaterThanOrEqual(SLOW_MS - 2); // timers may fire a millisecond early
      return 'slowAnswer';
    });

    expect(new Set(seen)).toEqual(new Set(FAULT_KINDS));
    expect(seen).toEqual(planned(1, 7, 15));
    // A storm is several 429s in a row.
    const storm = 'rateLimitStorm,'.repeat(RATE_LIMIT_STORM_LENGTH);
    expect(`${seen.join(',')},`).toContain(storm);
  });

  it('never faults the control endpoints, even at rate 1', async () => {
    const service = await start({ faults: { rate: 1, seed: 3 } });
    const path = await dataPath(service);
    const serial = (await listInstruments(service))[0]!.serialNumber;
    const dataSignatures: string[] = [];
    for (let round = 0; round < 8; round++) {
      for (const control of ['/control/instruments', `/control/instruments/${serial}/status`]) {
        const outcome = await get(service, control);
        expect(outcome.dropped ? 'dropped' : [outcome.status, outcome.parses]).toEqual([200, true]);
      }
      // In between, data requests keep being faulted.
      dataSignatures.push(signature(await get(service, path)));
    }
    expect(dataSignatures.some((s) => s !== '200')).toBe(true);
  });

  it('gives the same faults for the same seed, and other faults for another seed', async () => {
    const first = await start({ faults: { rate: 0.5, seed: 42 } });
    const second = await start({ faults: { rate: 0.5, seed: 42 } });
    const path = await dataPath(first);
    const firstRun = (await getInTurn(first, path, 20)).map(signature);
    const secondRun = (await getInTurn(second, path, 20)).map(signature);
    expect(secondRun).toEqual(firstRun);
    // Some requests are answered normally (or slowly), some get a fault.
    expect(firstRun).toContain('200');
    expect(firstRun.some((s) => s !== '200')).toBe(true);

    expect(planned(0.5, 42, 200)).toEqual(planned(0.5, 42, 200));
    expect(planned(0.5, 43, 200)).not.toEqual(planned(0.5, 42, 200));
    expect(planned(1, 43, 20)).not.toEqual(planned(1, 42, 20));
  });

  it('faults about the given share of data requests', () => {
    expect(planned(0, 1, 100).every((kind) => kind === null)).toBe(true);
    expect(planned(1, 1, 100).every((kind) => kind !== null)).toBe(true);
    const faulted = planned(0.3, 1, 1000).filter((kind) => kind !== null).length;
    // 30 % chosen, plus the storms' extra 429s: each storm adds RATE_LIMIT_STORM_LENGTH - 1.
    expect(faulted).toBeGreaterThan(250);
    expect(faulted).toBeLessThan(450);
  });

  it('injects nothing without the faults option', async () => {
    const service = await start();
    const path = await dataPath(service);
    const outcomes = await getInTurn(service, path, 20);
    expect(new Set(outcomes.map(signature))).toEqual(new Set(['200']));
    const texts = new Set(outcomes.map((outcome) => (outcome.dropped ? '' : outcome.text)));
    expect(texts.size).toBe(1);
  });

  it('without a socket (app.request), a dropped connection is a body that fails to arrive', async () => {
    const seed = 5;
    const dropAt = planned(1, seed, FAULT_KINDS.length + RATE_LIMIT_STORM_LENGTH).indexOf(
      'droppedConnection',
    );
    expect(dropAt).toBeGreaterThanOrEqual(0);
    const app = createDemoApp({ now: () => NOW, timeScale: TIME_SCALE, faults: { rate: 1, seed } });
    const request = () => app.request('/v1/data/noise/measurements', { headers: HEADERS });
    for (let i = 0; i < dropAt; i++) await (await request()).arrayBuffer();
    await expect((await request()).text()).rejects.toThrow(/dropped the connection/);
  });

  it.each([[1.5], [-0.1], [Number.NaN]])('refuses the fault rate %s', (rate) => {
    expect(() => createDemoApp({ faults: { rate } })).toThrow(/fault rate must be a number from 0 to 1/);
  });

  it('refuses a fractional fault seed', () => {
    expect(() => createDemoApp({ faults: { rate: 0.5, seed: 1.5 } })).toThrow(
      /fault seed must be an integer/,
    );
  });
});
