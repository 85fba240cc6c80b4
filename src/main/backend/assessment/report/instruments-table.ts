/**
 * The report's instruments table, one for the PDF and the spreadsheets: each instrument with where
 * it measured (the site's description, height above ground, free-field or façade, and the latitude
 * and longitude it reports), its excluded time and its calibration verdict.
 */
import {
  EMPTY_SITE_POSITIONS,
  POSITION_KIND_WORDS,
  positionOf,
  type AssessedInstrument,
  type AssessmentResult,
  type SitePositions,
} from '../../../../shared/assessment';
import { writtenDecimals } from '../../../../shared/assessment-summary';
import { positionCell } from './measurement-positions';
import { tableView, type ReportTableView } from './report-columns';
import { durationText, rounded, type SiteClock } from './report-format';
import { calibrationVerdict, excludedTime, instrumentText, percentOfPeriod } from './report-verdicts';

/** "6 h 45 min (9.4 %)": an instrument's excluded time and its share of the period. */
export function excludedShareText(result: AssessmentResult, serial: string): string {
  const ms = excludedTime(result, serial);
  return `${durationText(ms)} (${percentOfPeriod(result, ms).toFixed(1)} %)`;
}

/** "51.50735, -0.12776", or that the instrument reports none. */
const latLongText = (instrument: AssessedInstrument): string =>
  instrument.position
    ? `${instrument.position.lat.toFixed(5)}, ${instrument.position.long.toFixed(5)}`
    : 'lat, long not reported';

export function instrumentsTable(
  result: AssessmentResult,
  clock: SiteClock,
  positions: SitePositions = EMPTY_SITE_POSITIONS,
): ReportTableView {
  const at = (i: AssessedInstrument) => positionOf(positions, i.serial);
  return tableView(
    'instruments',
    'Instruments',
    result.instruments,
    [
      { header: 'Serial', value: (i) => i.serial },
      { header: 'Name', value: (i) => i.name },
      { header: 'Type', value: (i) => i.type },
      { header: 'Model', value: (i) => i.model },
      { header: 'Latitude', value: (i) => rounded(i.position?.lat ?? null, 5), decimals: () => 5 },
      { header: 'Longitude', value: (i) => rounded(i.position?.long ?? null, 5), decimals: () => 5 },
      { header: 'Time zone', value: () => result.timeZone },
      { header: 'Measurement position', value: (i) => at(i).description || null },
      {
        header: 'Height above ground (m)',
        value: (i) => at(i).height,
        // As entered: 1.5 m reads 1.5, 1.25 m reads 1.25.
        decimals: (i) => Math.max(1, writtenDecimals(at(i).height ?? 0)),
      },
      { header: 'Free-field or façade', value: (i) => POSITION_KIND_WORDS[at(i).kind] },
      {
        header: 'Excluded (% of period)',
        value: (i) => rounded(percentOfPeriod(result, excludedTime(result, i.serial)), 1),
        decimals: () => 1,
      },
      { header: 'Calibration and SIC', value: (i) => calibrationVerdict(result, i.serial, clock) },
    ],
    [
      { header: 'Instrument', text: (i) => instrumentText(result, i.serial), weight: 16 },
      { header: 'Type / model', text: (i) => [i.type, i.model].filter(Boolean).join(' / '), weight: 12 },
      {
        header: 'Measurement position (lat, long)',
        text: (i) => positionCell(at(i), latLongText(i)),
        weight: 24,
      },
      { header: 'Excluded time', text: (i) => excludedShareText(result, i.serial), weight: 12 },
      { header: 'Calibration and SIC', text: (i) => calibrationVerdict(result, i.serial, clock), weight: 36 },
    ],
  );
}
