/**
 * The history charts' Chart.js setup plus what only the data charts use: the decimation plugin
 * (see `buildDataChart`) and chartjs-plugin-zoom for wheel, drag and shift-drag panning. Registered
 * here so the history charts' bundle does not carry them.
 */
import { Chart, Decimation } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import '../../ui/chart-setup';

Chart.register(Decimation, zoomPlugin);
