/**
 * The noise figures of one monitor over an assessment period, in the site's time zone: LAeq of the
 * whole period, of each day (07–23), evening (19–23) and night (23–07), Lden per day and overall
 * (Directive 2002/49/EC), LA10 and LA90 per day and night (from the instrument's interval values or
 * ranked from the 1 s time history, as the site chooses), LAFMax and the events above a threshold
 * per night, and the hourly table — each with and without the excluded time.
 */
import type {
  AssessmentChart,
  ExcludedPeriod,
  Figure,
  HourlyRow,
  NoiseEventRef,
  Site,
} from '../../../shared/assessment';
import type { TimeInterval } from '../../../shared/data';
import type { InstrumentInputs } from './assessment-inputs';
import { channelOf } from './exclusions';
import { chartOf, coverageOf, limitLines, type FigurePeriod } from './figure-builder';
import { exceededLevel, leq, maxLevel, meanOfIntervals } from './figures/noise-figures';
import { sitePeriods, type SitePeriod } from './figures/site-periods';
import { noiseChannels, type NoiseChannels } from './noise-channels';
import { noiseFigureMaker } from './noise-figure-maker';
import { intersect, totalLength } from '../core/intervals';

export interface NoiseAssessment {
  figures: Figure[];
  hourly: HourlyRow[];
  events: NoiseEventRef[];
  chart: AssessmentChart | null;
}

const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** The figures, hourly rows, events and chart of one monitor: its channels, then each period's figures. */
export function assessNoise(
  site: Site,
  inputs: InstrumentInputs,
  range: TimeInterval,
  exclusions: readonly ExcludedPeriod[],
): NoiseAssessment {
  const { serial } = inputs.instrument;
  const { limits, settings, timeZone } = site;
  const channels = noiseChannels(site, inputs, range, exclusions);
  const make = noiseFigureMaker(site, serial, channels);
  const whole: FigurePeriod = { ...range, label: 'whole period' };
  const days = sitePeriods(range, timeZone, 'day');
  const evenings = sitePeriods(range, timeZone, 'evening');
  const nights = sitePeriods(range, timeZone, 'night');
  const denDays = sitePeriods(range, timeZone, 'denDay');
  const events = eventRefs(inputs, nights, channels.excluded);

  const figures = [
    make.leqFigure('LAeq,T', null, whole),
    ...days.flatMap((day) => [
      make.leqFigure('LAeq,day', 'LAeq,day', day),
      make.statisticFigure(10, 'LA10,day', 'LA10,day', day),
      make.statisticFigure(90, 'LA90,day', 'LA90,day', day),
    ]),
    ...evenings.map((evening) => make.leqFigure('LAeq,evening', 'LAeq,evening', evening)),
    ...nights.flatMap((night) => [
      make.leqFigure('LAeq,night', 'LAeq,night', night),
      make.statisticFigure(10, 'LA10,night', 'LA10,night', night),
      make.statisticFigure(90, 'LA90,night', 'LA90,night', night),
      make.lafmaxFigure(night),
      inputs.reads.events ? make.eventCountFigure(night, events) : null,
    ]),
    ...make.denFigures(evenings, nights, denDays, whole),
  ].filter((figure): figure is Figure => figure !== null);

  return {
    figures,
    hourly: hourlyRows(serial, range, timeZone, channels, settings.minimumCoverage),
    events,
    chart:
      channels.laeq === null
        ? null
        : chartOf(
            serial,
            `${serial} LAeq (${make.step})`,
            channelOf(inputs.reads.noiseMeasurements, 'LAeq')!,
            limitLines(limits, ['LAeq,day', 'LAeq,night']),
            range,
          ),
  };
}

function eventRefs(
  inputs: InstrumentInputs,
  nights: SitePeriod[],
  excluded: TimeInterval[],
): NoiseEventRef[] {
  const table = inputs.reads.events?.records;
  if (!table) return [];
  const within = (t: number, periods: readonly TimeInterval[]) =>
    periods.some((p) => t >= p.start && t < p.end);
  return table.rows.flatMap((row) => {
    const start = row.startTime;
    if (typeof start !== 'number') return [];
    const end = typeof row.endTime === 'number' ? row.endTime : null;
    return [
      {
        serial: inputs.instrument.serial,
        start,
        end,
        level: typeof row.level === 'number' ? row.level : null,
        trigger: typeof row.name === 'string' ? row.name : String(row.type ?? 'Event'),
        audioId: typeof row.audioId === 'string' && row.audioId !== '' ? row.audioId : null,
        atNight: within(start, nights),
        excluded: within(start, excluded),
      },
    ];
  });
}

function hourlyRows(
  serial: string,
  range: TimeInterval,
  timeZone: string,
  { laeq, lafmax, history, laf10, laf90, excluded }: NoiseChannels,
  minimumCoverage: number,
): HourlyRow[] {
  if (laeq === null) return [];
  return sitePeriods(range, timeZone, 'hour').map((hour) => {
    const statistic = (percent: 10 | 90) => {
      if (history !== null) return exceededLevel(history.samples, hour, percent, history.mask);
      const channel = percent === 10 ? laf10 : laf90;
      return channel === null ? null : meanOfIntervals(channel.samples, hour, channel.mask).value;
    };
    const valid = leq(laeq.samples, hour, laeq.mask);
    const coverage = coverageOf(valid.seconds, hour);
    return {
      serial,
      start: hour.start,
      end: hour.end,
      label: hour.label,
      laeq: round1(leq(laeq.samples, hour).value),
      laeqValid: round1(valid.value),
      coverage,
      sufficient: valid.value !== null && coverage + 1e-9 >= minimumCoverage,
      lafmax: round1(lafmax === null ? null : (maxLevel(lafmax.samples, hour, lafmax.mask)?.value ?? null)),
      la10: round1(statistic(10)),
      la90: round1(statistic(90)),
      excludedMinutes: Math.round(totalLength(intersect(excluded, [hour])) / 60_000),
    };
  });
}
