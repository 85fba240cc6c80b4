/**
 * The report's charts, drawn as vectors so they print sharp at any size: a series over the period
 * in site time (ticks on whole local hours, also across a change of offset), the limits dashed and
 * labelled, the excluded time shaded beneath, and a legend. A long series is thinned to the lowest
 * and highest reading per column of the plot, so no peak is lost.
 */
import type { AssessmentChart, AssessmentResult } from '../../../../shared/assessment';
import {
  ACCENT,
  ALERT,
  INK,
  LEFT,
  MUTED,
  RIGHT,
  RULE,
  type FontName,
  type Pages,
} from '../../pdf/pdf-layout';
import { HOUR, limitNumberText, MINUTE, type SiteClock } from './report-format';
import { exclusionsFor, instrumentText } from './report-verdicts';

const EXCLUDED_FILL = '#d3d3d3';
const GRID = '#d9dde2';

const QUARTER = 15 * MINUTE;

/** Round axis bounds and step for values from `lo` to `hi`, about `count` steps. */
export function niceScale(lo: number, hi: number, count = 5): { min: number; max: number; step: number } {
  if (!(hi > lo)) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    [lo, hi] = [lo - pad, hi + pad];
  }
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normal = raw / magnitude;
  const step = (normal <= 1 ? 1 : normal <= 2 ? 2 : normal <= 2.5 ? 2.5 : normal <= 5 ? 5 : 10) * magnitude;
  return { min: Math.floor(lo / step + 1e-9) * step, max: Math.ceil(hi / step - 1e-9) * step, step };
}

const decimalsOf = (step: number) => {
  const text = String(Number(step.toPrecision(6)));
  return text.includes('.') ? text.split('.')[1]!.length : 0;
};

export interface Tick {
  time: number;
  label: string;
  day?: string;
}

/** Time ticks at whole local hours (every 1, 2, 3, 6 or 12 h) or local midnights, at most `most`. */
export function timeTicks(clock: SiteClock, from: number, to: number, most = 12): Tick[] {
  const hours =
    [1, 2, 3, 6, 12, 24, 48, 168].find((h) => (to - from) / (h * HOUR) <= most) ??
    Math.ceil((to - from) / (most * 24 * HOUR)) * 24;
  const ticks: Tick[] = [];
  let midnights = 0;
  for (let t = Math.ceil(from / QUARTER) * QUARTER; t <= to; t += QUARTER) {
    const { hour, minute } = clock.hourMinute(t);
    if (minute !== 0) continue;
    if (hours < 24) {
      if (hour % hours !== 0) continue;
      const day = hour === 0 || ticks.length === 0 ? clock.dayShort(t) : undefined;
      ticks.push({ time: t, label: clock.hhmm(t), ...(day ? { day } : {}) });
    } else if (hour === 0) {
      if (midnights++ % (hours / 24) === 0) ticks.push({ time: t, label: clock.dayShort(t) });
    }
  }
  return ticks;
}

/**
 * The points to draw: every reading when there are few, else per column of the plot its lowest and
 * highest in time order, so a peak is never lost; null breaks the line.
 */
function plotPoints(chart: AssessmentChart, xOf: (t: number) => number, columns: number) {
  const points: Array<{ t: number; v: number | null }> = [];
  const n = Math.min(chart.times.length, chart.values.length);
  if (n <= columns * 2) {
    for (let i = 0; i < n; i++) points.push({ t: chart.times[i]!, v: finite(chart.values[i]) });
    return points;
  }
  let bucket = -1;
  let lo: { t: number; v: number } | null = null;
  let hi: { t: number; v: number } | null = null;
  let empty = true;
  const flush = () => {
    if (bucket < 0) return;
    if (lo && hi) points.push(...(lo.t <= hi.t ? [lo, hi] : [hi, lo]));
    else if (empty) points.push({ t: 0, v: null });
  };
  for (let i = 0; i < n; i++) {
    const t = chart.times[i]!;
    const column = Math.floor(xOf(t));
    if (column !== bucket) {
      flush();
      [bucket, lo, hi, empty] = [column, null, null, true];
    }
    const v = finite(chart.values[i]);
    if (v === null) continue;
    empty = false;
    if (!lo || v < lo.v) lo = { t, v };
    if (!hi || v > hi.v) hi = { t, v };
  }
  flush();
  return points;
}

const finite = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? null : v;

const PLOT_HEIGHT = 170;
/** A chart's whole height: title, plot, time labels and legend. */
export const CHART_HEIGHT = 14 + 4 + PLOT_HEIGHT + 44;

/** A chart of one instrument's series, kept whole on one page. */
export function drawChart(
  pages: Pages,
  chart: AssessmentChart,
  result: AssessmentResult,
  clock: SiteClock,
): void {
  const doc = pages.doc;
  const plotHeight = PLOT_HEIGHT;
  const title = `${chart.title} (${chart.unit}) — ${instrumentText(result, chart.serial)}`;
  pages.need(CHART_HEIGHT);
  pages.subheading(title, CHART_HEIGHT - 14);

  const values = chart.values.map(finite).filter((v): v is number => v !== null);
  if (values.length === 0) {
    pages.text('No readings to draw for this chart.', { color: MUTED });
    return;
  }
  const t0 = Math.min(result.start, chart.times[0] ?? result.start);
  const t1 = Math.max(result.end, chart.times[chart.times.length - 1] ?? result.end);
  const limitValues = chart.limits.map((l) => l.value).filter(Number.isFinite);
  let lo = Math.min(...values, ...limitValues);
  const hi = Math.max(...values, ...limitValues);
  if (lo >= 0 && chart.unit !== 'dB') lo = 0;
  const scale = niceScale(lo, hi, 5);
  const x0 = LEFT + 34;
  const x1 = RIGHT - 10;
  const top = pages.y + 4;
  const bottom = top + plotHeight;
  const xOf = (t: number) => x0 + ((t - t0) / Math.max(1, t1 - t0)) * (x1 - x0);
  const yOf = (v: number) => bottom - ((v - scale.min) / (scale.max - scale.min)) * plotHeight;

  // Excluded time beneath everything else.
  const excluded = exclusionsFor(result, chart.serial)
    .map((e) => [Math.max(e.start, t0), Math.min(e.end, t1)] as const)
    .filter(([a, b]) => b > a);
  for (const [a, b] of excluded) {
    doc.rect(xOf(a), top, Math.max(0.8, xOf(b) - xOf(a)), plotHeight).fill(EXCLUDED_FILL);
  }

  // Value grid and labels.
  const decimals = decimalsOf(scale.step);
  doc.font('condensed').fontSize(6.8);
  for (let v = scale.min; v <= scale.max + scale.step / 1000; v += scale.step) {
    const y = yOf(v);
    doc.moveTo(x0, y).lineTo(x1, y).lineWidth(0.3).strokeColor(GRID).stroke();
    doc
      .fillColor(MUTED)
      .text(v.toFixed(decimals), LEFT, y - 3.5, { width: x0 - LEFT - 4, align: 'right', lineBreak: false });
  }

  // Time ticks, labelled in site time.
  // A label is centred on its tick, kept within the margins, and left out where it would touch the last.
  const ends = { label: -Infinity, day: -Infinity };
  const label = (text: string, x: number, y: number, font: FontName, row: keyof typeof ends) => {
    doc.font(font).fontSize(6.8).fillColor(INK);
    const w = doc.widthOfString(text);
    const left = Math.min(Math.max(x - w / 2, LEFT), RIGHT - w);
    if (left < ends[row] + 4) return;
    doc.text(text, left, y, { lineBreak: false });
    ends[row] = left + w;
  };
  for (const tick of timeTicks(clock, t0, t1)) {
    const x = xOf(tick.time);
    doc.moveTo(x, top).lineTo(x, bottom).lineWidth(0.3).strokeColor(GRID).stroke();
    doc
      .moveTo(x, bottom)
      .lineTo(x, bottom + 3)
      .lineWidth(0.6)
      .strokeColor(RULE)
      .stroke();
    label(tick.label, x, bottom + 5, 'condensed', 'label');
    if (tick.day) label(tick.day, x, bottom + 13, 'condensedBold', 'day');
  }

  // The series, clipped to the plot.
  doc.save();
  doc.rect(x0, top, x1 - x0, plotHeight).clip();
  const points = plotPoints(chart, xOf, Math.round(x1 - x0));
  let run: Array<[number, number]> = [];
  const strokeRun = () => {
    if (run.length === 1) doc.circle(run[0]![0], run[0]![1], 0.7).fill(ACCENT);
    else if (run.length > 1) {
      doc.moveTo(run[0]![0], run[0]![1]);
      for (const [x, y] of run.slice(1)) doc.lineTo(x, y);
      doc.lineWidth(0.7).lineJoin('round').strokeColor(ACCENT).stroke();
    }
    run = [];
  };
  for (const p of points) {
    if (p.v === null) strokeRun();
    else run.push([xOf(p.t), yOf(p.v)]);
  }
  strokeRun();
  doc.restore();

  // Limits: dashed, labelled at the right inside the plot.
  const placed: number[] = [];
  for (const limit of chart.limits) {
    if (!Number.isFinite(limit.value)) continue;
    const y = yOf(limit.value);
    doc.save();
    doc.moveTo(x0, y).lineTo(x1, y).dash(4, { space: 2.5 }).lineWidth(0.9).strokeColor(ALERT).stroke();
    doc.restore();
    const label = `${limit.label} ${limitNumberText(limit.value, chart.unit)} ${chart.unit}`;
    doc.font('condensed').fontSize(6.8);
    const w = doc.widthOfString(label) + 4;
    let ly = y - 9.5;
    if (ly < top + 1 || placed.some((p) => Math.abs(p - ly) < 9)) ly = y + 2;
    placed.push(ly);
    doc.save();
    doc
      .rect(x1 - w - 2, ly, w, 8.5)
      .fillOpacity(0.85)
      .fill('#ffffff');
    doc.restore();
    doc.fillColor(ALERT).text(label, x1 - w, ly + 0.8, { width: w, align: 'left', lineBreak: false });
  }

  // Frame on top.
  doc
    .rect(x0, top, x1 - x0, plotHeight)
    .lineWidth(0.6)
    .strokeColor(RULE)
    .stroke();

  // Legend.
  const ly = bottom + 26;
  let lx = x0;
  doc.font('condensed').fontSize(7).fillColor(INK);
  const entry = (draw: (x: number, y: number) => void, text: string) => {
    draw(lx, ly + 4);
    doc
      .fillColor(INK)
      .font('condensed')
      .fontSize(7)
      .text(text, lx + 20, ly, { lineBreak: false });
    lx += 20 + doc.widthOfString(text) + 14;
  };
  entry((x, y) => {
    doc
      .moveTo(x, y)
      .lineTo(x + 15, y)
      .lineWidth(1)
      .strokeColor(ACCENT)
      .stroke();
  }, `${chart.title} (${chart.unit})`);
  if (chart.limits.length > 0) {
    entry(
      (x, y) => {
        doc.save();
        doc
          .moveTo(x, y)
          .lineTo(x + 15, y)
          .dash(4, { space: 2.5 })
          .lineWidth(0.9)
          .strokeColor(ALERT)
          .stroke();
        doc.restore();
      },
      chart.limits.length > 1 ? 'Limits' : 'Limit',
    );
  }
  entry(
    (x, y) => {
      doc.rect(x, y - 3.5, 15, 7).fill(EXCLUDED_FILL);
    },
    excluded.length > 0 ? 'Excluded time' : 'Excluded time (none)',
  );
  doc.fillColor(MUTED).text(`Times in site time (${result.timeZone})`, lx, ly, { lineBreak: false });
  pages.y = ly + 18;
}
