/**
 * The digest a report compares with the assessment on screen: the same readings read again (from
 * the copy, in another order) are the same basis; one reading, the site or a tolerance changed is not.
 */
import { describe, expect, it } from 'vitest';
import { basisDigest, type AssessmentBasis } from '../../../src/main/backend/assessment/assessment-basis';
import type { AssessmentInputs } from '../../../src/main/backend/assessment/assessment-inputs';
import type { DataReadResult } from '../../../src/shared/data';
import type { Site } from '../../../src/shared/assessment';

const HOUR = 3_600_000;

function readOf(values: number[], provenance: DataReadResult['provenance'], askedAt: number): DataReadResult {
  return {
    query: { serial: 'QT1', dataset: 'noiseMeasurements', start: 0, end: askedAt },
    provenance,
    series: [
      {
        name: 'LAeq',
        unit: 'dB',
        times: Float64Array.from(values, (_, i) => i * HOUR),
        values: Float32Array.from(values),
      },
    ],
    records: null,
  } as DataReadResult;
}

function basisOf(
  read: DataReadResult,
  order: 'noise first' | 'weather first',
  tolerance = 0.5,
): AssessmentBasis {
  const weather = readOf([3, 4], { source: 'fresh', fetchedAt: 1 }, 24 * HOUR);
  const reads =
    order === 'noise first' ? { noiseMeasurements: read, weather } : { weather, noiseMeasurements: read };
  const inputs = {
    range: { start: 0, end: 24 * HOUR },
    instruments: [{ instrument: { serial: 'QT1', name: 'North' }, kind: 'noise', reads }],
    notes: [],
    fromCache: order === 'weather first',
    dataFetchedAt: order === 'noise first' ? 1 : 2,
  } as unknown as AssessmentInputs;
  return {
    site: { id: 's1', name: 'Mill Lane', exclusions: [] } as unknown as Site,
    start: 0,
    end: 24 * HOUR,
    toleranceDb: tolerance,
    sicToleranceDb: 1,
    inputs,
    evidence: [{ serial: 'QT1', actions: [], visits: [] }],
  };
}

describe('the basis of an assessment', () => {
  const fetched = readOf([50, 51.5, 49], { source: 'fresh', fetchedAt: 10 }, 24 * HOUR);
  const fromCopy = readOf([50, 51.5, 49], { source: 'cached', cachedAt: 10 }, 30 * HOUR);

  it('is the same for the same readings read again from the copy, in another order', () => {
    expect(basisDigest(basisOf(fromCopy, 'weather first'))).toBe(
      basisDigest(basisOf(fetched, 'noise first')),
    );
  });

  it('is the same when only the report’s texts or the notes’ order differ', () => {
    const basis = basisOf(fetched, 'noise first');
    const digest = basisDigest({ ...basis, inputs: { ...basis.inputs, notes: ['b', 'a'] } });
    const retitled = {
      ...basis,
      site: {
        ...basis.site,
        conclusion: 'Met.',
        updatedAt: 2,
        cover: { client: 'Residents' },
      } as unknown as Site,
      inputs: { ...basis.inputs, notes: ['a', 'b'] },
    };
    expect(basisDigest(retitled)).toBe(digest);
  });

  it('differs when one reading, the site or a tolerance differs', () => {
    const digest = basisDigest(basisOf(fetched, 'noise first'));
    const oneReading = readOf([50, 51.6, 49], { source: 'fresh', fetchedAt: 10 }, 24 * HOUR);
    expect(basisDigest(basisOf(oneReading, 'noise first'))).not.toBe(digest);
    expect(basisDigest(basisOf(fetched, 'noise first', 0.3))).not.toBe(digest);
    const renamed = basisOf(fetched, 'noise first');
    expect(basisDigest({ ...renamed, site: { ...renamed.site, name: 'Mill Lane East' } })).not.toBe(digest);
  });
});
