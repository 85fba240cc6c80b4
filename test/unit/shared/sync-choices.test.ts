import { describe, expect, it } from 'vitest';
import { syncChoicesSchema } from '../../../src/shared/ipc/sync-requests';
import {
  BUILT_IN_PROFILES,
  chosenDatasetsFor,
  DEFAULT_SYNC_CHOICES,
  optionSetsOf,
  recordsStart,
  syncItemsFor,
  type SyncTypeChoice,
} from '../../../src/shared/sync-choices';
import { estimateItemBytes, estimateSync, itemRequests } from '../../../src/shared/sync-size';

const DAY = 86_400_000;
const quantum = { type: 'Noise', model: 'CR:900 Quantum', feature: ['SIC', 'Modem'] };
const optimus = { type: 'Noise', model: 'CR:171 Optimus+', feature: ['Modem'] };
const vibration = { type: 'Vibration', model: 'VM:400', feature: ['Modem'] };

const noise = (change: Partial<SyncTypeChoice>): SyncTypeChoice => ({
  ...DEFAULT_SYNC_CHOICES.noise,
  ...change,
});

describe('what a sync choice fetches', () => {
  it('keeps statistical levels only as recorded: the service refuses them with a period', () => {
    const choice = noise({ values: ['LAeq', 'LAF90'], periods: [null, 'PT1H'] });
    expect(optionSetsOf('noiseMeasurements', choice)).toEqual([
      { values: ['LAeq', 'LAF90'] },
      { values: ['LAeq'], period: 'PT1H' },
    ]);
    // Only statistical levels, only a period: nothing to fetch.
    expect(optionSetsOf('noiseMeasurements', noise({ values: ['LAF90'], periods: ['PT1H'] }))).toEqual([]);
  });

  it('fetches spectra once per band set and weighting, time histories at their own 1 s', () => {
    const choice = noise({ bands: ['Octave', 'Third'], weightings: ['Z', 'A'], periods: [null, 'PT1H'] });
    expect(optionSetsOf('frequencyMeasurements', choice)).toHaveLength(8);
    expect(optionSetsOf('frequencyTimeHistory', choice)).toEqual([
      { bands: 'Octave', weighting: 'Z' },
      { bands: 'Octave', weighting: 'A' },
      { bands: 'Third', weighting: 'Z' },
      { bands: 'Third', weighting: 'A' },
    ]);
    expect(optionSetsOf('noiseTimeHistory', choice)).toEqual([{ values: ['LAeq'], period: 'PT1S' }]);
    expect(optionSetsOf('vibrationPPV', { ...choice, periods: [null, 'PT1H'] })).toEqual([
      undefined,
      { period: 'PT1H' },
    ]);
  });

  it('always adds the records an instrument has, for 24 months, and nothing it cannot have', () => {
    const items = syncItemsFor(optimus, DEFAULT_SYNC_CHOICES);
    const records = items.filter((i) => i.span === 'records').map((i) => i.dataset);
    // An Optimus+ without the SIC feature: calibrations and their log, no SIC, no system health.
    expect(records).toEqual(['calibrations', 'calibrationLog']);
    expect(items.map((i) => i.dataset)).not.toContain('monitorStats');
    expect(syncItemsFor(quantum, DEFAULT_SYNC_CHOICES).filter((i) => i.span === 'records')).toHaveLength(3);
    // Even when the user unticks every dataset of the range, the records stay.
    expect(syncItemsFor(quantum, DEFAULT_SYNC_CHOICES, []).map((i) => i.dataset)).toEqual([
      'calibrations',
      'calibrationLog',
      'sic',
    ]);
    expect(syncItemsFor(vibration, DEFAULT_SYNC_CHOICES).map((i) => i.dataset)).toEqual([
      'vibrationPPV',
      'vibrationVDV',
    ]);
    expect(chosenDatasetsFor(quantum, DEFAULT_SYNC_CHOICES)).not.toContain('calibrations');
  });

  it('counts 24 calendar months back for the records', () => {
    expect(new Date(recordsStart(Date.UTC(2026, 10, 24, 9))).toISOString()).toBe('2024-11-24T09:00:00.000Z');
    // 29 February has no twin two years back: 28 February, so the span is never short of 24 months.
    expect(new Date(recordsStart(Date.UTC(2028, 1, 29, 6))).toISOString()).toBe('2026-02-28T06:00:00.000Z');
    expect(new Date(recordsStart(Date.UTC(2026, 2, 31))).toISOString()).toBe('2024-03-31T00:00:00.000Z');
  });

  it('ships profiles the request schema accepts, the noise survey as the default', () => {
    expect(BUILT_IN_PROFILES.map((p) => p.name)).toEqual([
      'Noise survey',
      'Construction vibration',
      'Air quality',
    ]);
    for (const profile of BUILT_IN_PROFILES)
      expect(syncChoicesSchema.safeParse(profile.choices).success).toBe(true);
    expect(DEFAULT_SYNC_CHOICES.noise).toMatchObject({
      values: ['LAeq', 'LAFMax', 'LAF10', 'LAF90', 'LCPeak'],
      bands: ['Octave', 'Third'],
      weightings: ['Z'],
      periods: [null],
    });
  });
});

describe('the size shown before a sync', () => {
  const range = { start: 0, end: DAY };

  it('models records per day and bytes per value, by hand', () => {
    // 96 fifteen-minute records of 145 bytes plus 5 values of 30 bytes.
    const levels = {
      dataset: 'noiseMeasurements' as const,
      options: { values: ['LAeq', 'LAFMax', 'LAF10', 'LAF90', 'LCPeak'] },
      span: 'range' as const,
    };
    expect(estimateItemBytes(levels, range)).toBeCloseTo(96 * (145 + 5 * 30));
    // Hourly: a quarter of the records.
    expect(
      estimateItemBytes({ ...levels, options: { values: ['LAeq'], period: 'PT1H' } }, range),
    ).toBeCloseTo(24 * 175);
    // 86,400 one-second samples of one value at 4.8 bytes.
    expect(
      estimateItemBytes(
        { dataset: 'noiseTimeHistory', options: { values: ['LAeq'], period: 'PT1S' }, span: 'range' },
        range,
      ),
    ).toBeCloseTo(86_400 * 4.8);
    // Third octaves: 36 bands.
    expect(
      estimateItemBytes(
        { dataset: 'frequencyMeasurements', options: { bands: 'Third', weighting: 'Z' }, span: 'range' },
        range,
      ),
    ).toBeCloseTo(96 * (145 + 36 * 30));
  });

  it('counts the requests at each endpoint’s longest range, the records over their own 24 months', () => {
    const week = { start: 0, end: 7 * DAY };
    expect(itemRequests({ dataset: 'noiseTimeHistory', span: 'range' }, week)).toBe(1);
    expect(itemRequests({ dataset: 'frequencyTimeHistory', span: 'range' }, week)).toBe(7);
    const end = Date.UTC(2026, 10, 24);
    // 730 days at one year per request.
    expect(itemRequests({ dataset: 'calibrations', span: 'records' }, { start: end - DAY, end })).toBe(2);
    const both = estimateSync(
      [
        { dataset: 'frequencyTimeHistory', span: 'range' },
        { dataset: 'calibrations', span: 'records' },
      ],
      { start: end - 7 * DAY, end },
    );
    expect(both.requests).toBe(9);
    expect(both.bytes).toBeGreaterThan(0);
  });
});
