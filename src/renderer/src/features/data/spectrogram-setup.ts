/** The matrix chart (chartjs-chart-matrix) the spectrogram draws with, on the shared Chart.js setup. */
import { CategoryScale, Chart } from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import '../../ui/chart-setup';

Chart.register(MatrixController, MatrixElement, CategoryScale);
