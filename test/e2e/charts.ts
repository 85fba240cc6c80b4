/**
 * Reading the data explorer's charts as a person does, through Chart.js itself: which legend, axes
 * and points a canvas holds, where a point is on the screen, and what the tooltip says when the
 * mouse is over it. Chart.js draws on a canvas, so none of this is in the DOM: the page's own
 * Chart class is found among the modules the page loaded (`import()` of an already loaded module
 * returns that same module) and asked for the canvas's chart with `Chart.getChart(canvas)`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

/** A point of a dataset as the chart holds it: a number (bars), or an object with x and y. */
export type RawPoint = number | { x: number; y: number | string; [field: string]: unknown } | null;

export interface ChartDatasetFacts {
  label: string;
  hidden: boolean;
  /** The y axis the dataset is drawn against (line charts). */
  yAxisID: string | null;
  data: RawPoint[];
}

export interface ChartAxisFacts {
  id: string;
  type: string;
  /** The axis title as drawn; '' without one. */
  title: string;
  /** Whether the axis is drawn now (an axis whose datasets are all hidden is not). */
  visible: boolean;
  min: number;
  max: number;
  /** Tick labels as drawn. */
  ticks: string[];
}

export interface ChartFacts {
  type: string;
  /** Legend entries as drawn; empty when the legend is hidden. */
  legend: string[];
  /** Category labels (bar charts). */
  labels: string[];
  datasets: ChartDatasetFacts[];
  axes: ChartAxisFacts[];
}

export interface TooltipFacts {
  title: string[];
  lines: string[];
}

type Request =
  | { kind: 'facts' }
  | { kind: 'point'; dataset: number; index: number }
  | { kind: 'tooltip' }
  | { kind: 'pixel'; axis: string; value: number };

// What the function handed to the page uses there (this file is checked as Node code).
interface BrowserChartElement {
  getCenterPoint(): { x: number; y: number };
}
interface BrowserScale {
  id: string;
  type: string;
  min: number;
  max: number;
  options: { display: boolean | string; title?: { display: boolean; text: string | string[] } };
  ticks: Array<{ label: string | string[] }>;
  _isVisible?: () => boolean;
  getPixelForValue(value: number): number;
}
interface BrowserChart {
  config: { type: string };
  data: {
    labels?: unknown[];
    datasets: Array<{ label?: string; hidden?: boolean; yAxisID?: string; data: unknown[] }>;
  };
  scales: Record<string, BrowserScale>;
  legend?: { options: { display: boolean }; legendItems?: Array<{ text: string }> };
  tooltip?: {
    opacity: number;
    title?: string[];
    body?: Array<{ before: string[]; lines: string[]; after: string[] }>;
    getActiveElements(): unknown[];
  };
  isDatasetVisible(index: number): boolean;
  getDatasetMeta(index: number): { data: BrowserChartElement[] };
}
interface BrowserChartClass {
  getChart(canvas: unknown): BrowserChart | undefined;
  register: unknown;
}
interface BrowserCanvas {
  getBoundingClientRect(): { left: number; top: number };
}
declare const performance: { getEntriesByType(type: string): Array<{ name: string }> };

/** Runs one request against the chart of `canvas` in the page. */
function ask<T>(canvas: Locator, request: Request): Promise<T> {
  return canvas.evaluate(async (element, request) => {
    // Chart.js keeps its charts in its own module: find the page's Chart class among the loaded modules.
    const scripts = [
      ...new Set(
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => /\.js(\?|$)/.test(name)),
      ),
    ];
    let chart: BrowserChart | undefined;
    for (const script of scripts) {
      const exports = Object.values((await import(script)) as Record<string, unknown>);
      for (const value of exports) {
        const candidate = value as Partial<BrowserChartClass> | null;
        if (typeof candidate?.getChart === 'function' && candidate.register !== undefined) {
          chart = candidate.getChart(element);
          if (chart !== undefined) break;
        }
      }
      if (chart !== undefined) break;
    }
    if (chart === undefined) throw new Error('This canvas holds no Chart.js chart.');

    const text = (value: string | string[] | undefined): string =>
      Array.isArray(value) ? value.join(' ') : (value ?? '');
    if (request.kind === 'facts') {
      const legendShown = chart.legend?.options.display !== false;
      return {
        type: chart.config.type,
        legend: legendShown ? (chart.legend?.legendItems ?? []).map((item) => item.text) : [],
        labels: (chart.data.labels ?? []).map(String),
        datasets: chart.data.datasets.map((dataset, index) => ({
          label: dataset.label ?? '',
          hidden: !chart.isDatasetVisible(index),
          yAxisID: dataset.yAxisID ?? null,
          data: dataset.data.map((point) =>
            point === null || typeof point !== 'object' ? point : { ...(point as object) },
          ),
        })),
        axes: Object.values(chart.scales).map((scale) => ({
          id: scale.id,
          type: scale.type,
          title: scale.options.title?.display ? text(scale.options.title.text) : '',
          visible: scale._isVisible ? scale._isVisible() : scale.options.display !== false,
          min: scale.min,
          max: scale.max,
          ticks: scale.ticks.map((tick) => text(tick.label)),
        })),
      };
    }
    const box = (element as unknown as BrowserCanvas).getBoundingClientRect();
    if (request.kind === 'point') {
      const target = chart.getDatasetMeta(request.dataset).data[request.index];
      if (target === undefined) throw new Error(`No point ${request.index} in dataset ${request.dataset}.`);
      const centre = target.getCenterPoint();
      return { x: box.left + centre.x, y: box.top + centre.y };
    }
    if (request.kind === 'pixel') {
      const scale = chart.scales[request.axis];
      if (scale === undefined) throw new Error(`No axis ${request.axis}.`);
      return scale.getPixelForValue(request.value) + (scale.id.startsWith('x') ? box.left : box.top);
    }
    const tooltip = chart.tooltip;
    if (!tooltip || tooltip.opacity === 0 || tooltip.getActiveElements().length === 0) return null;
    return {
      title: tooltip.title ?? [],
      lines: (tooltip.body ?? []).flatMap((part) => [...part.before, ...part.lines, ...part.after]),
    };
  }, request) as Promise<T>;
}

/** The legend, axes and data of the chart drawn on `canvas`. */
export function chartFacts(canvas: Locator): Promise<ChartFacts> {
  return ask<ChartFacts>(canvas, { kind: 'facts' });
}

/** Where on the page an axis value is drawn (x for an x axis, y for a y axis), in CSS pixels. */
export function pixelOf(canvas: Locator, axis: string, value: number): Promise<number> {
  return ask<number>(canvas, { kind: 'pixel', axis, value });
}

/**
 * Moves the mouse over point `index` of dataset `dataset` and waits for the tooltip: its title
 * and lines as Chart.js draws them.
 */
export async function hoverPoint(
  page: Page,
  canvas: Locator,
  dataset: number,
  index: number,
): Promise<TooltipFacts> {
  await canvas.scrollIntoViewIfNeeded();
  const at = await ask<{ x: number; y: number }>(canvas, { kind: 'point', dataset, index });
  // From off the point, so Chart.js sees a move onto it even when the mouse was there already.
  await page.mouse.move(at.x - 40, at.y - 40);
  await page.mouse.move(at.x, at.y);
  let shown: TooltipFacts | null = null;
  await expect
    .poll(async () => {
      shown = await ask<TooltipFacts | null>(canvas, { kind: 'tooltip' });
      return shown !== null;
    })
    .toBe(true);
  return shown!;
}

/** The index of the dataset whose label starts with `name` ("LAeq" finds "LAeq (dB)"). */
export function datasetNamed(facts: ChartFacts, name: string): number {
  const index = facts.datasets.findIndex((d) => d.label === name || d.label.startsWith(`${name} (`));
  if (index < 0)
    throw new Error(`No dataset "${name}" among ${facts.datasets.map((d) => d.label).join(', ')}.`);
  return index;
}

/**
 * Keeps what the engineer sees of a chart at 1366×768 as test-results/screens/<name>.png (also
 * attached to the report): `part` (the chart's card) scrolled to the top of the window, the
 * mouse moved away so no tooltip covers it.
 */
export async function keepChartScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  part: Locator,
): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.mouse.move(1, 1);
  await part.evaluate((element) =>
    (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'start' }),
  );
  const dir = join('test-results', 'screens');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
