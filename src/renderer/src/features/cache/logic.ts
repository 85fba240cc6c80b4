/** What each instrument has offline, in words: datasets, the ranges they cover, size and age. */
import {
  DATASET_LABELS,
  type CachedInstrumentSummary,
  type Dataset,
  type TimeInterval,
} from '../../../../shared/data';
import { bytesText } from '../../../../shared/format';
import { coveredText, relativeTimeText, type DisplayZone } from '../../ui/time';

/** "Noise levels: 21 Nov 14:00 – 22 Nov 14:00, 3.4 MB" per cached dataset, in dataset order. */
export function cachedDatasetLines(
  summary: CachedInstrumentSummary,
  zone: DisplayZone,
  now: number,
): Array<{ dataset: Dataset; label: string; covered: string; bytes: string; fetched: string }> {
  return summary.datasets.map((entry) => ({
    dataset: entry.dataset,
    label: DATASET_LABELS[entry.dataset],
    covered: coveredListText(entry.covered, zone, now),
    bytes: bytesText(entry.bytes),
    fetched: relativeTimeText(entry.lastFetchedAt, now),
  }));
}

/**
 * Datasets grouped by what they cover, for the sync summary: after a sync most datasets cover
 * the same range, and one line per range reads faster than one per dataset.
 */
export function coverageGroups(
  summary: CachedInstrumentSummary,
  zone: DisplayZone,
  now: number,
): Array<{ covered: string; labels: string[] }> {
  const groups = new Map<string, string[]>();
  for (const line of cachedDatasetLines(summary, zone, now)) {
    groups.set(line.covered, [...(groups.get(line.covered) ?? []), line.label]);
  }
  return [...groups].map(([covered, labels]) => ({ covered, labels }));
}

export function coveredListText(covered: readonly TimeInterval[], zone: DisplayZone, now: number): string {
  if (covered.length === 0) return 'nothing yet';
  return covered.map((interval) => coveredText(interval, zone, now)).join(', ');
}

/** When anything of this instrument was last fetched. */
export function lastFetchedAt(summary: CachedInstrumentSummary): number | null {
  return summary.datasets.reduce<number | null>(
    (latest, d) => (latest === null || d.lastFetchedAt > latest ? d.lastFetchedAt : latest),
    null,
  );
}
