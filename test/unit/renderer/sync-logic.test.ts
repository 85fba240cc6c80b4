import { describe, expect, it } from 'vitest';
import { DEFAULT_SYNC_CHOICES } from '../../../src/shared/sync-choices';
import type { SyncFailure } from '../../../src/shared/data';
import {
  buildSyncRequest,
  checkState,
  etaText,
  fetchedShare,
  mergeSyncSnapshot,
  missingByCause,
  missingByInstrument,
  resumeCanHelp,
  OUTCOME_TITLES,
  syncFraction,
  syncOutcome,
  syncProgressText,
  toggleAll,
} from '../../../src/renderer/src/features/sync/logic';
import { coverageGroups } from '../../../src/renderer/src/features/cache/logic';
import { syncSnapshot as snapshot } from './fixtures';

const T0 = Date.UTC(2026, 10, 12, 14, 0); // 12 Nov 2026 14:00 UTC
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('site sync', () => {
  it('says progress in requests, size and time left', () => {
    expect(syncProgressText(snapshot())).toBe('12 of 40 requests · 3.4 MB · about 2 min left');
    expect(syncProgressText(snapshot({ state: 'succeeded', done: 40 }))).toBe('40 of 40 requests · 3.4 MB');
    expect(etaText(null)).toBe('working out the time left');
    expect(etaText(30_000)).toBe('less than a minute left');
    expect(etaText(3 * HOUR)).toBe('about 3 hours left');
  });

  it('keeps the newer snapshot, so a late list answer never rolls progress back', () => {
    const later = snapshot({ updatedAt: T0 + 5000, done: 20 });
    expect(mergeSyncSnapshot(later, snapshot())).toBe(later);
    expect(mergeSyncSnapshot(snapshot(), later)).toBe(later);
  });

  it('names the outcome: a sync with gaps is not a success', () => {
    const failure: SyncFailure = {
      serial: 'AQ132935',
      dataset: 'weather',
      missing: [{ start: T0, end: T0 + HOUR }],
      message: 'the key lacks data.enviro:read',
    };
    expect(syncOutcome(snapshot({ state: 'withGaps', failures: [failure] }))).toBe('gaps');
    // A success still naming failures is not reported as one either.
    expect(syncOutcome(snapshot({ state: 'succeeded', failures: [failure] }))).toBe('gaps');
    expect(syncOutcome(snapshot({ state: 'succeeded' }))).toBe('complete');
    expect(syncOutcome(snapshot({ state: 'failed', failures: [failure] }))).toBe('failed');
    expect(syncOutcome(snapshot({ state: 'interrupted' }))).toBe('interrupted');
    expect(syncOutcome(snapshot())).toBeNull();
    expect(OUTCOME_TITLES.gaps).toBe('Finished with gaps');
    expect(OUTCOME_TITLES.complete).toBe('Ready for the site visit');
  });

  it('lists what is missing by instrument, dataset and time range, with the year in every date', () => {
    const year = 365 * DAY;
    const ended = snapshot({
      state: 'withGaps',
      serials: ['QT1', 'QT2'],
      failures: [
        {
          serial: 'QT2',
          dataset: 'audio',
          missing: [
            { start: T0, end: T0 + 4 * HOUR },
            { start: T0 + 10 * HOUR, end: T0 + 12 * HOUR },
          ],
          message: 'The service had an internal problem (500).',
        },
        {
          serial: 'QT1',
          dataset: 'calibrations',
          missing: [{ start: T0 - year, end: T0 }],
          message: 'This key lacks the data.system:read scope.',
        },
        {
          serial: 'QT2',
          dataset: 'events',
          missing: [{ start: T0, end: T0 + HOUR }],
          message: 'Cannot reach the service.',
        },
      ],
    });
    expect(missingByInstrument(ended, 'utc', T0 + 2 * DAY)).toEqual([
      {
        serial: 'QT1',
        datasets: [
          {
            dataset: 'calibrations',
            label: 'Calibrations',
            // A year's gap reads as a year, not as 12 Nov – 12 Nov.
            ranges: ['12 Nov 2025 14:00 – 12 Nov 2026 14:00 UTC'],
            reason: 'This key lacks the data.system:read scope.',
          },
        ],
      },
      {
        serial: 'QT2',
        datasets: [
          {
            dataset: 'audio',
            label: 'Audio recordings',
            ranges: ['12 Nov 2026 14:00 – 18:00 UTC', '13 Nov 2026 00:00 – 02:00 UTC'],
            reason: 'The service had an internal problem (500).',
          },
          {
            dataset: 'events',
            label: 'Noise events',
            ranges: ['12 Nov 2026 14:00 – 15:00 UTC'],
            reason: 'Cannot reach the service.',
          },
        ],
      },
    ]);
    // Read the same day, a range within today says only its times, as every range on screen does.
    expect(missingByInstrument(ended, 'utc', T0 + 5 * HOUR)[1]?.datasets[1]?.ranges).toEqual([
      '14:00 – 15:00 UTC',
    ]);
    expect(missingByInstrument(snapshot({ state: 'succeeded' }), 'utc', T0)).toEqual([]);

    // One reason per cause, however many instruments and datasets it hit.
    const offlineEverywhere = snapshot({
      state: 'withGaps',
      serials: ['QT1', 'QT2'],
      failures: ['QT1', 'QT2'].flatMap((serial) =>
        (['noiseMeasurements', 'frequencyMeasurements'] as const).map((dataset) => ({
          serial,
          dataset,
          ...(dataset === 'frequencyMeasurements'
            ? { options: { bands: 'Third' as const, weighting: 'Z' as const } }
            : {}),
          missing: [{ start: T0, end: T0 + HOUR }],
          message: 'Cannot reach the service.',
        })),
      ),
    });
    const causes = missingByCause(offlineEverywhere, 'utc', T0);
    expect(causes.map((c) => c.reason)).toEqual(['Cannot reach the service.']);
    expect(causes[0]!.instruments.map((i) => i.serial)).toEqual(['QT1', 'QT2']);
    expect(causes[0]!.instruments[0]!.datasets.map((d) => d.label)).toEqual([
      'Noise levels',
      'Octave / third-octave spectra (third-octave, Z-weighted)',
    ]);
    expect(missingByCause(ended, 'utc', T0).map((c) => c.reason)).toEqual([
      'This key lacks the data.system:read scope.',
      'The service had an internal problem (500).',
      'Cannot reach the service.',
    ]);
  });

  it('offers Resume only while some missing part may come with another try', () => {
    const failure = (retryable?: boolean): SyncFailure => ({
      serial: 'QT1',
      dataset: 'audio',
      missing: [{ start: T0, end: T0 + HOUR }],
      message:
        retryable === false ? 'This key lacks the data.audio:read scope.' : 'Cannot reach the service.',
      ...(retryable === undefined ? {} : { retryable }),
    });
    expect(resumeCanHelp({ failures: [] })).toBe(true);
    expect(resumeCanHelp({ failures: [failure(false)] })).toBe(false);
    expect(resumeCanHelp({ failures: [failure(false), failure(true)] })).toBe(true);
    // Syncs stored before failures said so: another try may help.
    expect(resumeCanHelp({ failures: [failure(false), failure()] })).toBe(true);
  });

  it('fills the bar with what was fetched: never full with gaps or a failure, full when complete', () => {
    const range = { start: T0, end: T0 + DAY };
    const gaps = snapshot({
      ...range,
      state: 'withGaps',
      // The backend counts failed requests as done once the sync has finished; `fetched` says what it got.
      done: 40,
      total: 40,
      fetched: 25,
      failures: [{ serial: 'QT1', dataset: 'audio', missing: [range], message: 'Cannot reach the service.' }],
    });
    expect(fetchedShare(gaps)).toBeCloseTo(0.625);
    expect(syncFraction(gaps)).toBe(0.62);
    expect(syncProgressText(gaps)).toBe('25 of 40 requests fetched · 3.4 MB');

    // One request missing of many still never reads as full.
    const sliver = snapshot({ ...range, state: 'withGaps', done: 400, total: 400, fetched: 399 });
    expect(syncFraction(sliver)).toBe(0.99);

    const failed = snapshot({ ...range, state: 'failed', done: 40, total: 40, fetched: 0, bytes: 0 });
    expect(syncFraction(failed)).toBe(0);
    expect(syncProgressText(failed)).toBe('Nothing fetched');

    expect(syncFraction(snapshot({ state: 'succeeded', done: 40, total: 40 }))).toBe(1);
    expect(syncFraction(snapshot())).toBe(0.3);
    expect(syncFraction(snapshot({ state: 'cancelled', done: 10 }))).toBe(0.25);
    expect(syncFraction(snapshot({ total: 0, done: 0 }))).toBeNull();
  });

  it('groups datasets that cover the same range', () => {
    const covered = [{ start: Date.UTC(2026, 10, 12), end: Date.UTC(2026, 10, 20) }];
    const groups = coverageGroups(
      {
        accountId: 'acc-1',
        serial: 'QT1',
        bytes: 1,
        datasets: [
          { dataset: 'noiseMeasurements', bytes: 1, covered, lastFetchedAt: T0 },
          { dataset: 'events', bytes: 1, covered, lastFetchedAt: T0 },
          { dataset: 'calibrations', bytes: 1, covered: [], lastFetchedAt: T0 },
        ],
      },
      'utc',
      Date.UTC(2026, 10, 20),
    );
    expect(groups).toEqual([
      { covered: '12–19 Nov 2026', labels: ['Noise levels', 'Noise events'] },
      { covered: 'nothing yet', labels: ['Calibrations'] },
    ]);
  });

  it('selects all or none, and builds the request from the chosen instruments in list order', () => {
    expect(checkState([], ['a', 'b'])).toBe('none');
    expect(checkState(['b'], ['a', 'b'])).toBe('some');
    expect(toggleAll(['b'], ['a', 'b'])).toEqual(['a', 'b']);
    expect(toggleAll(['a', 'b'], ['a', 'b'])).toEqual([]);
    const request = buildSyncRequest(
      ['a', 'b', 'c'],
      ['c', 'a', 'b'],
      { a: ['noiseMeasurements'], b: [], c: ['gases'] },
      { start: T0, end: T0 + DAY },
      DEFAULT_SYNC_CHOICES,
    );
    expect(request).toEqual({
      serials: ['a', 'c'],
      start: T0,
      end: T0 + DAY,
      datasets: { a: ['noiseMeasurements'], c: ['gases'] },
      choices: DEFAULT_SYNC_CHOICES,
    });
  });
});
