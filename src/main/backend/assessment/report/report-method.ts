/**
 * The report's method in words, formed once for the PDF and the spreadsheets: the period and its
 * clock, where the data came from, where the instruments measured, the exclusion rules that were on, how the statistics were
 * formed, the coverage rule, the comparison rule and the standards cited. Only what concerns what
 * the site measures is said: a noise-only site's report says nothing of DIN 4150-3 or
 * particulates, an air-quality site's nothing of L10 or noise events.
 */
import { coverageText } from '../../../../shared/figure-text';
import { positionsMethodText } from './measurement-positions';
import type { ReportDocument } from './report-document';
import { measuredBy } from './report-document';
import { valueText, type SiteClock } from './report-format';
import { dataSourceText } from './report-verdicts';

export interface MethodItem {
  /** "Coverage rule" */
  topic: string;
  text: string;
}

const DIN_LINES = { 1: 'commercial and industrial buildings', 2: 'dwellings', 3: 'sensitive buildings' };

/** The method, a topic a paragraph, in the order the report prints them. */
export function methodItems(report: ReportDocument, clock: SiteClock): MethodItem[] {
  const { result, rules } = report;
  const measured = measuredBy(result);
  const noise = measured.includes('noise');
  const vibration = measured.includes('vibration');
  const air = measured.includes('airquality');
  const { statistics, nightEventThreshold, dinLine, minimumCoverage } = result.settings;
  const items: MethodItem[] = [];

  items.push({
    topic: 'Period',
    text: `${clock.long(result.start, true)} to ${clock.long(result.end, true)} ${clock.zoneText(result.start, result.end)}. Day, evening and night are counted on the site's clock: day 07:00–23:00 (evening 19:00–23:00 within it), night 23:00–07:00, across any change of daylight-saving time.`,
  });
  items.push({ topic: 'Data', text: `${dataSourceText(result, clock)}.` });
  items.push({
    topic: 'Measurement positions',
    text: positionsMethodText(result, report.positions, noise),
  });

  const excluding: string[] = [];
  if (noise && rules.wind)
    excluding.push(
      `wind above ${valueText(rules.windLimit, 'm/s')} m/s${
        rules.windUnknown === 'exclude'
          ? ', and time without a wind reading (more than two readings missing), as its wind is unknown'
          : ' (time without a wind reading counted as calm)'
      }`,
    );
  if (noise && rules.precipitation) excluding.push('any precipitation');
  if (noise && rules.failedCheck)
    excluding.push('the time from a failed calibration or SIC until the next passed one');
  if (rules.offline) excluding.push('gaps in the readings of more than two samples');
  if ((noise || vibration) && rules.overload) excluding.push('readings the instrument flagged as overloaded');
  const manual = result.exclusions.filter((e) => e.cause === 'manual').length;
  items.push({
    topic: 'Exclusions',
    text: `${excluding.length > 0 ? `Excluded by rule: ${excluding.join('; ')}.` : 'No exclusion rule was on.'}${(result.unjudgedRules ?? []).map((rule) => ` ${rule}`).join('')} ${manual === 0 ? 'No period was excluded by hand.' : `${manual === 1 ? 'One period was' : `${manual} periods were`} excluded by hand, each with its reason.`} Each figure is formed with the excluded time removed: an interval value (a 15-min LAeq, a 1-min PM10) that touches excluded time is left out whole, since a reading cannot be split, and the time it covers no longer counts towards the figure's coverage. The figures of one period (LAeq, LA10, LA90, LAFMax of a night) are formed over the same kept time: a gap in one of them removes that time from all.`,
  });

  if (noise) {
    items.push({
      topic: 'Noise statistics',
      text: `${
        statistics === 'intervals'
          ? "LA10 and LA90 are the arithmetic mean of the instrument's own interval values (LAF10, LAF90) over the period"
          : 'LA10 and LA90 are ranked from the 1-second LAeq time history of the period'
      }; LAeq is the energetic mean of the interval values; LAFMax is the highest of the period, its time found to the second in the 1-second time history where it can be read. Noise events at night are counted when their level reaches ${valueText(nightEventThreshold, 'dB')} dB.`,
    });
  }
  if (vibration) {
    items.push({
      topic: 'Vibration',
      text: `PPV is the highest peak particle velocity per axis, judged against the site's limit (BS 5228-2) and against the guideline values of DIN 4150-3 line ${dinLine} (${DIN_LINES[dinLine]}) at its dominant frequency. VDV is formed per day and night period from the instrument's VDV values (BS 6472-1).`,
    });
  }
  if (air) {
    items.push({
      topic: 'Particulates',
      text: 'PM10 and PM2.5 are judged as 24-hour means of the instrument readings, each day in site time.',
    });
  }

  items.push({
    topic: 'Coverage rule',
    text: `A figure needs at least ${coverageText(minimumCoverage)} of its period kept (read and not excluded). Below that it reads "insufficient data" with the share that was kept ("all excluded" when readings were made and none was kept), is never an exceedance and is counted as not assessable; a period without readings reads "no readings", never zero. A limit is met only where every period could be assessed; otherwise the summary says on how many periods it was met and how many could not be assessed.`,
  });
  items.push({
    topic: 'Comparison rule',
    text: 'A value is over its limit when the value as stated (rounded to its shown precision) is above it; a value equal to its limit meets it. Counts of periods over a limit use the same rule, so the tables and the counts agree.',
  });

  const standards: string[] = [];
  if (noise)
    standards.push(
      'ISO 1996-1:2016 and BS 7445-1:2003 (description and measurement of environmental noise: LAeq, LAFMax, LA10, LA90)',
      'Directive 2002/49/EC, Annex I (Lden)',
    );
  if (vibration)
    standards.push(
      'BS 5228-2:2009+A1:2014 (vibration from construction: PPV)',
      'DIN 4150-3:2016-12 (effects of vibration on structures)',
      'BS 6472-1:2008 (human exposure to vibration in buildings: VDV)',
    );
  if (air)
    standards.push('Directive 2008/50/EC and Directive (EU) 2024/2881 (ambient air quality: PM10, PM2.5)');
  if (standards.length > 0) items.push({ topic: 'Standards', text: `${standards.join('; ')}.` });
  return items;
}
