/**
 * The conclusion FieldDesk drafts says what the summary says, in its words: the summary's sentence,
 * a line per figure not met on every period (exceeded first, with its verdict as the summary words
 * it and its worst case), one line naming the figures met on every period, grouped by figure; and
 * the report prints the site's own conclusion instead once one is written.
 */
import { describe, expect, it } from 'vitest';
import { draftConclusion, reportConclusion } from '../../../src/shared/assessment-conclusion';
import { summaryRows, summarySentence, verdictText } from '../../../src/shared/assessment-summary';
import { NOISE, reportFixture, VIBRATION } from './report-fixture';

/** The fixture with its first LAeq,night without readings, and a second noise monitor's LAFMax,night. */
function mixedResult() {
  const base = reportFixture();
  const firstNight = base.figures.find((f) => f.label === 'LAeq,night')!;
  const lafmax = base.figures.find((f) => f.label === 'LAFMax,night')!;
  return reportFixture({
    instruments: [
      ...base.instruments,
      {
        serial: 'NM-2000',
        name: 'Rear of No. 9',
        type: 'Noise monitor',
        model: 'Sentinel NM3',
        position: null,
      },
    ],
    figures: [
      ...base.figures.map((f) =>
        f === firstNight ? { ...f, state: 'noData' as const, valid: null, all: null, coverage: 0 } : f,
      ),
      { ...lafmax, id: `NM-2000|LAFMax,night|${lafmax.start}`, serial: 'NM-2000' },
    ],
  });
}

describe('the drafted conclusion', () => {
  it('tells the summary again in its words: what needs attention first, the figures met on every period last', () => {
    const result = mixedResult();
    const rows = summaryRows(result);
    const exceeded = rows.find((r) => r.verdict === 'exceeded')!;
    const inPart = rows.find((r) => r.verdict === 'met in part')!;
    expect(inPart.figure).toBe('LAeq,night');
    expect(draftConclusion(result).split('\n')).toEqual([
      summarySentence(rows),
      `LAeq,day at ${NOISE} (limit 55.0 dB): ${verdictText(exceeded)}; worst case 57.1 dB, ${exceeded.worst!.period}.`,
      `LAeq,night at ${NOISE} (limit 45.0 dB): ${verdictText(inPart)}.`,
      `Met on every period: LAFMax,night at ${NOISE} and NM-2000; PPV Z at ${VIBRATION}; PPV X at ${VIBRATION}.`,
    ]);
    expect(verdictText(inPart)).toBe('met on 1 of 2 periods; 1 could not be assessed');
  });

  it('says so when no limit is set, and the report prefers the site’s own words', () => {
    const unlimited = reportFixture({
      figures: reportFixture().figures.map((f) => ({
        ...f,
        limit: null,
        limitKey: null,
        guideline: undefined,
      })),
    });
    expect(draftConclusion(unlimited)).toBe('No limit is set for the figures of this site.');

    const result = reportFixture();
    expect(reportConclusion('  ', result)).toEqual({ text: draftConclusion(result), drafted: true });
    expect(reportConclusion(' Limits met.\nNo action. ', result)).toEqual({
      text: 'Limits met.\nNo action.',
      drafted: false,
    });
  });
});
