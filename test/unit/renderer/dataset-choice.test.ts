/** Arrowing through the dataset list moves the choice; only a settled choice loads. */
import { describe, expect, it } from 'vitest';
import {
  datasetChoiceStep,
  type DatasetChoiceStep,
} from '../../../src/renderer/src/features/data/dataset-choice';

describe('choosing a dataset with the keyboard', () => {
  it('loads nothing while the arrow keys move through the list, then the one chosen on Enter', () => {
    let pending: string | null = null;
    const loads: string[] = [];
    for (const value of ['noiseTimeHistory', 'frequencyMeasurements', 'weather']) {
      const next: DatasetChoiceStep<string> = datasetChoiceStep('noiseMeasurements', pending, {
        kind: 'change',
        value,
        byKey: true,
      });
      pending = next.pending;
      if (next.load) loads.push(next.load);
    }
    expect(loads).toEqual([]);
    expect(pending).toBe('weather');
    expect(datasetChoiceStep('noiseMeasurements', pending, { kind: 'enter' })).toEqual({
      pending: null,
      load: 'weather',
    });
  });

  it('loads on leaving the list, goes back on Escape, and loads a mouse pick at once', () => {
    expect(datasetChoiceStep('a', 'b', { kind: 'leave' })).toEqual({ pending: null, load: 'b' });
    expect(datasetChoiceStep('a', 'b', { kind: 'escape' })).toEqual({ pending: null, load: null });
    expect(datasetChoiceStep('a', null, { kind: 'change', value: 'c', byKey: false })).toEqual({
      pending: null,
      load: 'c',
    });
  });

  it('loads nothing when the choice comes back to the dataset shown, or Enter has nothing new', () => {
    expect(datasetChoiceStep('a', 'b', { kind: 'change', value: 'a', byKey: true })).toEqual({
      pending: null,
      load: null,
    });
    expect(datasetChoiceStep('a', null, { kind: 'enter' })).toEqual({ pending: null, load: null });
    expect(datasetChoiceStep('a', null, { kind: 'leave' })).toEqual({ pending: null, load: null });
  });
});
