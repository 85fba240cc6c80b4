/**
 * The second stage of a noise monitor's assessment: each kind of figure over a period, from the
 * channels of the first stage (noise-channels.ts) — LAeq, LA10/LA90 (ranked from the 1 s history or
 * the instrument's own), LAFMax with its moment, the events above the night threshold, and Lden.
 */
import { toEnergy, toLevel } from '../../../shared/acoustics';
import type { Figure, NoiseEventRef, Site } from '../../../shared/assessment';
import { ASSESSMENT_NOISE_OPTIONS, ASSESSMENT_TIME_HISTORY_OPTIONS } from './assessment-inputs';
import { coverageOf, figureOf, type FigurePeriod } from './figure-builder';
import {
  countEventsAbove,
  exceededLevel,
  leq,
  lden,
  maxLevel,
  meanOfIntervals,
} from './figures/noise-figures';
import { momentLabel, type SitePeriod } from './figures/site-periods';
import type { NoiseChannels } from './noise-channels';

/** "15-min", "1 h", "1 s": a reading's interval as the methods name it. */
export const minutesLabel = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000}-min` : `${ms / 1000} s`;

const LDEN_METHOD =
  'Lden = 10·lg(1/24·(12·10^(Lday/10) + 4·10^((Levening+5)/10) + 8·10^((Lnight+10)/10))) (Directive 2002/49/EC, Annex I), with day 07–19, evening 19–23 and night 23–07 in the site’s time zone.';

export function noiseFigureMaker(site: Site, serial: string, channels: NoiseChannels) {
  const { laeq, lafmax, history, laf10, laf90, useTimeHistory, leftOut } = channels;
  const { settings, timeZone } = site;
  const step = laeq === null ? '' : minutesLabel(laeq.stepMs);

  /** A level figure (dB) from its two values and the seconds that counted. */
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

  const leqFigure = (label: string, limitKey: Figure['limitKey'], period: FigurePeriod): Figure | null => {
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
  ): Figure | null => {
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

  /** The night's highest LAFMax, with the moment it was reached. */
  const lafmaxFigure = (night: SitePeriod): Figure | null => {
    if (lafmax === null) return null;
    const valid = maxLevel(lafmax.samples, night, lafmax.mask);
    return levelFigure(
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
    );
  };

  /** The events of a night at or above the site's threshold, counted over its kept time. */
  const eventCountFigure = (night: SitePeriod, events: readonly NoiseEventRef[]): Figure => {
    const counts = countEventsAbove(
      events.map((e) => ({ start: e.start, level: e.level })),
      [night],
      settings.nightEventThreshold,
      leftOut,
    );
    // A night the instrument did not measure has no count (not zero events), and one measured in
    // part is judged by the coverage rule.
    const read = laeq === null ? null : leq(laeq.samples, night);
    const keptSeconds = laeq === null ? 0 : leq(laeq.samples, night, laeq.mask).seconds;
    return figureOf(
      {
        serial,
        label: `Events ≥ ${settings.nightEventThreshold} dB, night`,
        limitKey: null,
        period: night,
        unit: 'events',
        all: read?.value == null ? null : counts.all,
        valid: read?.value == null ? null : counts.valid,
        coverage: coverageOf(keptSeconds, night),
        method: `Noise events starting at night whose level is at least ${settings.nightEventThreshold} dB, counted over the night's kept time (the LAeq readings that count); those starting in excluded time are not counted.`,
        source: { serial, dataset: 'events', channel: 'level' },
      },
      site,
    );
  };

  /** Lden of each whole day (by the date its day starts) and of the period, from the period LAeqs. */
  const denFigures = (
    evenings: SitePeriod[],
    nights: SitePeriod[],
    denDays: SitePeriod[],
    whole: FigurePeriod,
  ): Figure[] => {
    if (laeq === null) return [];
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
    const ldenOf = (d: SitePeriod[], e: SitePeriod[], n: SitePeriod[], mask: Uint8Array | null) => {
      const [ld, le, ln] = [levels(d, mask), levels(e, mask), levels(n, mask)];
      return { value: lden(ld.value, le.value, ln.value), seconds: ld.seconds + le.seconds + ln.seconds };
    };
    const figure = (
      period: FigurePeriod,
      d: SitePeriod[],
      e: SitePeriod[],
      n: SitePeriod[],
      method: string,
    ) => {
      const valid = ldenOf(d, e, n, laeq.mask);
      return levelFigure(
        'Lden',
        'Lden',
        period,
        { all: ldenOf(d, e, n, null).value, valid: valid.value, seconds: valid.seconds },
        method,
        measured('LAeq'),
      );
    };
    const out: Figure[] = [];
    for (const denDay of denDays) {
      const evening = evenings.filter((p) => p.date === denDay.date);
      const night = nights.filter((p) => p.date === denDay.date);
      if (evening.length === 0 || night.length === 0 || denDay.partial) continue;
      const period: FigurePeriod = {
        start: denDay.start,
        end: night[0]!.end,
        label: `${denDay.label.split(',')[0]}, 07:00–07:00`,
      };
      out.push(figure(period, [denDay], evening, night, LDEN_METHOD));
    }
    out.push(
      figure(
        whole,
        denDays,
        evenings,
        nights,
        `${LDEN_METHOD} Over the whole period, Lday, Levening and Lnight are the energetic means of all its day, evening and night periods.`,
      ),
    );
    return out;
  };

  return { step, leqFigure, statisticFigure, lafmaxFigure, eventCountFigure, denFigures };
}
