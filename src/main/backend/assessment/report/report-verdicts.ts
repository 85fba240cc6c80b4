/**
 * What an assessment report says about its evidence, in words: the calibration verdict per
 * instrument, the excluded time, the basis of the figures, the methods and where the data came
 * from. Each is formed once here so the PDF and the spreadsheets state the same thing.
 */
import type { AssessmentResult, CheckEvidence, ExcludedPeriod, Figure } from '../../../../shared/assessment';
import { dbText } from '../../../../shared/format';
import { intersect, totalLength } from '../../core/intervals';
import { DAY, durationText, toleranceText, valueText, type SiteClock } from './report-format';

/** "NM-1043 (Riverside Close façade)" */
export function instrumentText(result: AssessmentResult, serial: string | null): string {
  if (serial === null) return 'all';
  const instrument = result.instruments.find((i) => i.serial === serial);
  return instrument && instrument.name && instrument.name !== serial
    ? `${serial} (${instrument.name})`
    : serial;
}

/** "within ±0.5 dB" / "outside ±0.5 dB"; empty when there is no drift to judge. */
export function driftVerdict(check: CheckEvidence): string {
  if (check.drift === null || check.driftWithinTolerance === null) return '';
  return `${check.driftWithinTolerance ? 'within' : 'outside'} ${toleranceText(check.tolerance)}`;
}

/**
 * One line per instrument on its calibration: "Calibrated before and after the period; drift 0.1 dB
 * within ±0.5 dB", "No calibration after the period", with failed checks named.
 */
export function calibrationVerdict(result: AssessmentResult, serial: string, clock: SiteClock): string {
  // A `missing` row stands for a calibration not on record: it is said below, never counted as one.
  const checks = result.checks
    .filter((c) => c.serial === serial && c.missing !== true)
    .sort((a, b) => a.time - b.time);
  const calibrations = checks.filter((c) => c.kind === 'calibration');
  const sics = checks.filter((c) => c.kind === 'sic');
  if (checks.length === 0) return 'No calibration or SIC on record';
  const parts: string[] = [];
  const before = calibrations.some((c) => c.when === 'before');
  const after = calibrations.some((c) => c.when === 'after');
  const during = calibrations.some((c) => c.when === 'during');
  if (calibrations.length === 0) parts.push('No calibration on record');
  else if (before && after) parts.push('Calibrated before and after the period');
  else if (before) parts.push('Calibrated before the period; no calibration after the period');
  else if (after) parts.push('No calibration before the period; calibrated after it');
  else if (during) parts.push('Calibrated only during the period, not before or after it');
  // Drift over the survey: of the calibrations made during or after the period.
  const drifts = calibrations.filter((c) => c.when !== 'before' && c.drift !== null);
  if (drifts.length > 0) {
    const largest = drifts.reduce((a, b) => (Math.abs(b.drift!) > Math.abs(a.drift!) ? b : a));
    const words = drifts.length > 1 ? 'largest drift' : 'drift';
    const size = dbText(Math.abs(largest.drift!), { decimals: 1 });
    parts.push(
      `${words} ${size} ${largest.driftWithinTolerance === false ? 'outside' : 'within'} ${toleranceText(largest.tolerance)}`,
    );
  }
  const failed = checks.filter((c) => c.passed === false);
  for (const check of failed) {
    parts.push(`${check.kind === 'sic' ? 'SIC' : 'calibration'} failed ${clock.long(check.time)}`);
  }
  // A SIC the instrument passed with a tone outside its band (see its flag in the evidence table).
  for (const check of sics.filter((c) => c.passed !== false && c.tones?.some((t) => t.within === false))) {
    parts.push(`SIC tone outside its band ${clock.long(check.time)}`);
  }
  if (sics.length > 0 && failed.every((c) => c.kind !== 'sic')) {
    const passed = sics.filter((c) => c.passed === true).length;
    parts.push(
      passed === sics.length ? `${sics.length} SIC passed` : `${passed} of ${sics.length} SIC passed`,
    );
  }
  return parts.join('; ');
}

/** The excluded periods that remove an instrument's data: its own and the site-wide ones. */
export const exclusionsFor = (result: AssessmentResult, serial: string): ExcludedPeriod[] =>
  result.exclusions.filter((e) => e.serial === null || e.serial === serial);

/** Excluded time of an instrument within the period, overlaps counted once (ms). */
export function excludedTime(result: AssessmentResult, serial: string): number {
  const spans = exclusionsFor(result, serial)
    .map((e) => [Math.max(e.start, result.start), Math.min(e.end, result.end)] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [from, to] = [-Infinity, -Infinity];
  for (const [s, e] of spans) {
    if (s > to) {
      if (to > from) total += to - from;
      [from, to] = [s, e];
    } else to = Math.max(to, e);
  }
  if (to > from) total += to - from;
  return total;
}

/** A time (ms) as per cent of the assessed period. */
export const percentOfPeriod = (result: AssessmentResult, ms: number): number =>
  (100 * ms) / Math.max(1, result.end - result.start);

/** "L10 and L90 as the mean of the instrument's interval values" and the like. */
export function settingsText(result: AssessmentResult): string {
  const { statistics, nightEventThreshold, dinLine } = result.settings;
  const method =
    statistics === 'intervals'
      ? "L10 and L90 as the mean of the instrument's own interval values"
      : 'L10 and L90 ranked from the 1-second LAeq time history';
  const line = { 1: 'commercial and industrial buildings', 2: 'dwellings', 3: 'sensitive buildings' }[
    dinLine
  ];
  return `${method}; noise events at night counted at ≥ ${valueText(nightEventThreshold, 'dB')} dB; vibration guideline values of DIN 4150-3 line ${dinLine} (${line}).`;
}

/** "12 days", "1.5 days", or under a day "6 h 30 min". */
function spanText(ms: number): string {
  if (ms < DAY) return durationText(ms);
  const days = Math.round((ms / DAY) * 10) / 10;
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/**
 * Where the data came from, as precisely as the assessment records it: "Read from the service on
 * Thu 26 Nov 2026 09:30; 12 days of the period’s 40 days from the copy kept on this computer, the
 * oldest of it read from the service on Wed 25 Nov 2026 18:05". An older result, which kept only
 * whether any read was answered by the copy and the oldest read, says the span every reading was
 * read within.
 */
export function dataSourceText(result: AssessmentResult, clock: SiteClock): string {
  const origin = result.dataOrigin;
  if (origin !== undefined) {
    const period = { start: result.start, end: result.end };
    const copied = totalLength(intersect(origin.fromCopy, [period]));
    const parts: string[] = [];
    if (origin.readAt !== null) parts.push(`read from the service on ${clock.long(origin.readAt)}`);
    if (copied > 0 && origin.copyReadAt !== null) {
      const whole = copied >= period.end - period.start;
      parts.push(
        `${whole ? 'all of the period' : `${spanText(copied)} of the period’s ${spanText(period.end - period.start)}`} from the copy kept on this computer, the oldest of it read from the service on ${clock.long(origin.copyReadAt)}`,
      );
    }
    const text = parts.length === 0 ? 'no data was read from the service' : parts.join('; ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  }
  if (!result.fromCache) return 'Fetched from the service for this report';
  const assessed = clock.long(result.computedAt);
  if (result.dataFetchedAt === null) return `No data was read from the service; assessed ${assessed}`;
  return `Read from the service between ${clock.long(result.dataFetchedAt)} and ${assessed}, when it was assessed; what had been read before the assessment came from the copy FieldDesk keeps on this computer`;
}

/**
 * "EXCEEDS", "met", "not assessable" for a figure with a limit that could not be stated
 * (insufficient data, all excluded or no readings: never an exceedance), or "" without a limit.
 */
export function figureResult(figure: Figure): string {
  if (figure.limit === null) return '';
  if (figure.state !== 'ok' || figure.valid === null) return 'not assessable';
  return figure.exceeds ? 'EXCEEDS' : 'met';
}

/** The distinct method sentences of the figures, each with the figures it describes, in order. */
export function methodGroups(result: AssessmentResult): Array<{ method: string; figures: Figure[] }> {
  const groups = new Map<string, Figure[]>();
  for (const figure of result.figures) {
    const list = groups.get(figure.method);
    if (list) list.push(figure);
    else groups.set(figure.method, [figure]);
  }
  return [...groups].map(([method, figures]) => ({ method, figures }));
}
