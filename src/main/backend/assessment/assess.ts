/**
 * An assessment from what was read: the excluded periods, every instrument's figures by its type,
 * the calibration evidence, the exceedances of the site's limits and the charts. Pure over its
 * inputs, so it gives the same answer online, offline from the cache and in tests.
 */
import type { AssessmentResult, Exceedance, Figure, HourlyRow, Site } from '../../../shared/assessment';
import type { ActionRecord } from '../../../shared/operations';
import type { AssessmentInputs } from './assessment-inputs';
import { checkEvidence, type VisitOnRecord } from './evidence';
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

export function assess(
  site: Site,
  inputs: AssessmentInputs,
  options: {
    toleranceDb: number;
    sicToleranceDb?: number;
    computedAt: number;
    /** FieldDesk's own action records of an instrument (the calibrator of a calibration it ran). */
    actionRecords?: (serial: string) => readonly ActionRecord[];
    /** FieldDesk's site visits to an instrument (the engineer of a calibration made during one). */
    visitRecords?: (serial: string) => readonly VisitOnRecord[];
  },
): AssessmentResult {
  const { range } = inputs;
  const exclusions = excludedPeriods(site, inputs);
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
    fromCache: inputs.fromCache,
    dataFetchedAt: inputs.dataFetchedAt,
  };
  for (const instrument of inputs.instruments) {
    switch (instrument.kind) {
      case 'noise': {
        const noise = assessNoise(site, instrument, range, exclusions);
        result.figures.push(...noise.figures);
        result.hourly.push(...noise.hourly);
        result.events.push(...noise.events);
        if (noise.chart !== null) result.charts.push(noise.chart);
        result.checks.push(
          ...checkEvidence(instrument, range, options.toleranceDb, options.sicToleranceDb, {
            actions: options.actionRecords?.(instrument.instrument.serial) ?? [],
            timeZone: site.timeZone,
            visits: options.visitRecords?.(instrument.instrument.serial) ?? [],
          }),
        );
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
