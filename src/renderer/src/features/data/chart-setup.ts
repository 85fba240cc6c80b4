/**
 * The history charts' Chart.js setup plus the decimation plugin the data charts enable (see
 * `buildDataChart`): registered here so the history charts' bundle does not carry it.
 */
import { Chart, Decimation } from 'chart.js';
import '../../ui/chart-setup';

Chart.register(Decimation);
