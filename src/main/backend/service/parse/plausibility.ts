/**
 * Levels outside physical sense are not shown as facts: after parsing, a sound level outside
 * 0–200 dB (a band level outside −100–200 dB, a calibration offset beyond ±20 dB) becomes "no
 * reading" and is counted, and the answer carries a note saying how many were left out.
 */
import type { Dataset, RecordTable, SeriesChannel } from '../../../../shared/data';
import { isPlausible, PLAUSIBLE } from '../../../../shared/service/reading';

type Range = { readonly min: number; readonly max: number };

/** The range a dB value of this dataset must lie in, by its column or channel. */
function rangeOf(dataset: Dataset, key: string): Range {
  if (key === 'offset') return PLAUSIBLE.calibrationOffsetDb;
  return dataset.startsWith('frequency') ? PLAUSIBLE.bandLevelDb : PLAUSIBLE.soundLevelDb;
}

/** Series and records with implausible dB values left out, and a note when there were any. */
export function leaveOutImplausible(
  dataset: Dataset,
  series: SeriesChannel[],
  records: RecordTable | null,
): { series: SeriesChannel[]; records: RecordTable | null; notes: string[] } {
  let count = 0;
  const checked = series.map((channel) => {
    if (channel.unit !== 'dB') return channel;
    const { min, max } = rangeOf(dataset, channel.name);
    let values: Float32Array | null = null;
    for (let i = 0; i < channel.values.length; i++) {
      const value = channel.values[i] as number;
      // isPlausible written out (finite and within the range), for the 604,800 levels of a week.
      if (value !== value || (value >= min && value <= max)) continue;
      values ??= channel.values.slice();
      values[i] = Number.NaN;
      count++;
    }
    return values === null ? channel : { ...channel, values };
  });
  const dbColumns = records?.columns.filter((c) => c.unit === 'dB' && c.type === 'number') ?? [];
  if (records !== null) {
    for (const row of records.rows) {
      for (const column of dbColumns) {
        const value = row[column.key];
        if (typeof value === 'number' && !isPlausible(value, rangeOf(dataset, column.key))) {
          row[column.key] = null;
          count++;
        }
      }
    }
  }
  const notes =
    count === 0
      ? []
      : [
          `${count.toLocaleString('en-GB')} level${count === 1 ? '' : 's'} the service reported could not be right (outside what an instrument measures) and ${count === 1 ? 'is' : 'are'} not shown.`,
        ];
  return { series: checked, records, notes };
}
