/**
 * The noise figures of one monitor over an assessment period, in the site's time zone: LAeq of the
 * whole period, of each day (07–23), evening (19–23) and night (23–07), Lden per day and overall
 * (Directive 2002/49/EC), LA10 and LA90 per day and night (from the instrument's interval values or
 * ranked from the 1 s time history, as the site chooses), LAFMax and the events above a threshold
 * per night, and the hourly table — each with and without the excluded time.
 */
import { toEnergy, toLevel } from '../../../shared/acoustics';
import type { ExcludedPeriod, Figure, HourlyRow, NoiseEventRef, Site } from '../../../shared/assessment';
import type { SeriesChannel, TimeInterval } from '../../../shared/data';
import {
  ASSESSMENT_NOISE_OPTIONS,
  ASSESSMENT_TIME_HISTORY_OPTIONS,
  type InstrumentInputs,
} from './assessment-inputs';
import { channelOf, excludedFor, samplesOfChannel } from './exclusions';
import { chartOf, coverageOf, figureOf, limitLines, type FigurePeriod } from './figure-builder';
import {
  countEventsAbove,
  exceededLevel,
  leq,
  lden,
  maxLevel,
  meanOfIntervals,
} from './figures/noise-figures';
import { unreadPeriods } from './figures/exclusion-rules';
import { exclusionMask, type Samples } from './figures/samples';
import { momentLabel, sitePeriods, type SitePeriod } from './figures/site-periods';
import type { AssessmentChart } from '../../../shared/assessment';
import { intersect, normalize, totalLength } from '../core/intervals';

export interface NoiseAssessment {
  figures: Figure[];
  hourly: HourlyRow[];
  events: NoiseEventRef[];
  chart: AssessmentChart | null;
}

const minutesLabel = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000}-min` : `${ms / 1000} s`;

interface Channel {
  samples: Samples;
  mask: Uint8Array;
  stepMs: number;
}

/** A channel's readings as samples with their length; null without readings. */
function samplesWithStep(channel: SeriesChannel | null): Omit<Channel, 'mask'> | null {
  if (channel === null || channel.times.length === 0) return null;
  const samples = samplesOfChannel(channel);
  return { samples, stepMs: samples.ends[0]! - samples.starts[0]! };
}

const withMask = (channel: Omit<Channel, 'mask'> | null, excluded: TimeInterval[]): Channel | null =>
  channel === null ? null : { ...channel, mask: exclusionMask(channel.samples, excluded) };

const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

export function assessNoise(
  site: Site,
  inputs: InstrumentInputs,
  range: TimeInterval,
  exclusions: readonly ExcludedPeriod[],
): NoiseAssessment {
  const { serial } = inputs.instrument;
  const { limits, settings, timeZone } = site;
  const excluded = normalize(excludedFor(serial, exclusions));
  const measurements = inputs.reads.noiseMeasurements;
  const useTimeHistory = settings.statistics === 'timeHistory';
  const rowSamples = {
    laeq: samplesWithStep(channelOf(measurements, 'LAeq')),
    lafmax: samplesWithStep(channelOf(measurements, 'LAFMax')),
    history: useTimeHistory ? samplesWithStep(channelOf(inputs.reads.noiseTimeHistory, 'LAeq')) : null,
    laf10: useTimeHistory ? null : samplesWithStep(channelOf(measurements, 'LAF10')),
    laf90: useTimeHistory ? null : samplesWithStep(channelOf(measurements, 'LAF90')),
  };
  // The kept time of a row: not excluded, and read by every channel its figures come from.
  const kept = keptExcluded(excluded, Object.values(rowSamples), range);
  const laeq = withMask(rowSamples.laeq, kept);
  const lafmax = withMask(rowSamples.lafmax, kept);
  // The 1 s history keeps only the seconds of the intervals LAeq keeps: an interval that touches
  // excluded time is left out whole, so LA10/LA90 ranked from the history rest on the same kept
  // time as LAeq (not 88 % of a night where LAeq keeps 64 %).
  const history = withMask(rowSamples.history, laeq === null ? kept : [...kept, ...droppedIntervals(laeq)]);
  const laf10 = withMask(rowSamples.laf10, kept);
  const laf90 = withMask(rowSamples.laf90, kept);
  const figures: Figure[] = [];
  const step = laeq === null ? '' : minutesLabel(laeq.stepMs);

  /** A level figure (dB, to 0.1) from its two values and the seconds that counted. */
  const levelFigure = (
    label: string,
    limitKey: Figure['limitKey'],
    period: FigurePeriod,
    values: { all: number | null; valid: number | null; seconds: number },
    method: string,
    source: Omit<Figure['source'], 'start' | 'end' | 'serial'>,
    peak?: { time: number; stepMs: number; detail: string },
  ) =>
    figureOf(
      {
        serial,
        label,
        limitKey,
        period,
        unit: 'dB',
        all: values.all,
        valid: values.valid,
        coverage: coverageOf(values.seconds, period),
        method,
        ...(peak === undefined ? {} : { detail: peak.detail, at: peak.time, atStepMs: peak.stepMs }),
        source: { serial, ...source },
      },
      site,
    );
  const measured = (channel: string) => ({
    dataset: 'noiseMeasurements' as const,
    options: ASSESSMENT_NOISE_OPTIONS,
    channel,
  });

  const leqFigure = (label: string, limitKey: Figure['limitKey'], period: FigurePeriod) => {
    if (laeq === null) return null;
    const valid = leq(laeq.samples, period, laeq.mask);
    return levelFigure(
      label,
      limitKey,
      period,
      { all: leq(laeq.samples, period).value, valid: valid.value, seconds: valid.seconds },
      `Energetic mean of the ${step} LAeq values, each weighted by its time within the period; a value whose interval touches excluded time, or a gap in another value of the same period, is left out whole.`,
      measured('LAeq'),
    );
  };

  const statisticFigure = (
    percent: 10 | 90,
    limitKey: Figure['limitKey'],
    label: string,
    period: FigurePeriod,
  ) => {
    if (useTimeHistory) {
      if (history === null) return null;
      return levelFigure(
        label,
        limitKey,
        period,
        {
          all: exceededLevel(history.samples, period, percent),
          valid: exceededLevel(history.samples, period, percent, history.mask),
          seconds: leq(history.samples, period, history.mask).seconds,
        },
        `Ranked from the 1 s LAeq time history: the level reached or exceeded in ${percent} % of the seconds (nearest rank).`,
        { dataset: 'noiseTimeHistory', options: ASSESSMENT_TIME_HISTORY_OPTIONS, channel: 'LAeq' },
      );
    }
    const channel = percent === 10 ? laf10 : laf90;
    if (channel === null) return null;
    const valid = meanOfIntervals(channel.samples, period, channel.mask);
    return levelFigure(
      label,
      limitKey,
      period,
      { all: meanOfIntervals(channel.samples, period).value, valid: valid.value, seconds: valid.seconds },
      `Arithmetic mean of the instrument's ${minutesLabel(channel.stepMs)} LAF${percent} values.`,
      measured(`LAF${percent}`),
    );
  };

  const push = (figure: Figure | null) => {
    if (figure !== null) figures.push(figure);
  };

  const whole: FigurePeriod = { ...range, label: 'whole period' };
  push(leqFigure('LAeq,T', null, whole));

  const days = sitePeriods(range, timeZone, 'day');
  const evenings = sitePeriods(range, timeZone, 'evening');
  const nights = sitePeriods(range, timeZone, 'night');
  const denDays = sitePeriods(range, timeZone, 'denDay');

  for (const day of days) {
    push(leqFigure('LAeq,day', 'LAeq,day', day));
    push(statisticFigure(10, 'LA10,day', 'LA10,day', day));
    push(statisticFigure(90, 'LA90,day', 'LA90,day', day));
  }
  for (const evening of evenings) push(leqFigure('LAeq,evening', 'LAeq,evening', evening));

  const events = eventRefs(inputs, nights, excluded);
  for (const night of nights) {
    push(leqFigure('LAeq,night', 'LAeq,night', night));
    push(statisticFigure(10, 'LA10,night', 'LA10,night', night));
    push(statisticFigure(90, 'LA90,night', 'LA90,night', night));
    if (lafmax !== null) {
      const valid = maxLevel(lafmax.samples, night, lafmax.mask);
      push(
        levelFigure(
          'LAFMax,night',
          'LAFMax,night',
          night,
          {
            all: maxLevel(lafmax.samples, night)?.value ?? null,
            valid: valid?.value ?? null,
            seconds: leq(lafmax.samples, night, lafmax.mask).seconds,
          },
          `Highest of the ${minutesLabel(lafmax.stepMs)} LAFMax values.`,
          measured('LAFMax'),
          valid === null
            ? undefined
            : {
                time: valid.time,
                stepMs: lafmax.stepMs,
                detail: momentLabel(valid.time, lafmax.stepMs, timeZone),
              },
        ),
      );
    }
    if (inputs.reads.events) {
      const counts = countEventsAbove(
        events.map((e) => ({ start: e.start, level: e.level })),
        [night],
        settings.nightEventThreshold,
        kept,
      );
      // Events are counted over the night's kept time: a night the instrument did not measure has
      // no count (not zero events), and one measured in part is judged by the coverage rule.
      const measured = laeq === null ? null : leq(laeq.samples, night);
      const keptSeconds = laeq === null ? 0 : leq(laeq.samples, night, laeq.mask).seconds;
      push(
        figureOf(
          {
            serial,
            label: `Events ≥ ${settings.nightEventThreshold} dB, night`,
            limitKey: null,
            period: night,
            unit: 'events',
            all: measured?.value == null ? null : counts.all,
            valid: measured?.value == null ? null : counts.valid,
            coverage: coverageOf(keptSeconds, night),
            method: `Noise events starting at night whose level is at least ${settings.nightEventThreshold} dB, counted over the night's kept time (the LAeq readings that count); those starting in excluded time are not counted.`,
            source: { serial, dataset: 'events', channel: 'level' },
          },
          site,
        ),
      );
    }
  }

  figures.push(...denFigures(evenings, nights, denDays));
  return {
    figures,
    hourly: hourlyRows(
      serial,
      range,
      timeZone,
      laeq,
      lafmax,
      useTimeHistory ? history : null,
      laf10,
      laf90,
      excluded,
      settings.minimumCoverage,
    ),
    events,
    chart:
      laeq === null
        ? null
        : chartOf(
            serial,
            `${serial} LAeq (${step})`,
            channelOf(measurements, 'LAeq')!,
            limitLines(limits, ['LAeq,day', 'LAeq,night']),
            range,
          ),
  };

  /** Lden of each whole day (by the date its day starts) and of the period, from the period LAeqs. */
  function denFigures(
    eveningList: SitePeriod[],
    nightList: SitePeriod[],
    denDayList: SitePeriod[],
  ): Figure[] {
    if (laeq === null) return [];
    const out: Figure[] = [];
    const levels = (periods: SitePeriod[], mask: Uint8Array | null) => {
      let energy = 0;
      let seconds = 0;
      for (const period of periods) {
        const figure = leq(laeq.samples, period, mask);
        if (figure.value === null) continue;
        energy += figure.seconds * toEnergy(figure.value);
        seconds += figure.seconds;
      }
      return { value: seconds === 0 ? null : toLevel(energy / seconds), seconds };
    };
    const method =
      'Lden = 10·lg(1/24·(12·10^(Lday/10) + 4·10^((Levening+5)/10) + 8·10^((Lnight+10)/10))) (Directive 2002/49/EC, Annex I), with day 07–19, evening 19–23 and night 23–07 in the site’s time zone.';
    const ldenValues = (all: { value: number | null }, valid: { value: number | null; seconds: number }) => ({
      all: all.value,
      valid: valid.value,
      seconds: valid.seconds,
    });
    const lden2 = (d: SitePeriod[], e: SitePeriod[], n: SitePeriod[], mask: Uint8Array | null) => {
      const [ld, le, ln] = [levels(d, mask), levels(e, mask), levels(n, mask)];
      return { value: lden(ld.value, le.value, ln.value), seconds: ld.seconds + le.seconds + ln.seconds };
    };
    for (const denDay of denDayList) {
      const evening = eveningList.filter((p) => p.date === denDay.date);
      const night = nightList.filter((p) => p.date === denDay.date);
      if (evening.length === 0 || night.length === 0 || denDay.partial) continue;
      const period: FigurePeriod = {
        start: denDay.start,
        end: night[0]!.end,
        label: `${denDay.label.split(',')[0]}, 07:00–07:00`,
      };
      out.push(
        levelFigure(
          'Lden',
          'Lden',
          period,
          ldenValues(lden2([denDay], evening, night, null), lden2([denDay], evening, night, laeq.mask)),
          method,
          measured('LAeq'),
        ),
      );
    }
    out.push(
      levelFigure(
        'Lden',
        'Lden',
        whole,
        ldenValues(
          lden2(denDayList, eveningList, nightList, null),
          lden2(denDayList, eveningList, nightList, laeq.mask),
        ),
        `${method} Over the whole period, Lday, Levening and Lnight are the energetic means of all its day, evening and night periods.`,
        measured('LAeq'),
      ),
    );
    return out;
  }
}

/** The spans of the interval values a channel's mask leaves out (each whole, merged). */
function droppedIntervals(channel: Channel): TimeInterval[] {
  const { starts, ends } = channel.samples;
  const spans: TimeInterval[] = [];
  for (let i = 0; i < channel.mask.length; i++) {
    if (channel.mask[i] === 1) spans.push({ start: starts[i]!, end: ends[i]! });
  }
  return normalize(spans);
}

/** A 1 s history's missing seconds shorter than this do not drop the interval values around them. */
const HISTORY_GAP_MS = 60_000;

/** The excluded time plus every span one of the row's channels did not read. */
function keptExcluded(
  excluded: TimeInterval[],
  channels: Array<Omit<Channel, 'mask'> | null>,
  range: TimeInterval,
): TimeInterval[] {
  const unread = channels.flatMap((channel) => {
    if (channel === null) return [];
    const shortest = channel.stepMs <= 1000 ? HISTORY_GAP_MS : 0;
    return unreadPeriods(channel.samples, range).filter((span) => span.end - span.start >= shortest);
  });
  return unread.length === 0 ? excluded : normalize([...excluded, ...unread]);
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
  laeq: Channel | null,
  lafmax: Channel | null,
  history: Channel | null,
  laf10: Channel | null,
  laf90: Channel | null,
  excluded: TimeInterval[],
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
