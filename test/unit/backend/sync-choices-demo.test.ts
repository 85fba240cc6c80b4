/**
 * A site sync with a profile, against the demo service, through the backend's handlers as the app
 * calls them: what it keeps (the profile's values, band sets and periods; the records for 24
 * months), how close the size shown before it started was, and what the views then read offline —
 * each choice the profile covers answers with data, a choice it does not cover says why.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/main/backend/backend';
import type { DataReadResult, DatasetQuery, SyncSnapshot } from '../../../src/shared/data';
import { BUILT_IN_PROFILES, recordsStart, syncItemsFor } from '../../../src/shared/sync-choices';
import { estimateSync } from '../../../src/shared/sync-size';
import { demoBackendsWithNetwork } from './backend-helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A Quantum noise monitor with SIC and weather in the demo fleet (seed 1), and a vibration monitor. */
const NOISE = 'QT930998';
const VIBRATION = 'VB717737';
/** An hour boundary a day ago: everything before it is settled. */
const END = Math.floor(Date.now() / HOUR) * HOUR - DAY;
const START = END - 2 * DAY;

const demo = demoBackendsWithNetwork();
const makeBackend = () =>
  demo.open({
    overrides: {
      clientOptions: {
        timeoutMs: 10_000,
        retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 200 },
      },
    },
  });

type Handlers = Backend['handlers'];

async function syncFinished(handlers: Handlers, id: string): Promise<SyncSnapshot> {
  for (let i = 0; i < 3000; i++) {
    const snapshot = (await handlers['sync.list']({})).find((s) => s.id === id);
    if (snapshot !== undefined && snapshot.state !== 'running' && snapshot.state !== 'starting')
      return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the sync did not finish');
}

const profile = (name: string) => BUILT_IN_PROFILES.find((p) => p.name === name)!;

describe('a site sync with a profile, against the demo service', () => {
  it('keeps what the noise survey names, the records for 24 months, and about the size shown before', async () => {
    const { handlers } = await makeBackend();
    const choices = profile('Noise survey').choices;
    const instruments = await handlers['instruments.list']({});
    const chosen = instruments.entries
      .map((e) => e.instrument)
      .filter((i) => [NOISE, VIBRATION].includes(i.serialNumber));
    expect(chosen).toHaveLength(2);
    const items = chosen.flatMap((i) => syncItemsFor(i, choices));
    const estimate = estimateSync(items, { start: START, end: END });

    const started = await handlers['sync.start']({
      serials: [NOISE, VIBRATION],
      start: START,
      end: END,
      datasets: {},
      choices,
    });
    const done = await syncFinished(handlers, started.id);
    expect(done).toMatchObject({ state: 'succeeded', failures: [] });
    // The plan is the dialog's items, request for request.
    expect(done.total).toBe(estimate.requests);
    // The size shown before is a model, not a measurement: within a factor of two of what came.
    const ratio = estimate.bytes / done.bytes;
    console.info(
      `sync size: estimated ${estimate.bytes} B, received ${done.bytes} B (${ratio.toFixed(2)}×), ${done.total} requests`,
    );
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);

    const summary = await handlers['cache.summary']({});
    const noise = summary.instruments.find((i) => i.serial === NOISE)!;
    const covered = (dataset: string) => noise.datasets.find((d) => d.dataset === dataset)?.covered ?? [];
    // Calibration, its log and SIC: 24 months back, though the range chosen was 2 days.
    for (const dataset of ['calibrations', 'calibrationLog', 'sic']) {
      expect(covered(dataset)[0]?.start, dataset).toBe(recordsStart(END));
      expect(covered(dataset).at(-1)?.end, dataset).toBe(END);
    }
    expect(covered('noiseMeasurements')[0]).toEqual({ start: START, end: END });

    // Offline, every view the profile covers answers, with non-default choices.
    demo.network.down = true;
    const read = (query: Omit<DatasetQuery, 'serial' | 'start' | 'end'>, days = 2): Promise<DataReadResult> =>
      handlers['data.read']({ serial: NOISE, start: END - days * DAY, end: END, ...query });
    const cases: Array<[string, Omit<DatasetQuery, 'serial' | 'start' | 'end'>, boolean, string[]]> = [
      ['default levels', { dataset: 'noiseMeasurements' }, false, ['LAeq', 'LCPeak', 'LAFMax']],
      [
        'LAF90 with LAeq',
        { dataset: 'noiseMeasurements', options: { values: ['LAeq', 'LAF90'] } },
        false,
        ['LAeq', 'LAF90'],
      ],
      [
        'hourly levels',
        { dataset: 'noiseMeasurements', options: { period: 'PT1H' } },
        true,
        ['LAeq', 'LCPeak', 'LAFMax'],
      ],
      ['third octaves', { dataset: 'frequencyMeasurements', options: { bands: 'Third' } }, false, ['25 Hz']],
      [
        'A-weighted octaves',
        { dataset: 'frequencyMeasurements', options: { weighting: 'A' } },
        true,
        ['1 kHz'],
      ],
    ];
    for (const [name, query, derived, some] of cases) {
      const answer = await read(query);
      expect(answer.provenance.source, name).toBe('cached');
      expect(answer.derived !== undefined, `${name} is derived`).toBe(derived);
      const labels = answer.series.map((s) => s.label ?? s.name);
      for (const label of some) expect(labels, name).toContain(label);
      expect(
        answer.series.every((s) => s.times.length > 0),
        name,
      ).toBe(true);
    }

    // Not covered: a statistical level never fetched says exactly that, and what to sync.
    const laf50 = await read({ dataset: 'noiseMeasurements', options: { values: ['LAF50'] } });
    expect(laf50.provenance.source).toBe('partial');
    expect(laf50.notes?.join(' ')).toMatch(
      /^LAF50 was not synced .*in “Prepare for site visit”, tick LAF50 under Noise values/,
    );
  });

  it('reads the default levels online from the wider set a sync kept, without asking the service again', async () => {
    const { handlers } = await makeBackend();
    const started = await handlers['sync.start']({
      serials: [NOISE],
      start: START,
      end: END,
      datasets: { [NOISE]: ['noiseMeasurements'] },
      choices: profile('Noise survey').choices,
    });
    await syncFinished(handlers, started.id);
    demo.network.dataRequests = [];
    const answer = await handlers['data.read']({
      serial: NOISE,
      dataset: 'noiseMeasurements',
      start: START,
      end: END,
    });
    expect(demo.network.dataRequests).toEqual([]);
    expect(answer.provenance.source).toBe('cached');
    expect(answer.derived).toBeUndefined();
    expect(answer.series.map((s) => s.name)).toEqual(['LAeq', 'LCPeak', 'LAFMax']);
    // The record table holds the values asked for, not the others fetched with them.
    const keys = answer.records!.columns.map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['LAeq', 'LCPeak', 'LAFMax']));
    expect(keys).not.toContain('LAF90');
  });
});

describe('site-sync profiles', () => {
  it('are saved, listed after the built-in ones, kept across a restart, and deleted; built-in names are refused', async () => {
    const first = await makeBackend();
    const choices = profile('Air quality').choices;
    const listed = await first.handlers['sync.saveProfile']({ name: '  Wind farm  ', choices });
    expect(listed.map((p) => p.name)).toEqual([...BUILT_IN_PROFILES.map((p) => p.name), 'Wind farm']);
    await expect(first.handlers['sync.saveProfile']({ name: 'noise SURVEY', choices })).rejects.toThrow(
      /built-in profile and cannot be changed/,
    );
    await expect(first.handlers['sync.deleteProfile']({ name: 'Noise survey' })).rejects.toThrow(
      /built-in profile and cannot be deleted/,
    );
    await demo.close(first.backend);

    const second = await makeBackend();
    const kept = (await second.handlers['sync.profiles']({})).find((p) => p.name === 'Wind farm');
    expect(kept).toEqual({ name: 'Wind farm', builtIn: false, choices });
    const after = await second.handlers['sync.deleteProfile']({ name: 'wind farm' });
    expect(after.map((p) => p.name)).toEqual(BUILT_IN_PROFILES.map((p) => p.name));
  });
});
