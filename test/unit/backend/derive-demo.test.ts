/**
 * Offline derivations through the whole read path, against the demo service's own answers: read
 * with the default options online (fills the cache), lose the network, read with A weighting or a
 * 1-hour period, and compare with what the demo service answers for that query directly.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/main/backend/backend';
import { createDataClient, type DataClient } from '../../../src/main/backend/service/data-client';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import type { DataReadResult, DatasetQuery, RecordTable } from '../../../src/shared/data';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import { makeTempDir } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A noise instrument of the demo fleet (seed 1) that records. */
const NOISE = 'QT930998';
/** An hour boundary a day ago: data before it is settled. */
const END = Math.floor(Date.now() / HOUR) * HOUR - DAY;
/** Both sides state levels to 0.1 dB, so a derived level may differ by the two roundings (and Float32 storage). */
const WITHIN = 0.1 + 1e-4;

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
let direct: DataClient;
let networkDown = false;
const backends: Backend[] = [];
/** The largest differences measured, by comparison, printed at the end for the record. */
const measured = new Map<string, number>();

beforeEach(async () => {
  networkDown = false;
  service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 100_000 });
  dataDir = await makeTempDir();
  direct = createDataClient({ baseUrl: service.baseUrl, apiKey: DEMO_TEST_KEY, timeoutMs: 30_000 });
});

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await service.close();
  await dataDir.remove();
});

afterAll(() => {
  console.info(
    'Offline derivations against the demo service, largest differences (dB):',
    Object.fromEntries([...measured].map(([k, v]) => [k, Math.round(v * 10_000) / 10_000])),
  );
});

async function makeBackend() {
  const made = await createRecordingBackend({
    ...demoBackendOptions(dataDir.path, service),
    fetch: async (input, init) => {
      if (networkDown)
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      return fetch(input, init);
    },
    clientOptions: {
      timeoutMs: 5_000,
      retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 200 },
    },
    offlineProbeMs: 50,
  });
  backends.push(made.backend);
  await made.handlers['accounts.tryDemo']({});
  return made.handlers;
}

type Handlers = Backend['handlers'];
const read = (handlers: Handlers, query: DatasetQuery): Promise<DataReadResult> =>
  handlers['data.read'](query);

/** The rows of two tables side by side by start time; every row of `expected` must be there. */
function compareRows(
  name: string,
  got: RecordTable | null,
  expected: RecordTable | null,
  columns: readonly string[],
) {
  expect(got).not.toBeNull();
  expect(expected).not.toBeNull();
  const byStart = new Map(got!.rows.map((row) => [row.startTime, row]));
  expect(got!.rows.length).toBe(expected!.rows.length);
  expect(expected!.rows.length).toBeGreaterThan(0);
  let worst = 0;
  for (const want of expected!.rows) {
    const row = byStart.get(want.startTime);
    expect(row, `a derived row at ${new Date(want.startTime as number).toISOString()}`).toBeDefined();
    expect(row!.duration).toBe(want.duration);
    for (const column of columns) {
      const a = row![column];
      const b = want[column];
      expect(typeof a, `${column} at ${String(want.startTime)}`).toBe(typeof b);
      if (typeof a === 'number' && typeof b === 'number') worst = Math.max(worst, Math.abs(a - b));
    }
  }
  measured.set(name, Math.max(measured.get(name) ?? 0, worst));
  expect(worst).toBeLessThanOrEqual(WITHIN);
  return worst;
}

const bandColumns = (table: RecordTable | null) =>
  (table?.columns ?? []).filter((c) => /Hz$/.test(c.key)).map((c) => c.key);

describe('offline, derived from what the cache holds, equal to the demo service within 0.1 dB', () => {
  it.each([
    ['Octave', 'A'],
    ['Octave', 'C'],
    ['Third', 'A'],
  ] as const)('%s bands %s-weighted from the cached Z-weighted bands', async (bands, weighting) => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'frequencyMeasurements' as const, start: END - 2 * DAY, end: END };
    const z = await read(handlers, { ...base, options: { bands } });
    expect(z.provenance.source).toBe('fresh');
    networkDown = true;

    const query = { ...base, options: { bands, weighting } };
    const derived = await read(handlers, query);
    expect(derived.provenance.source).toBe('cached');
    expect(derived.derived).toEqual([
      expect.objectContaining({ dataset: 'frequencyMeasurements', options: { bands, weighting: 'Z' } }),
    ]);
    const word = bands === 'Octave' ? 'octave' : 'third-octave';
    expect(derived.notes).toContainEqual(
      expect.stringContaining(
        `Derived offline, not fetched: ${weighting}-weighted from the cached Z-weighted ${word} bands as recorded (IEC 61672-1 corrections per band)`,
      ),
    );
    const expected = await direct.fetchDataset(query);
    const columns = bandColumns(expected.records);
    expect(columns.length).toBe(bands === 'Octave' ? 10 : 36);
    expect(derived.series.map((s) => s.name)).toEqual(columns);
    compareRows(`${bands} ${weighting} from Z`, derived.records, expected.records, columns);
    // Kept to 0.0001 dB, shown to the service's 0.1 dB.
    const shown = derived.records!.columns.filter((c) => columns.includes(c.key));
    expect(shown.map((c) => c.precision)).toEqual(columns.map(() => ({ decimals: 1 })));
  });

  it.each(['Z', 'A'] as const)(
    '%s-weighted octave bands from the cached Z-weighted third octaves',
    async (weighting) => {
      const handlers = await makeBackend();
      const base = { serial: NOISE, dataset: 'frequencyMeasurements' as const, start: END - DAY, end: END };
      await read(handlers, { ...base, options: { bands: 'Third' } });
      networkDown = true;
      const query = { ...base, options: { bands: 'Octave', weighting } } as const;
      const derived = await read(handlers, query);
      expect(derived.provenance.source).toBe('cached');
      expect(derived.notes?.[0]).toContain(
        'octave bands as the energetic sum of their three bands from the cached Z-weighted third-octave bands',
      );
      const expected = await direct.fetchDataset(query);
      const columns = bandColumns(expected.records);
      expect(derived.series.map((s) => s.name)).toEqual(columns);
      compareRows(`Octave ${weighting} from Z thirds`, derived.records, expected.records, columns);
    },
  );

  it('hourly noise levels from the cached 15-minute measurements: Leq energetically, maxima as maxima', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'noiseMeasurements' as const, start: END - 2 * DAY, end: END };
    await read(handlers, base);
    networkDown = true;

    const query = { ...base, options: { period: 'PT1H' } };
    const derived = await read(handlers, query);
    expect(derived.provenance.source).toBe('cached');
    expect(derived.notes).toContainEqual(
      'Derived offline, not fetched: 1-hour values computed from the cached noise levels as recorded (LAeq averaged energetically, LCPeak as the largest, LAFMax as the largest).',
    );
    const expected = await direct.fetchDataset(query);
    const worst = compareRows('1 h LAeq from 15 min', derived.records, expected.records, ['LAeq']);
    expect(worst).toBeGreaterThanOrEqual(0);
    // The maxima of rounded maxima are the rounded maximum: exactly equal.
    const maxima = compareRows('1 h maxima from 15 min', derived.records, expected.records, [
      'LCPeak',
      'LAFMax',
    ]);
    expect(maxima).toBeLessThan(1e-4);
    expect(derived.records!.rows.map((r) => r.overload)).toEqual(
      expected.records!.rows.map((r) => r.overload),
    );

    // Exposures never fetched come from the Leq and each period's duration, summed energetically.
    const exposures = { ...base, options: { values: ['LAE', 'LEX8'], period: 'PT1H' } };
    const fromLeq = await read(handlers, exposures);
    expect(fromLeq.provenance.source).toBe('cached');
    expect(fromLeq.notes?.[0]).toMatch(/LAE from LAeq, LEX8 from LAeq and each reading's duration\.$/);
    const wanted = (await direct.fetchDataset(exposures)).records;
    compareRows('1 h LAE, LEX8 from 15 min LAeq', fromLeq.records, wanted, ['LAE', 'LEX8']);
  });

  it('daily and hourly Leq of a 1-day span from the cached 1-second time history', async () => {
    const handlers = await makeBackend();
    // A whole UTC day, so the daily period is covered too.
    const end = Math.floor(END / DAY) * DAY;
    const start = end - DAY;
    const th = { serial: NOISE, dataset: 'noiseTimeHistory' as const, start, end };
    await read(handlers, { ...th, options: { values: ['LAeq'], period: 'PT1S' } });
    networkDown = true;

    for (const period of ['PT1H', 'P1D']) {
      const query = {
        serial: NOISE,
        dataset: 'noiseMeasurements' as const,
        start,
        end,
        options: { values: ['LAeq'], period },
      };
      const derived = await read(handlers, query);
      expect(derived.provenance.source).toBe('cached');
      expect(derived.derived?.[0]).toMatchObject({ dataset: 'noiseTimeHistory' });
      expect(derived.notes?.[0]).toMatch(
        /^Derived offline, not fetched: 1-(hour|day) values computed from the cached 1-second noise time history \(LAeq averaged energetically\)\.$/,
      );
      const expected = await direct.fetchDataset(query);
      compareRows(`${period} LAeq from 1 s`, derived.records, expected.records, ['LAeq']);
    }
  });

  it('LZeq and LCeq as the energetic sum of the cached Z-weighted third-octave bands', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, start: END - DAY, end: END };
    await read(handlers, { ...base, dataset: 'frequencyMeasurements', options: { bands: 'Third' } });
    networkDown = true;

    const query = { ...base, dataset: 'noiseMeasurements' as const, options: { values: ['LZeq', 'LCeq'] } };
    const derived = await read(handlers, query);
    expect(derived.provenance.source).toBe('cached');
    expect(derived.notes?.[0]).toContain('as the energetic sum of the cached Z-weighted third-octave bands');
    const expected = await direct.fetchDataset(query);
    compareRows('LZeq, LCeq from Z thirds', derived.records, expected.records, ['LZeq', 'LCeq']);
  });
});

describe('offline after a site sync with its defaults', () => {
  it('hourly LAeq from the synced 1 s time history and A-weighted octaves from the synced Z octaves', async () => {
    const handlers = await makeBackend();
    const end = Math.floor(END / DAY) * DAY;
    const start = end - DAY;
    const { id } = await handlers['sync.start']({
      serials: [NOISE],
      start,
      end,
      datasets: { [NOISE]: ['noiseTimeHistory', 'frequencyMeasurements'] },
    });
    const until = Date.now() + 30_000;
    let state = '';
    while (Date.now() < until) {
      state = (await handlers['sync.list']({})).find((s) => s.id === id)?.state ?? '';
      if (state !== 'running' && state !== 'starting') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(state).toBe('succeeded');
    networkDown = true;

    const hourly = { serial: NOISE, dataset: 'noiseMeasurements' as const, start, end };
    const leq = await read(handlers, { ...hourly, options: { values: ['LAeq'], period: 'PT1H' } });
    expect(leq.provenance.source).toBe('cached');
    expect(leq.derived?.[0]).toMatchObject({ dataset: 'noiseTimeHistory', options: { values: ['LAeq'] } });
    const wantLeq = await direct.fetchDataset({ ...hourly, options: { values: ['LAeq'], period: 'PT1H' } });
    compareRows('synced: 1 h LAeq from 1 s', leq.records, wantLeq.records, ['LAeq']);

    const spectra = { serial: NOISE, dataset: 'frequencyMeasurements' as const, start, end };
    const a = await read(handlers, { ...spectra, options: { weighting: 'A', period: 'PT1H' } });
    expect(a.provenance.source).toBe('cached');
    expect(a.notes?.[0]).toBe(
      'Derived offline, not fetched: A-weighted from the cached Z-weighted octave bands as recorded (IEC 61672-1 corrections per band), combined energetically into 1-hour periods.',
    );
    const wantA = await direct.fetchDataset({ ...spectra, options: { weighting: 'A', period: 'PT1H' } });
    compareRows('synced: 1 h A octaves from 15 min Z', a.records, wantA.records, bandColumns(wantA.records));
  });
});

describe('offline, spectrum time history and partial cover', () => {
  it('A-weighted third-octave time history from Z, and 1-minute samples from 1-second ones', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'frequencyTimeHistory' as const, start: END - HOUR, end: END };
    await read(handlers, { ...base, options: { bands: 'Third' } });
    networkDown = true;
    for (const options of [
      { bands: 'Third', weighting: 'A' },
      { bands: 'Third', weighting: 'C', period: 'PT1M' },
    ] as const) {
      const query = { ...base, options };
      const derived = await read(handlers, query);
      expect(derived.provenance.source).toBe('cached');
      expect(derived.derived).toHaveLength(1);
      const expected = await direct.fetchDataset(query);
      expect(derived.series.map((s) => s.name)).toEqual(expected.series.map((s) => s.name));
      let worst = 0;
      derived.series.forEach((channel, c) => {
        const want = expected.series[c]!;
        expect([...channel.times]).toEqual([...want.times]);
        channel.values.forEach((v, i) => {
          const w = want.values[i]!;
          expect(Number.isNaN(v)).toBe(Number.isNaN(w));
          if (!Number.isNaN(v)) worst = Math.max(worst, Math.abs(v - w));
        });
      });
      const name = `third-octave time history ${options.weighting}${'period' in options ? ' 1 min' : ''} from Z 1 s`;
      measured.set(name, worst);
      expect(worst).toBeLessThanOrEqual(WITHIN);
    }
  });

  it('hourly A-weighted third-octave measurements from the 1 s Z spectrum time history', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, start: END - 3 * HOUR, end: END };
    await read(handlers, { ...base, dataset: 'frequencyTimeHistory', options: { bands: 'Third' } });
    networkDown = true;
    const query = {
      ...base,
      dataset: 'frequencyMeasurements' as const,
      options: { bands: 'Third', weighting: 'A', period: 'PT1H' },
    } as const;
    const derived = await read(handlers, query);
    expect(derived.provenance.source).toBe('cached');
    expect(derived.derived?.[0]).toMatchObject({ dataset: 'frequencyTimeHistory' });
    const expected = await direct.fetchDataset(query);
    const columns = bandColumns(expected.records);
    compareRows('1 h A thirds from 1 s Z spectra', derived.records, expected.records, columns);
  });

  it('derives what the cache covers and names the rest as missing, offline', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'frequencyMeasurements' as const, end: END };
    await read(handlers, { ...base, start: END - DAY });
    networkDown = true;
    const answer = await read(handlers, { ...base, start: END - 2 * DAY, options: { weighting: 'A' } });
    expect(answer.provenance).toMatchObject({
      source: 'partial',
      missing: [{ start: END - 2 * DAY, end: END - DAY }],
      reason: { code: 'offline' },
    });
    expect(answer.derived).toHaveLength(1);
    expect(answer.records!.rows.every((row) => (row.startTime as number) >= END - DAY)).toBe(true);
    expect(answer.records!.rows.length).toBeGreaterThan(0);
  });
});

describe('offline, derived only where it loses nothing', () => {
  it('keeps every value cached as asked when another source would cover more of one value only', async () => {
    const handlers = await makeBackend();
    const values = ['LAeq', 'LCPeak', 'LAFMax'];
    const levels = { serial: NOISE, dataset: 'noiseMeasurements' as const, options: { values } };
    // Levels cached up to two hours before the end; LAeq's 1 s time history up to the end.
    await read(handlers, { ...levels, start: END - DAY, end: END - 2 * HOUR });
    await read(handlers, {
      serial: NOISE,
      dataset: 'noiseTimeHistory',
      start: END - DAY,
      end: END,
      options: { values: ['LAeq'] },
    });
    networkDown = true;
    const answer = await read(handlers, { ...levels, start: END - DAY, end: END });
    // The time history could give hourly LAeq to the end, but not LCPeak or LAFMax: the answer as
    // cached, with its last two hours missing, loses less than a derived one with LAeq alone.
    expect(answer.series.map((c) => c.name).sort()).toEqual([...values].sort());
    expect(answer.derived).toBeUndefined();
    expect(answer.provenance).toMatchObject({
      source: 'partial',
      missing: [{ start: END - 2 * HOUR, end: END }],
    });
  });
});

describe('offline, what cannot be derived says so', () => {
  it('a statistical level never synced: why, and what to sync; never presented as fetched', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'noiseMeasurements' as const, start: END - DAY, end: END };
    const online = await read(handlers, { ...base, options: { values: ['LAeq', 'LAF90'] } });
    expect(online.provenance.source).toBe('fresh');
    expect(online.derived).toBeUndefined();
    networkDown = true;

    const onlyStat = await read(handlers, { ...base, start: END - 2 * DAY, options: { values: ['LAF10'] } });
    expect(onlyStat.provenance).toMatchObject({ source: 'partial', reason: { code: 'offline' } });
    expect(onlyStat.derived).toBeUndefined();
    expect(onlyStat.notes).toContain(
      'LAF10 was not synced for this range, and a statistical level cannot be computed from other values or periods: in “Prepare for site visit”, tick LAF10 under Noise values (it is kept as recorded).',
    );

    // LAeq is there under another query; LAF10 is not: the answer gives one and explains the other.
    const mixed = await read(handlers, { ...base, options: { values: ['LAeq', 'LAF10'] } });
    expect(mixed.provenance.source).toBe('cached');
    expect(mixed.series.map((s) => s.name)).toEqual(['LAeq']);
    // LAeq was fetched, with LAF90: read as it was, so the answer is not flagged derived.
    expect(mixed.derived).toBeUndefined();
    expect(mixed.notes).toContainEqual(expect.stringContaining('LAF10 was not synced for this range'));
    expect(mixed.notes).toContainEqual(
      expect.stringMatching(/^LAeq from the cached noise levels as recorded, cached with other values/),
    );
  });

  it('a shorter period from a longer one: says it is cached for other periods only', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'noiseMeasurements' as const, start: END - DAY, end: END };
    await read(handlers, { ...base, options: { values: ['LAeq'], period: 'PT1H' } });
    networkDown = true;
    const answer = await read(handlers, { ...base, options: { values: ['LAeq'], period: 'PT15M' } });
    expect(answer.provenance.source).toBe('partial');
    expect(answer.derived).toBeUndefined();
    expect(answer.notes).toContain(
      'LAeq for 15-minute periods was not synced for this range and cannot be derived from what is cached (it is cached for other periods only, and a shorter period cannot be computed from a longer one): in “Prepare for site visit”, tick LAeq under Noise values, with “As recorded” or 15-minute periods or shorter (or keep octave or third-octave spectra).',
    );
  });

  it('a spectrum time history left out of the sync says so and which box to tick, not the bands already ticked', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, start: END - HOUR, end: END };
    // Third-octave spectra kept (as the noise survey keeps them), the time history not.
    await read(handlers, { ...base, dataset: 'frequencyMeasurements', options: { bands: 'Third' } });
    networkDown = true;
    const answer = await read(handlers, {
      ...base,
      dataset: 'frequencyTimeHistory',
      options: { bands: 'Third', weighting: 'Z' },
    });
    expect(answer.provenance).toMatchObject({
      source: 'partial',
      cachedAt: null,
      reason: { code: 'offline' },
    });
    expect(answer.notes).toEqual([
      'Spectrum time history was left out of the site sync for this instrument, so none of it is kept offline: in “Prepare for site visit”, tick Spectrum time history under Datasets for noise monitors, with Third-octave and Z ticked under Spectra, then sync again.',
    ]);
  });

  it('third octaves from octaves: cannot be split, says which bands to sync', async () => {
    const handlers = await makeBackend();
    const base = { serial: NOISE, dataset: 'frequencyMeasurements' as const, start: END - DAY, end: END };
    await read(handlers, base);
    networkDown = true;
    const answer = await read(handlers, { ...base, options: { bands: 'Third', weighting: 'A' } });
    expect(answer.provenance.source).toBe('partial');
    expect(answer.derived).toBeUndefined();
    expect(answer.notes).toContain(
      'A-weighted third-octave bands were not synced for this range and cannot be derived from what is cached (octave bands cannot be split into third octaves): in “Prepare for site visit”, tick Third-octave under Spectra.',
    );
  });
});
