/**
 * An assessment from what was read: the excluded periods, every instrument's figures by its type,
 * the calibration evidence, the exceedances of the site's limits and the charts. Pure over its
 * inputs, so it gives the same answer online, offline from the cache and in tests.
 *
 * Formed in steps, one instrument at a time: `assess()` runs them at once; `assessInSteps()`
 * gives the event loop a turn between them, says how far it is and stops when cancelled, so a
 * year of a large site never holds the backend (and its Cancel) for the whole computation.
 */
import type { AssessmentResult, Exceedance, Figure, HourlyRow, Site } from '../../../shared/assessment';
import { DEFAULT_SETTINGS, type ActionRecord } from '../../../shared/operations';
import { FieldDeskError } from '../../../shared/errors';
import type { AssessmentInputs, InstrumentInputs } from './assessment-inputs';
import { checkEvidence, checkVerdicts, judgeChecks, type JudgedChecks, type VisitOnRecord } from './evidence';
import { excludedPeriods } from './exclusions';
import { assessNoise } from './noise-assessment';
import { assessAirQuality, assessVibration } from './vibration-air-assessment';

function exceedancesOf(figures: Figure[], hourly: HourlyRow[], site: Site): Exceedance[] {
  const fromFigures = figures.flatMap((figure) =>
    figure.exceeds && figure.valid !== null && figure.limit !== null
      ? [
          {
            figureId: figure.id,
            ...(figure.at === undefined ? {} : { at: figure.at }),
            serial: figure.serial,
            label: figure.label,
            period: figure.period,
            start: figure.start,
            end: figure.end,
            value: figure.valid,
            limit: figure.limit,
            unit: figure.unit,
            decimals: figure.decimals,
          },
        ]
      : [],
  );
  const hourlyLimit = site.limits['LAeq,1h'];
  const fromHours =
    hourlyLimit === undefined
      ? []
      : hourly.flatMap((row) =>
          row.sufficient && row.laeqValid !== null && row.laeqValid > hourlyLimit
            ? [
                {
                  figureId: `${row.serial}|LAeq,1h|${row.start}`,
                  serial: row.serial,
                  label: 'LAeq,1h',
                  period: row.label,
                  start: row.start,
                  end: row.end,
                  value: row.laeqValid,
                  limit: hourlyLimit,
                  unit: 'dB',
                  decimals: 1,
                },
              ]
            : [],
        );
  return [...fromFigures, ...fromHours].sort((a, b) => a.start - b.start || a.serial.localeCompare(b.serial));
}

export interface AssessOptions {
  toleranceDb: number;
  sicToleranceDb?: number;
  computedAt: number;
  /** FieldDesk's own action records of an instrument (the calibrator of a calibration it ran). */
  actionRecords?: (serial: string) => readonly ActionRecord[];
  /** FieldDesk's site visits to an instrument (the engineer of a calibration made during one). */
  visitRecords?: (serial: string) => readonly VisitOnRecord[];
}

/** How far the computing is: `done` of `total` instruments, the next one being `serial`. */
export interface AssessStep {
  done: number;
  total: number;
  /** The instrument computed next; null once all are. */
  serial: string | null;
}

/**
 * The assessment, yielding after the excluded periods and after each instrument. The result is
 * whole only once the generator returns it.
 */
function* assessmentSteps(
  site: Site,
  inputs: AssessmentInputs,
  options: AssessOptions,
): Generator<AssessStep, AssessmentResult> {
  const { range } = inputs;
  const total = inputs.instruments.length;
  yield { done: 0, total, serial: inputs.instruments[0]?.instrument.serial ?? null };
  // Each instrument's checks judged once (FieldDesk's verdict where it ran the check): the
  // failed-check rule acts on the very verdicts the evidence prints.
  const judged = new Map<string, JudgedChecks>();
  const judgedOf = (instrument: InstrumentInputs): JudgedChecks => {
    const { serial } = instrument.instrument;
    let checks = judged.get(serial);
    if (checks === undefined) {
      checks = judgeChecks(instrument, options.sicToleranceDb ?? DEFAULT_SETTINGS.sicToleranceDb, {
        actions: options.actionRecords?.(serial) ?? [],
        timeZone: site.timeZone,
        visits: options.visitRecords?.(serial) ?? [],
      });
      judged.set(serial, checks);
    }
    return checks;
  };
  const exclusions = excludedPeriods(site, inputs, (instrument) => checkVerdicts(judgedOf(instrument)));
  const result: AssessmentResult = {
    siteId: site.id,
    siteName: site.name,
    timeZone: site.timeZone,
    start: range.start,
    end: range.end,
    computedAt: options.computedAt,
    settings: site.settings,
    instruments: inputs.instruments.map((i) => i.instrument),
    exclusions,
    figures: [],
    hourly: [],
    exceedances: [],
    checks: [],
    events: [],
    charts: [],
    notes: [...inputs.notes],
    unjudgedRules: unjudgedRules(site, inputs),
    fromCache: inputs.fromCache,
    dataFetchedAt: inputs.dataFetchedAt,
    ...(inputs.dataOrigin ? { dataOrigin: inputs.dataOrigin } : {}),
  };
  for (const [index, instrument] of inputs.instruments.entries()) {
    if (index > 0) yield { done: index, total, serial: instrument.instrument.serial };
    switch (instrument.kind) {
      case 'noise': {
        const noise = assessNoise(site, instrument, range, exclusions);
        result.figures.push(...noise.figures);
        result.hourly.push(...noise.hourly);
        result.events.push(...noise.events);
        if (noise.chart !== null) result.charts.push(noise.chart);
        result.checks.push(...checkEvidence(judgedOf(instrument), range, options.toleranceDb));
        if (noise.figures.length === 0)
          result.notes.push(`${instrument.instrument.serial} has no noise levels in this period.`);
        break;
      }
      case 'vibration': {
        const part = assessVibration(site, instrument, range, exclusions);
        result.figures.push(...part.figures);
        result.charts.push(...part.charts);
        if (part.ppvScatter) (result.ppvScatter ??= []).push(part.ppvScatter);
        break;
      }
      case 'airquality': {
        const part = assessAirQuality(site, instrument, range, exclusions);
        result.figures.push(...part.figures);
        result.charts.push(...part.charts);
        break;
      }
      default:
        result.notes.push(
          `${instrument.instrument.serial} is a ${instrument.instrument.type} instrument, which an assessment does not cover.`,
        );
    }
  }
  result.exceedances = exceedancesOf(result.figures, result.hourly, site);
  return result;
}

export function assess(site: Site, inputs: AssessmentInputs, options: AssessOptions): AssessmentResult {
  const steps = assessmentSteps(site, inputs, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Gives the event loop a turn: pending I/O, a Cancel among it, is handled before going on. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The same assessment as `assess()`, giving the event loop a turn before each step and calling
 * `onStep` with how far it is. Throws `cancelled` at the first step after `signal` is aborted.
 */
export async function assessInSteps(
  site: Site,
  inputs: AssessmentInputs,
  options: AssessOptions,
  how: { signal?: AbortSignal; onStep?: (step: AssessStep) => void } = {},
): Promise<AssessmentResult> {
  const steps = assessmentSteps(site, inputs, options);
  for (;;) {
    await turn();
    if (how.signal?.aborted === true) throw new FieldDeskError('cancelled', 'The assessment was cancelled.');
    const step = steps.next();
    if (step.done === true) {
      how.onStep?.({ done: inputs.instruments.length, total: inputs.instruments.length, serial: null });
      return step.value;
    }
    how.onStep?.(step.value);
  }
}

/**
 * The weather rules that are on for a site whose noise monitors no instrument measures weather
 * for: they cannot exclude anything, which the report must say rather than stay silent.
 */
function unjudgedRules(site: Site, inputs: AssessmentInputs): string[] {
  const noise = inputs.instruments.some((i) => i.kind === 'noise');
  // A weather read was asked for (even one that failed) only for an instrument that measures it.
  const weather = inputs.instruments.some((i) => i.reads.weather !== undefined);
  if (!noise || weather) return [];
  const why = 'no instrument of the site measures weather';
  return [
    ...(site.rules.wind
      ? [`The wind rule could not be judged: ${why}, so no time was excluded for wind.`]
      : []),
    ...(site.rules.precipitation
      ? [`The precipitation rule could not be judged: ${why}, so no time was excluded for rain.`]
      : []),
  ];
}
