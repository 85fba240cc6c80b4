/**
 * A chart as an image for a report: every canvas of the chart card stacked on white, under a title
 * line (what, which instrument, when) and over the caption, as a PNG. Canvases are drawn at their
 * own pixel size, so a HiDPI screen gives a sharp image.
 */
const MARGIN = 24;
const TITLE_FONT = "700 22px system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
const TEXT_FONT = "500 16px system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

export interface ChartImageText {
  title: string;
  /** Lines under the charts: the range, the zone, where the data came from. */
  notes: string[];
}

/** The PNG bytes of `canvases` stacked under `text.title`, as base64 (what `data.saveImage` takes). */
export function chartImageBase64(canvases: readonly HTMLCanvasElement[], text: ChartImageText): string {
  const scale = Math.max(1, ...canvases.map((c) => c.width / Math.max(1, c.clientWidth)));
  const width = Math.max(...canvases.map((c) => c.width), 600 * scale) + 2 * MARGIN * scale;
  const titleHeight = 40 * scale;
  const noteHeight = 24 * scale;
  const height =
    MARGIN * scale * 2 +
    titleHeight +
    canvases.reduce((sum, c) => sum + c.height + 12 * scale, 0) +
    text.notes.length * noteHeight;

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
  text.notes.forEach((note, index) => context.fillText(note, MARGIN, y / scale + index * 24));
  return image.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}
