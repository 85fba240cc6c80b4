/** How exported files are named, the same for a CSV the backend writes and a chart image the renderer makes. */
import { DATASET_LABELS, type DatasetQuery } from './data';

/**
 * What is exported: data or report tables (csv), a chart image (png), a report (pdf, xlsx), the
 * diagnostics for support (zip).
 */
export type ExportKind = 'csv' | 'png' | 'pdf' | 'xlsx' | 'zip' | 'site';

/** "QT930998 Noise time history 2026-11-23T0900Z–2026-11-24T0900Z.csv": what, which, when. */
export function exportFileName(
  query: Pick<DatasetQuery, 'serial' | 'dataset' | 'start' | 'end'>,
  extension: 'csv' | 'png',
): string {
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace(/:/g, '') + 'Z';
  const what = DATASET_LABELS[query.dataset].replace(/[\\/:*?"<>|]/g, '-');
  return `${query.serial} ${what} ${stamp(query.start)}–${stamp(query.end)}.${extension}`;
}
