/**
 * The excluded periods of an assessment: the engineer's manual ones and what the site's rules find
 * in the data (wind, rain, a failed calibration or SIC until the next pass, no readings, overload).
 * Each says why in words. The measured data is never changed: figures are computed twice, with
 * and without these periods.
 */
import type { ExcludedPeriod, ExclusionRuleId, Site } from '../../../shared/assessment';
import type { DataReadResult, SeriesChannel, TimeInterval } from '../../../shared/data';
import { failedCheckPeriods, flaggedPeriods, gapPeriods, thresholdPeriods } from './figures/exclusion-rules';
import { samplesOf, type Samples } from './figures/samples';
import type { AssessmentInputs, InstrumentInputs } from './assessment-inputs';
import { DEFAULT_SETTINGS } from '../../../shared/operations';
import { checkVerdicts, judgeChecks, type CheckVerdict } from './evidence';

/** The usual spacing of a series' readings: the median step (robust to gaps and a stray short one). */
export function nominalStepMs(times: Float64Array): number {
  if (times.length < 2) return 60_000;
  const steps: number[] = [];
  const stride = Math.max(1, Math.floor(times.length / 2000));
  for (let i = stride; i < times.length; i += stride) {
    const step = (times[i]! - times[i - stride]!) / stride;
    if (step > 0) steps.push(step);
  }
  steps.sort((a, b) => a - b);
  return steps.length === 0 ? 60_000 : steps[Math.floor(steps.length / 2)]!;
}

export const channelOf = (result: DataReadResult | null | undefined, name: string): SeriesChannel | null =>
  result?.series.find((channel) => channel.name === name) ?? null;

/** A channel's readings as samples of its nominal length. */
export function samplesOfChannel(channel: SeriesChannel): Samples {
  return samplesOf(channel, nominalStepMs(channel.times));
}

/** The main series an instrument's "no readings" is judged on. */
function mainChannel(inputs: InstrumentInputs): SeriesChannel | null {
  switch (inputs.kind) {
    case 'noise':
      return channelOf(inputs.reads.noiseMeasurements, 'LAeq');
    case 'vibration':
      return channelOf(inputs.reads.vibrationPPV, 'vMaxZ');
    case 'airquality':
      return channelOf(inputs.reads.particulates, 'pM10');
    default:
      return null;
  }
}

/** Why time without a wind reading is left out, as the excluded periods say it. */
export const NO_WIND_READING = 'No wind reading (wind rule on)';

/** An instrument's checks of one kind as the failed-check rule reads them: passed, or not. */
/**
 * The verdict of each of an instrument's checks, as its evidence row states it. Without FieldDesk's
 * own records (and at the default SIC tolerance) that is the instrument's status.
 */
export type VerdictsOf = (inputs: InstrumentInputs) => CheckVerdict[];

const statusVerdicts =
  (timeZone: string): VerdictsOf =>
  (inputs) =>
    checkVerdicts(judgeChecks(inputs, DEFAULT_SETTINGS.sicToleranceDb, { actions: [], timeZone }));

const clipTo = (range: TimeInterval) => (period: TimeInterval) => ({
  start: Math.max(range.start, period.start),
  end: Math.min(range.end, period.end),
});

function ruleExclusions(
  site: Site,
  inputs: InstrumentInputs,
  range: TimeInterval,
  siteWeather: { serial: string; read: DataReadResult } | null,
  weatherMeasured: boolean,
  verdictsOf: VerdictsOf,
): ExcludedPeriod[] {
  const { serial } = inputs.instrument;
  const found: ExcludedPeriod[] = [];
  const add = (cause: ExclusionRuleId, periods: TimeInterval[], reason: (p: TimeInterval) => string) => {
    for (const period of periods.map(clipTo(range)))
      if (period.end > period.start) found.push({ ...period, serial, cause, reason: reason(period) });
  };
  const { rules } = site;
  // An instrument without its own weather station is judged by the site's.
  const ownWeather = inputs.reads.weather ?? null;
  const weather = ownWeather ?? siteWeather?.read ?? null;
  // Where the weather was measured, said on every instrument's row alike: the site's wind is one
  // period for all its monitors, and a report lists it once, naming them all.
  const station = ownWeather !== null ? serial : (siteWeather?.serial ?? null);
  const measuredBy = station === null ? '' : `, measured at ${station}`;
  const wind = channelOf(weather, 'windSpeed');
  if (rules.wind && wind !== null) {
    for (const run of thresholdPeriods(samplesOfChannel(wind), (v) => v > rules.windLimit))
      add(
        'wind',
        [run],
        () => `Wind above ${rules.windLimit} m/s (up to ${run.peak.toFixed(1)} m/s${measuredBy})`,
      );
  }
  // No wind reading is not calm: unknown (more than two readings missing), and left out unless the site counts it as calm. Where
  // the site measures weather but none could be read, the whole period is without a reading.
  if (rules.wind && rules.windUnknown === 'exclude' && (wind !== null || weatherMeasured)) {
    // A missed reading or two is bridged, as the offline rule bridges them: a 1-min wind gap
    // would otherwise drop the whole 15-min noise value around it (the demo misses ~6 a day).
    const unread =
      wind === null ? [range] : gapPeriods(samplesOfChannel(wind), range, nominalStepMs(wind.times));
    add('wind', unread, () => NO_WIND_READING);
  }
  const rain = channelOf(weather, 'precipitation');
  if (rules.precipitation && rain !== null) {
    for (const run of thresholdPeriods(samplesOfChannel(rain), (v) => v > 0))
      add('precipitation', [run], () => `Precipitation (up to ${run.peak.toFixed(1)} mm/h${measuredBy})`);
  }
  if (rules.failedCheck) {
    // A check without a verdict is not a passed one: the time after it stays out until one passes.
    const checks = verdictsOf(inputs).map((check) => ({ ...check, passed: check.passed === true }));
    for (const period of failedCheckPeriods(checks, range))
      add('failedCheck', [period], () =>
        period.kind === 'calibration'
          ? 'After a failed calibration, until the next passed one'
          : 'After a failed system integrity check, until the next passed one',
      );
  }
  const main = mainChannel(inputs);
  if (rules.offline && main !== null) {
    const samples = samplesOfChannel(main);
    const step = nominalStepMs(main.times);
    add('offline', gapPeriods(samples, range, step), () => 'No readings from the instrument');
  }
  const table = inputs.reads.noiseMeasurements?.records;
  if (rules.overload && table) {
    const starts: number[] = [];
    const ends: number[] = [];
    const flags: Array<boolean | null> = [];
    for (const row of table.rows) {
      const start = row.startTime;
      const end = row.endTime;
      if (typeof start !== 'number' || typeof end !== 'number') continue;
      starts.push(start);
      ends.push(end);
      flags.push(typeof row.overload === 'boolean' ? row.overload : null);
    }
    add(
      'overload',
      flaggedPeriods(Float64Array.from(starts), Float64Array.from(ends), flags),
      () => 'The instrument reported an overload',
    );
  }
  return found;
}

/**
 * Every excluded period of the site over the range, manual ones first, each cause oldest first.
 * `verdictsOf` gives the checks' verdicts the failed-check rule acts on: the assessment passes the
 * ones its evidence prints (FieldDesk's own where it ran the check).
 */
export function excludedPeriods(
  site: Site,
  inputs: AssessmentInputs,
  verdictsOf: VerdictsOf = statusVerdicts(site.timeZone),
): ExcludedPeriod[] {
  const { range } = inputs;
  const manual: ExcludedPeriod[] = site.exclusions
    .filter((e) => e.end > range.start && e.start < range.end)
    .map((e) => ({
      start: Math.max(range.start, e.start),
      end: Math.min(range.end, e.end),
      serial: e.serial,
      cause: 'manual',
      reason: e.reason,
    }));
  const withWeather = inputs.instruments.find((i) => i.reads.weather);
  // A weather read was asked for (it may have failed: null): the site has a weather station.
  const weatherMeasured = inputs.instruments.some((i) => i.reads.weather !== undefined);
  const siteWeather = withWeather?.reads.weather
    ? { serial: withWeather.instrument.serial, read: withWeather.reads.weather }
    : null;
  const byRule = inputs.instruments.flatMap((instrument) =>
    ruleExclusions(site, instrument, range, siteWeather, weatherMeasured, verdictsOf),
  );
  return [...manual, ...byRule.sort((a, b) => a.start - b.start)];
}

/** The excluded intervals that apply to one instrument (its own and the site-wide ones). */
export function excludedFor(serial: string, periods: readonly ExcludedPeriod[]): TimeInterval[] {
  return periods
    .filter((p) => p.serial === null || p.serial === serial)
    .map(({ start, end }) => ({ start, end }));
}
