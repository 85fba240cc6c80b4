/**
 * Readings outside physical sense are not shown as facts: after parsing, a value outside its
 * channel's plausible range (declared per channel, shared/quantities.ts: a sound level outside
 * 0–200 dB, a band level outside −100–200 dB, a calibration offset beyond ±20 dB, LTE RSRQ outside
 * −40–20 dB …) becomes "no reading" and is counted, and the answer carries one note per channel
 * naming it, how many were left out and the range. Channels with no known bound (particulates, a
 * field this version does not know) are shown as they come.
 */
import type { Dataset, RecordTable, SeriesChannel } from '../../../../shared/data';
import type { PlausibleRange } from '../../../../shared/quantities';
import { isPlausible } from '../../../../shared/service/reading';
import { channelLabelOf, channelQuantity } from './record-specs';

/** "−40 to 20 dB": a range as the note states it. */
const rangeText = ({ min, max }: PlausibleRange, unit: string | null): string =>
  `${String(min).replace('-', '\u2212')} to ${String(max).replace('-', '\u2212')}${unit ? ` ${unit}` : ''}`;

/** What the note says for `count` readings of one channel. */
function noteOf(label: string, count: number, range: PlausibleRange, unit: string | null): string {
  const readings = `${count.toLocaleString('en-GB')} reading${count === 1 ? '' : 's'}`;
  return `${readings} of ${label} ${count === 1 ? 'is' : 'are'} not shown: outside ${rangeText(range, unit)}, which no instrument measures.`;
}

/** Series and records with implausible values left out, and a note per channel when there were any. */
export function leaveOutImplausible(
  dataset: Dataset,
  series: SeriesChannel[],
  records: RecordTable | null,
): { series: SeriesChannel[]; records: RecordTable | null; notes: string[] } {
  // Counted per channel (series and record columns of one key are the same readings, counted once).
  const leftOut = new Map<string, { count: number; range: PlausibleRange; unit: string | null }>();
  const count = (key: string, range: PlausibleRange, unit: string | null, n: number) => {
    const entry = leftOut.get(key);
    if (entry === undefined) leftOut.set(key, { count: n, range, unit });
    else entry.count = Math.max(entry.count, n);
  };
  const checked = series.map((channel) => {
    const range = channelQuantity(dataset, channel.name, channel.unit).plausible;
    if (range === undefined) return channel;
    const { min, max } = range;
    let values: Float32Array | null = null;
    let n = 0;
    for (let i = 0; i < channel.values.length; i++) {
      const value = channel.values[i] as number;
      // isPlausible written out (finite and within the range), for the 604,800 levels of a week.
      if (value !== value || (value >= min && value <= max)) continue;
      values ??= channel.values.slice();
      values[i] = Number.NaN;
      n++;
    }
    if (n > 0) count(channel.name, range, channel.unit, n);
    return values === null ? channel : { ...channel, values };
  });
  if (records !== null) {
    for (const column of records.columns) {
      if (column.type !== 'number') continue;
      const range = channelQuantity(dataset, column.key, column.unit).plausible;
      if (range === undefined) continue;
      let n = 0;
      for (const row of records.rows) {
        const value = row[column.key];
        if (typeof value === 'number' && !isPlausible(value, range)) {
          row[column.key] = null;
          n++;
        }
      }
      if (n > 0) count(column.key, range, column.unit, n);
    }
  }
  const notes = [...leftOut].map(([key, { count: n, range, unit }]) =>
    noteOf(channelLabelOf(dataset, key), n, range, unit),
  );
  return { series: checked, records, notes };
}
