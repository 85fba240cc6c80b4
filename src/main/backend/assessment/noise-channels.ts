/**
 * The first stage of a noise monitor's assessment: its readings as channels (samples, their
 * interval, and a mask of what is left out), with the time left out of every row — the site's
 * excluded time plus whatever one of the row's channels did not read.
 */
import type { ExcludedPeriod, Site } from '../../../shared/assessment';
import type { SeriesChannel, TimeInterval } from '../../../shared/data';
import type { InstrumentInputs } from './assessment-inputs';
import { channelOf, excludedFor, samplesOfChannel } from './exclusions';
import { unreadPeriods } from './figures/exclusion-rules';
import { exclusionMask, type Samples } from './figures/samples';
import { normalize } from '../core/intervals';

export interface Channel {
  samples: Samples;
  /** 1 where a reading is left out. */
  mask: Uint8Array;
  /** The length of one reading's interval. */
  stepMs: number;
}

export interface NoiseChannels {
  /** The site's excluded time for this monitor. */
  excluded: TimeInterval[];
  /** What every row leaves out: the excluded time and every span a row's channel did not read. */
  leftOut: TimeInterval[];
  laeq: Channel | null;
  lafmax: Channel | null;
  /** The 1 s LAeq history, when the site ranks LA10 and LA90 from it. */
  history: Channel | null;
  /** The instrument's own LAF10 and LAF90, when the site takes them. */
  laf10: Channel | null;
  laf90: Channel | null;
  useTimeHistory: boolean;
}

/** A channel's readings as samples with their length; null without readings. */
function samplesWithStep(channel: SeriesChannel | null): Omit<Channel, 'mask'> | null {
  if (channel === null || channel.times.length === 0) return null;
  const samples = samplesOfChannel(channel);
  return { samples, stepMs: samples.ends[0]! - samples.starts[0]! };
}

const withMask = (channel: Omit<Channel, 'mask'> | null, leftOut: TimeInterval[]): Channel | null =>
  channel === null ? null : { ...channel, mask: exclusionMask(channel.samples, leftOut) };

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
function leftOutOfRows(
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

export function noiseChannels(
  site: Site,
  inputs: InstrumentInputs,
  range: TimeInterval,
  exclusions: readonly ExcludedPeriod[],
): NoiseChannels {
  const excluded = normalize(excludedFor(inputs.instrument.serial, exclusions));
  const measurements = inputs.reads.noiseMeasurements;
  const useTimeHistory = site.settings.statistics === 'timeHistory';
  const rowSamples = {
    laeq: samplesWithStep(channelOf(measurements, 'LAeq')),
    lafmax: samplesWithStep(channelOf(measurements, 'LAFMax')),
    history: useTimeHistory ? samplesWithStep(channelOf(inputs.reads.noiseTimeHistory, 'LAeq')) : null,
    laf10: useTimeHistory ? null : samplesWithStep(channelOf(measurements, 'LAF10')),
    laf90: useTimeHistory ? null : samplesWithStep(channelOf(measurements, 'LAF90')),
  };
  const leftOut = leftOutOfRows(excluded, Object.values(rowSamples), range);
  const laeq = withMask(rowSamples.laeq, leftOut);
  return {
    excluded,
    leftOut,
    laeq,
    lafmax: withMask(rowSamples.lafmax, leftOut),
    // The 1 s history keeps only the seconds of the intervals LAeq keeps: an interval that touches
    // excluded time is left out whole, so LA10/LA90 ranked from the history rest on the same kept
    // time as LAeq (not 88 % of a night where LAeq keeps 64 %).
    history: withMask(rowSamples.history, laeq === null ? leftOut : [...leftOut, ...droppedIntervals(laeq)]),
    laf10: withMask(rowSamples.laf10, leftOut),
    laf90: withMask(rowSamples.laf90, leftOut),
    useTimeHistory,
  };
}
