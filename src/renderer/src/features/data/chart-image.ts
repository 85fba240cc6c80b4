/**
 * A chart as an image for a report: every canvas of the chart card stacked on white, under a title
 * line (what, which instrument, when) and over the caption, as a PNG. Canvases are drawn at their
 * own pixel size, so a HiDPI screen gives a sharp image.
 */
import type { DataReadResult } from '../../../../shared/data';
import { formatIn, zoneSuffix, type DisplayZone } from '../../ui/time';
import type { ComparedLegendRow } from './compare';

const MARGIN = 24;
const TITLE_FONT = "700 22px system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
const TEXT_FONT = "500 16px system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

export interface ChartImageText {
  title: string;
  /** Lines under the charts: the range, the zone, where the data came from. */
  notes: string[];
  /** Comparing: the legend by instrument (on the page it is HTML, not on a canvas). */
  legend?: readonly ComparedLegendRow[];
}

const whenText = (time: number, zone: DisplayZone): string =>
  `${formatIn(time, 'd MMM yyyy HH:mm', zone)}${zoneSuffix(zone, time)}`;

/**
 * Where the image's data came from, in words the reader of a report knows (no "cache", no
 * "fetched"): when it was read from the service, whether part was read again, and what is missing.
 */
export function dataSourceText(provenance: DataReadResult['provenance'], zone: DisplayZone): string {
  switch (provenance.source) {
    case 'fresh':
      return `Data read from the monitoring service on ${whenText(provenance.fetchedAt, zone)}.`;
    case 'cached': {
      const parts = [`Data read from the monitoring service on ${whenText(provenance.cachedAt, zone)}`];
      if (provenance.refreshed)
        parts.push(`the latest part read again on ${whenText(provenance.refreshed.fetchedAt, zone)}`);
      if (provenance.upTo !== undefined)
        parts.push(`nothing after ${whenText(provenance.upTo, zone)} had been read`);
      return `${parts.join('; ')}.`;
    }
    case 'partial':
      return `Part of this range has no data: it could not be read from the monitoring service. ${provenance.reason.message}`;
  }
}

/** The PNG bytes of `canvases` stacked under `text.title`, as base64 (what `data.saveImage` takes). */
export function chartImageBase64(canvases: readonly HTMLCanvasElement[], text: ChartImageText): string {
  const scale = Math.max(1, ...canvases.map((c) => c.width / Math.max(1, c.clientWidth)));
  const width = Math.max(...canvases.map((c) => c.width), 600 * scale) + 2 * MARGIN * scale;
  const titleHeight = 40 * scale;
  const noteHeight = 24 * scale;
  const legendRows = text.legend ?? [];
  const height =
    MARGIN * scale * 2 +
    titleHeight +
    canvases.reduce((sum, c) => sum + c.height + 12 * scale, 0) +
    (legendRows.length + text.notes.length) * noteHeight;

  const image = document.createElement('canvas');
  image.width = Math.ceil(width);
  image.height = Math.ceil(height);
  const context = image.getContext('2d');
  if (!context) throw new Error('This window cannot draw an image.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, image.width, image.height);
  context.fillStyle = '#0d0d0d';
  context.textBaseline = 'top';
  context.scale(scale, scale);
  context.font = TITLE_FONT;
  context.fillText(text.title, MARGIN, MARGIN);
  context.setTransform(1, 0, 0, 1, 0, 0);
  let y = (MARGIN + 40) * scale;
  for (const canvas of canvases) {
    context.drawImage(canvas, MARGIN * scale, y);
    y += canvas.height + 12 * scale;
  }
  context.scale(scale, scale);
  context.font = TEXT_FONT;
  let line = y / scale;
  for (const row of legendRows) {
    // The instrument's name in its colour, then each value as a stroke in its dash and its name.
    context.fillStyle = row.color;
    const name = `${row.name} (${row.serial})`;
    context.fillText(name, MARGIN, line);
    let x = MARGIN + Math.max(280, context.measureText(name).width + 16);
    for (const value of row.values) {
      context.strokeStyle = row.color;
      context.lineWidth = 3;
      context.setLineDash(value.dash);
      context.beginPath();
      context.moveTo(x, line + 9);
      context.lineTo(x + 30, line + 9);
      context.stroke();
      context.fillStyle = '#0d0d0d';
      context.fillText(value.label, x + 36, line);
      x += 36 + context.measureText(value.label).width + 24;
    }
    line += 24;
  }
  context.setLineDash([]);
  context.fillStyle = '#0d0d0d';
  text.notes.forEach((note, index) => context.fillText(note, MARGIN, line + index * 24));
  return image.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}
