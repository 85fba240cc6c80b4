/**
 * Chart.js with only the pieces the history charts use (tree-shaking keeps the rest out), the
 * date-fns adapter for the time axis (in any zone: chart-time-zone.ts), and the app's font and text colour as defaults.
 */
import {
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
} from 'chart.js';
import './chart-time-zone';
import { CHART_COLORS } from './chart-base';

Chart.register(LineController, LineElement, PointElement, LinearScale, TimeScale, Tooltip, Legend, Filler);
Chart.defaults.font.family =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
Chart.defaults.color = CHART_COLORS.text;
