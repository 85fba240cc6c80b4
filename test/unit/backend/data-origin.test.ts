/**
 * Where an assessment's readings came from, as its report says it: which days were answered by the
 * copy kept on this computer (and when that copy was read from the service) and when the rest was
 * read, never "some kept on this computer".
 */
import { describe, expect, it } from 'vitest';
import type { AssessmentResult, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
} from '../../../src/shared/assessment';
import type { DataReadResult } from '../../../src/shared/data';
import {
  READ_PIECE_MS,
  readAssessmentInputs,
  type ReadOne,
} from '../../../src/main/backend/assessment/assessment-inputs';
import { SiteClock } from '../../../src/main/backend/assessment/report/report-format';
import { dataSourceText } from '../../../src/main/backend/assessment/report/report-verdicts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 2);
const END = START + 40 * DAY;
/** When the assessment read from the service, and when the copy of the first month had been read. */
const NOW = END + 9.5 * 3_600_000;
const COPY_READ = START + 20 * DAY + 18 * 3_600_000;

const site: Site = {
  id: 'site-1',
  accountId: 'acc',
  name: 'Mill Lane',
  timeZone: 'UTC',
  serials: ['NM1'],
  rules: { ...DEFAULT_EXCLUSION_RULES, wind: false, precipitation: false, offline: false },
  exclusions: [],
  limits: {},
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: START,
  updatedAt: START,
};

/**
 * The first piece of the period (its first 31 days) answered by the copy, the other read now; the
 * whole period, read after its pieces, answered by the copy they made (as the cache does).
 */
const read: ReadOne = async (serial, dataset, range) => {
  const firstPiece = range.start === START && range.end === START + READ_PIECE_MS;
  const whole = range.start === START && range.end === END;
  const copied = firstPiece || whole;
  const answer: DataReadResult = {
    query: { serial, dataset, ...range },
    provenance: copied ? { source: 'cached', cachedAt: COPY_READ } : { source: 'fresh', fetchedAt: NOW },
    series: [],
    records: null,
  };
  return answer;
};

const clock = new SiteClock('UTC', START);
const reportOf = (over: Partial<AssessmentResult>): AssessmentResult =>
  ({
    start: START,
    end: END,
    computedAt: NOW,
    fromCache: true,
    dataFetchedAt: COPY_READ,
    ...over,
  }) as AssessmentResult;

describe('where the data came from', () => {
  it('records the days the copy answered and when each part was read from the service', async () => {
    const inputs = await readAssessmentInputs(site, { start: START, end: END }, [], read, NOW);
    expect(inputs.dataOrigin).toEqual({
      readAt: NOW,
      fromCopy: [{ start: START, end: START + 31 * DAY }],
      copyReadAt: COPY_READ,
    });
    expect(dataSourceText(reportOf({ dataOrigin: inputs.dataOrigin }), clock)).toBe(
      'Read from the service on Sat 12 Dec 2026 09:30; 31 days of the period’s 40 days from the copy kept on this computer, the oldest of it read from the service on Sun 22 Nov 2026 18:00',
    );
  });

  it('says a period read whole from the service or whole from the copy as such', () => {
    const fresh = { readAt: NOW, fromCopy: [], copyReadAt: null };
    expect(dataSourceText(reportOf({ dataOrigin: fresh }), clock)).toBe(
      'Read from the service on Sat 12 Dec 2026 09:30',
    );
    // Offline: all of it from the copy, half a day of it before the period (a look-back) not counted.
    const copy = { readAt: null, fromCopy: [{ start: START - DAY / 2, end: END }], copyReadAt: COPY_READ };
    expect(dataSourceText(reportOf({ dataOrigin: copy }), clock)).toBe(
      'All of the period from the copy kept on this computer, the oldest of it read from the service on Sun 22 Nov 2026 18:00',
    );
    const part = {
      readAt: NOW,
      fromCopy: [{ start: START, end: START + 36 * 3_600_000 }],
      copyReadAt: COPY_READ,
    };
    expect(dataSourceText(reportOf({ dataOrigin: part }), clock)).toMatch(
      /; 1\.5 days of the period’s 40 days from/,
    );
  });
});
