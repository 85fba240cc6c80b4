/** The bar chart pieces the spectrum needs, on top of the shared Chart.js setup. */
import { BarController, BarElement, CategoryScale, Chart } from 'chart.js';
import '../../ui/chart-setup';

Chart.register(BarController, BarElement, CategoryScale);
