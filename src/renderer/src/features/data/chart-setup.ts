/**
 * The history charts' Chart.js setup plus what only the data charts use: the decimation plugin
 * (see `buildDataChart`), chartjs-plugin-zoom for wheel, drag and shift-drag panning,
 * the event marks, the wind direction arrows, an assessment's excluded periods and limit lines, and
 * lines stroked in pieces (chunked-lines.ts). Registered here so the history charts' bundle does
 * not carry them.
 */
import { Chart, Decimation } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { eventMarksPlugin } from './event-marks';
import { chartOverlaysPlugin } from './chart-overlays';
import '../../ui/chart-setup';
import { windArrowsPlugin } from './wind-arrows';
import { chunkedLinesPlugin } from './chunked-lines';

Chart.register(
  Decimation,
  zoomPlugin,
  eventMarksPlugin,
  windArrowsPlugin,
  chartOverlaysPlugin,
  chunkedLinesPlugin,
);
