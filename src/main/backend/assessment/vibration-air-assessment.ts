/**
 * Vibration and air-quality figures of one instrument over an assessment period.
 *
 * Vibration: the highest PPV per axis with its dominant frequency, judged against a constant
 * (BS 5228-2's human-response level, the site's PPV limit) and against the frequency-dependent
 * DIN 4150-3 line the site chose — the reading closest to that line is the one reported, since the
 * highest PPV is not always the worst at low frequencies; VDV per axis for each day (07–23) and
 * night (23–07), combined by the fourth root of the sum of fourth powers (BS 6472-1).
 *
 * Air quality: PM10 and PM2.5 24-hour means per site calendar day, valid only with 75 % of the
 * day's readings (the EU directive's data-capture rule), and the number of days above the limit.
 */
import type {
  AssessmentChart,
  DinLine,
  ExcludedPeriod,
  Figure,
  PpvScatter,
  Site,
} from '../../../shared/assessment';
import { coverageText } from '../../../shared/figure-text';
import type { SeriesChannel, TimeInterval } from '../../../shared/data';
import type { InstrumentInputs } from './assessment-inputs';
import { channelOf, excludedFor, samplesOfChannel } from './exclusions';
import { chartOf, coverageOf, figureOf, limitLines, roundTo, type FigurePeriod } from './figure-builder';
import { dailyMeans } from './figures/air-quality';
import { exclusionMask, overlapping, type Samples } from './figures/samples';
import { momentLabel, sitePeriods } from './figures/site-periods';
import { DIN_LINE_LABELS, dinGuideline, peakPpv, vdvOver } from './figures/vibration';
import { normalize } from '../core/intervals';

export interface PartAssessment {
  figures: Figure[];
  charts: AssessmentChart[];
  ppvScatter?: PpvScatter;
}

/** Points per axis a PPV-against-frequency chart carries: those nearest the guideline when more. */
const SCATTER_POINTS = 1500;
/** The corners of DIN 4150-3's lines (Hz), from where the table starts to where it stays level. */
const DIN_CORNERS = [1, 10, 50, 100] as const;

const AXES = ['X', 'Y', 'Z'] as const;

export function assessVibration(
  site: Site,
  inputs: InstrumentInputs,
  range: TimeInterval,
  exclusions: readonly ExcludedPeriod[],
): PartAssessment {
  const { serial } = inputs.instrument;
  const { limits, settings, timeZone } = site;
  const excluded = normalize(excludedFor(serial, exclusions));
  const figures: Figure[] = [];
  const whole: FigurePeriod = { ...range, label: 'whole period' };
  const line = settings.dinLine;
  const scatter: PpvScatter['axes'] = [];
  for (const axis of AXES) {
    const ppvChannel = channelOf(inputs.reads.vibrationPPV, `vMax${axis}`);
    const frequencyChannel = channelOf(inputs.reads.vibrationPPV, `fDom${axis}`);
    if (ppvChannel === null || frequencyChannel === null) continue;
    const ppv = samplesOfChannel(ppvChannel);
    const frequency = samplesOfChannel(frequencyChannel);
    const mask = exclusionMask(ppv, excluded);
    const ppvStepMs = ppv.ends.length === 0 ? 0 : ppv.ends[0]! - ppv.starts[0]!;
    const all = peakPpv(ppv, frequency, range);
    const valid = peakPpv(ppv, frequency, range, mask);
    scatter.push({ axis, ...scatterPoints(ppv, frequency, range, mask, line) });
    const counted = countedSeconds(ppv, range, mask);
    const source = { serial, dataset: 'vibrationPPV' as const, channel: `vMax${axis}` };
    const at = (peak: typeof valid) =>
      peak === null
        ? undefined
        : `at ${peak.frequency === null ? 'an unknown frequency' : `${peak.frequency.toFixed(1)} Hz`}, ${momentLabel(peak.time, ppvStepMs, timeZone)}`;
    figures.push(
      figureOf(
        {
          serial,
          label: `PPV ${axis}`,
          limitKey: 'PPV',
          period: whole,
          unit: 'mm/s',
          all: all?.value ?? null,
          valid: valid?.value ?? null,
          coverage: coverageOf(counted, range),
          method:
            'Highest peak particle velocity of the axis; the limit is a constant (BS 5228-2 human response).',
          ...(valid === null ? {} : { detail: at(valid)!, at: valid.time, atStepMs: ppvStepMs }),
          source,
        },
        site,
      ),
    );
    // Against DIN 4150-3: the reading closest to (or furthest over) the line at its own frequency.
    const worst = (useMask: boolean) => {
      let best: { value: number; frequency: number; time: number; ratio: number } | null = null;
      const { from, to } = overlapping(ppv, range);
      for (let i = from; i < to; i++) {
        if (useMask && mask[i] === 1) continue;
        const v = ppv.values[i]!;
        const f = frequency.values[i]!;
        if (Number.isNaN(v) || Number.isNaN(f)) continue;
        const ratio = v / dinGuideline(f, line);
        if (best === null || ratio > best.ratio)
          best = { value: v, frequency: f, time: ppv.starts[i]!, ratio };
      }
      return best;
    };
    const dinAll = worst(false);
    const dinValid = worst(true);
    figures.push(
      figureOf(
        {
          serial,
          label: `PPV ${axis} vs DIN 4150-3`,
          limitKey: null,
          guideline: `DIN 4150-3 line ${line}`,
          period: whole,
          unit: 'mm/s',
          all: dinAll?.value ?? null,
          valid: dinValid?.value ?? null,
          coverage: coverageOf(counted, range),
          method: `The reading closest to the DIN 4150-3 short-term guideline (${DIN_LINE_LABELS[line]}) at its dominant frequency; the limit is the guideline at that frequency.`,
          ...(dinValid === null
            ? {}
            : {
                detail: `at ${dinValid.frequency.toFixed(1)} Hz, ${momentLabel(dinValid.time, ppvStepMs, timeZone)}: ${(dinValid.ratio * 100).toFixed(0)} % of the guideline`,
                at: dinValid.time,
                atStepMs: ppvStepMs,
              }),
          // To 0.001 mm/s, as the PPV it is compared with: 5.225 at 10.9 Hz, never 5.22.
          limit: dinValid === null ? null : roundTo(dinGuideline(dinValid.frequency, line), 3),
          source,
        },
        site,
      ),
    );
    const vdvChannel = channelOf(inputs.reads.vibrationVDV, `vdv${axis}`);
    if (vdvChannel === null) continue;
    const vdv = samplesOfChannel(vdvChannel);
    const vdvMask = exclusionMask(vdv, excluded);
    for (const kind of ['day', 'night'] as const) {
      for (const period of sitePeriods(range, timeZone, kind)) {
        const vAll = vdvOver(vdv, period);
        const vValid = vdvOver(vdv, period, vdvMask);
        figures.push(
          figureOf(
            {
              serial,
              label: `VDV ${axis},${kind}`,
              limitKey: kind === 'day' ? 'VDV,day' : 'VDV,night',
              period,
              unit: 'm/s¹·⁷⁵',
              all: vAll.value,
              valid: vValid.value,
              coverage: coverageOf(countedSeconds(vdv, period, vdvMask), period),
              method:
                'Fourth root of the sum of the fourth powers of the interval VDVs in the period (BS 6472-1).',
              source: { serial, dataset: 'vibrationVDV', channel: `vdv${axis}` },
            },
            site,
          ),
        );
      }
    }
  }
  const charts: AssessmentChart[] = [];
  const highest = highestOfAxes(inputs);
  if (highest !== null)
    charts.push(chartOf(serial, `${serial} PPV, highest axis`, highest, limitLines(limits, ['PPV']), range));
  const ppvScatter: PpvScatter = {
    serial,
    line,
    lineLabel: DIN_LINE_LABELS[line],
    guideline: DIN_CORNERS.map((f) => [f, dinGuideline(f, line)]),
    limit: limits.PPV ?? null,
    axes: scatter,
  };
  return { figures, charts, ...(scatter.length === 0 ? {} : { ppvScatter }) };
}

/**
 * One axis's readings as [frequency, PPV] that count (not excluded, both known); when there are
 * more than a chart can show, those nearest the DIN line (highest PPV over guideline) are kept.
 */
function scatterPoints(
  ppv: Samples,
  frequency: Samples,
  range: TimeInterval,
  mask: Uint8Array,
  line: DinLine,
): { points: Array<[number, number]>; total: number } {
  const { from, to } = overlapping(ppv, range);
  const points: Array<[number, number]> = [];
  for (let i = from; i < to; i++) {
    const v = ppv.values[i]!;
    const f = frequency.values[i]!;
    if (mask[i] === 1 || Number.isNaN(v) || Number.isNaN(f)) continue;
    points.push([Math.round(f * 10) / 10, Math.round(v * 1000) / 1000]);
  }
  const total = points.length;
  if (total > SCATTER_POINTS) {
    const ratio = ([f, v]: [number, number]) => v / dinGuideline(f, line);
    points.sort((a, b) => ratio(b) - ratio(a));
    points.length = SCATTER_POINTS;
  }
  return { points, total };
}

/** Per reading, the highest PPV of the three axes (for the chart). */
function highestOfAxes(inputs: InstrumentInputs): SeriesChannel | null {
  const channels = AXES.map((axis) => channelOf(inputs.reads.vibrationPPV, `vMax${axis}`)).filter(
    (c): c is SeriesChannel => c !== null,
  );
  if (channels.length === 0) return null;
  const first = channels[0]!;
  const values = new Float32Array(first.values.length).fill(Number.NaN);
  for (const channel of channels) {
    if (channel.values.length !== values.length) continue;
    for (let i = 0; i < values.length; i++) {
      const v = channel.values[i]!;
      if (!Number.isNaN(v) && !(v <= values[i]!)) values[i] = v;
    }
  }
  return { ...first, name: 'PPV', label: 'PPV (highest axis)', values };
}

/** Seconds of readings inside `period` that count (not excluded, not missing). */
function countedSeconds(samples: Samples, period: TimeInterval, mask: Uint8Array): number {
  // Only the samples of the period, found by binary search: a year has 730 day and night periods.
  const { from, to } = overlapping(samples, period);
  let ms = 0;
  for (let i = from; i < to; i++) {
    if (mask[i] === 1 || Number.isNaN(samples.values[i]!)) continue;
    const overlap = Math.min(samples.ends[i]!, period.end) - Math.max(samples.starts[i]!, period.start);
    if (overlap > 0) ms += overlap;
  }
  return ms / 1000;
}

const PARTICULATES = [
  { channel: 'pM10', label: 'PM10', limitKey: 'PM10,24h' as const },
  { channel: 'pM2p5', label: 'PM2.5', limitKey: 'PM2.5,24h' as const },
];

export function assessAirQuality(
  site: Site,
  inputs: InstrumentInputs,
  range: TimeInterval,
  exclusions: readonly ExcludedPeriod[],
): PartAssessment {
  const { serial } = inputs.instrument;
  const { limits, timeZone } = site;
  const excluded = normalize(excludedFor(serial, exclusions));
  const figures: Figure[] = [];
  const charts: AssessmentChart[] = [];
  const days = sitePeriods(range, timeZone, 'calendarDay');
  for (const particulate of PARTICULATES) {
    const channel = channelOf(inputs.reads.particulates, particulate.channel);
    if (channel === null) continue;
    const samples = samplesOfChannel(channel);
    const mask = exclusionMask(samples, excluded);
    const minimum = site.settings.minimumCoverage;
    const all = dailyMeans(samples, days, null, minimum);
    const valid = dailyMeans(samples, days, mask, minimum);
    const limit = limits[particulate.limitKey] ?? null;
    const source = { serial, dataset: 'particulates' as const, channel: particulate.channel };
    const dayFigures = valid.map((day, i) =>
      figureOf(
        {
          serial,
          label: `${particulate.label} 24-h mean`,
          limitKey: particulate.limitKey,
          period: { start: day.start, end: day.end, label: days[i]!.label },
          unit: 'µg/m³',
          all: all[i]!.mean,
          valid: day.mean,
          coverage: day.coverage,
          method: `Time-weighted mean of the readings of the site’s calendar day; a day counts only with readings for at least ${coverageText(minimum)} of it (the EU rule is 75 %, 18 of 24 hours).`,
          source,
        },
        site,
      ),
    );
    figures.push(...dayFigures);
    // Counted from the daily figures as stated, so the count and their flags agree.
    const validDays = dayFigures.filter((figure) => figure.state === 'ok').length;
    const allOver = dayFigures.filter(
      (figure, i) => all[i]!.valid && limit !== null && figure.all !== null && figure.all > limit,
    ).length;
    // Without a limit there is nothing to count: no figure, rather than one that reads "no readings".
    if (limit !== null) {
      figures.push(
        figureOf(
          {
            serial,
            label: `${particulate.label} days above the 24-h limit`,
            limitKey: null,
            period: { ...range, label: 'whole period' },
            unit: 'days',
            all: allOver,
            valid: dayFigures.filter((figure) => figure.exceeds).length,
            coverage: days.length === 0 ? 0 : validDays / days.length,
            method: `Days whose 24-hour mean, as stated to 0.1 µg/m³, is above ${limit} µg/m³, of ${validDays} day${validDays === 1 ? '' : 's'} with enough data.`,
            source,
          },
          site,
        ),
      );
    }
    charts.push(
      chartOf(
        serial,
        `${serial} ${particulate.label}`,
        channel,
        limitLines(limits, [particulate.limitKey]),
        range,
      ),
    );
  }
  return { figures, charts };
}
