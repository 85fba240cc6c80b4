/** The polar-area pieces the wind rose needs, on top of the shared Chart.js setup. */
import { ArcElement, Chart, PolarAreaController, RadialLinearScale } from 'chart.js';
import '../../ui/chart-setup';

Chart.register(PolarAreaController, ArcElement, RadialLinearScale);
