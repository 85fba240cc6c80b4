/**
 * The data explorer in a real browser (headless Chromium through the harness, the built UI):
 *
 * - Chart: a week of 1 s noise levels (604,800 samples) from the cache to a painted chart, against
 *   uPlot drawing the same samples in the same browser run (uPlot is a dev dependency of the bench
 *   only). Aim ≤ 1.5x.
 * - A zoom step on that week (half the span, read again from the cache at the chart's width).
 *   Aim < 50 ms.
 * - First contentful paint and time to the instruments list of the built UI. Aim < 1 s each.
 *
 * Every figure is the median of a few rounds; the ratios are what to compare between machines.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startHarness, type RunningHarness } from '../src/harness/server';
import { generateDemoFleet } from '../src/simulator';
import { middleOf } from './timing';
import { chromiumLaunchOptions } from '../chromium.shared';
import type { DataReadResult } from '../src/shared/data';
import { SYNC_TIME_HISTORY_OPTIONS } from '../src/shared/sync-choices';
import { decodeFrame, FRAME_CONTENT_TYPE } from '../src/shared/ipc/binary-frame';

// What the functions handed to page.evaluate use in the browser (this file is checked as Node code).
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  click(): void;
  replaceChildren(): void;
  /** A list's value (the range's select). */
  value: string;
  parentElement: PageElement | null;
  dispatchEvent(event: unknown): boolean;
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getElementById(id: string): PageElement | null;
};
declare const window: Record<string, unknown>;
declare function requestAnimationFrame(callback: (time: number) => void): number;

const HOUR = 3_600_000;
/** Rounds per figure (the median is printed): 9, as 5 let one busy spell on a shared machine move it. */
const ROUNDS = 9;

async function invoke<T>(harness: RunningHarness, channel: string, arg: unknown): Promise<T> {
  const response = await fetch(`${harness.origin}api/invoke/${channel}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${harness.token}` },
    body: JSON.stringify(arg),
  });
  // Answers with time series come as a binary frame (see binary-frame.ts), the others as JSON.
  const envelope = (
    response.headers.get('Content-Type') === FRAME_CONTENT_TYPE
      ? decodeFrame(await response.arrayBuffer())
      : await response.json()
  ) as { ok: boolean; value?: T; error?: { message: string } };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message ?? 'failed'}`);
  return envelope.value as T;
}

type Condition = 'week' | 'day' | 'moved';

/**
 * Milliseconds from clicking the button `text` (or choosing the list option `text`) until `condition` holds on the chart and two
 * frames have painted. Functions, not strings: the page's CSP allows no eval, as in the app.
 */
async function timeStep(page: Page, text: string, condition: Condition): Promise<number> {
  return page.evaluate(
    async ({ text, condition }) => {
      const chart = () => document.querySelector('[data-testid=data-chart]');
      const samples = () => Number(chart()?.getAttribute('data-samples') ?? 0);
      const before = chart()?.getAttribute('data-view-start');
      const holds = {
        week: () => samples() > 500_000,
        day: () => samples() > 0 && samples() < 100_000,
        moved: () => chart()?.getAttribute('data-view-start') !== before,
      }[condition];
      // A button by its text, or a choice of a list (the range) by its option's text.
      const button = [...document.querySelectorAll('button')].find(
        (element) => element.textContent?.trim() === text,
      );
      const option = [...document.querySelectorAll('select option')].find(
        (element) => element.textContent?.trim() === text,
      );
      if (button === undefined && option === undefined) throw new Error(`nothing to choose called "${text}"`);
      const t0 = performance.now();
      if (button !== undefined) button.click();
      else {
        const list = option!.parentElement!;
        list.value = option!.getAttribute('value') ?? '';
        list.dispatchEvent(new Event('change', { bubbles: true }));
      }
      while (!holds()) await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return performance.now() - t0;
    },
    { text, condition },
  );
}

/** tsx keeps function names with a `__name` helper, which functions sent to the page call too. */
const KEEP_NAMES = { content: 'globalThis.__name = (target) => target;' };

async function measureChart(page: Page, harness: RunningHarness, serial: string) {
  await page.addInitScript(KEEP_NAMES);
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseTimeHistory`);
  await page.waitForSelector('[data-testid=data-chart][data-samples]');
  const week: number[] = [];
  const zoom: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    week.push(await timeStep(page, 'Last 7 days', 'week'));
    zoom.push(await timeStep(page, 'Zoom in', 'moved'));
    await timeStep(page, 'Last 24 hours', 'day');
  }
  return { week: middleOf(week), zoom: middleOf(zoom) };
}

/** uPlot drawing the same week of samples in a blank page of the same browser. */
async function measureUplot(browser: Browser, times: Float64Array, values: Float32Array): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await page.addInitScript(KEEP_NAMES);
    await page.setContent('<div id="chart"></div>');
    await page.addScriptTag(KEEP_NAMES);
    await page.addStyleTag({ path: 'node_modules/uplot/dist/uPlot.min.css' });
    await page.addScriptTag({ path: 'node_modules/uplot/dist/uPlot.iife.min.js' });
    await page.evaluate(
      ({ t, v }) => {
        const decode = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
        const seconds = Array.from(new Float64Array(decode(t)), (ms) => ms / 1000);
        const levels = Array.from(new Float32Array(decode(v)), (x) => (Number.isNaN(x) ? null : x));
        window['benchData'] = [seconds, levels];
      },
      {
        t: Buffer.from(times.buffer, times.byteOffset, times.byteLength).toString('base64'),
        v: Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64'),
      },
    );
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(
        await page.evaluate(async () => {
          const target = document.getElementById('chart')!;
          target.replaceChildren();
          const t0 = performance.now();
          // @ts-expect-error uPlot is the page's global, loaded from its IIFE build above.
          new uPlot(
            { width: 1300, height: 380, series: [{}, { label: 'LAeq', stroke: 'blue' }] },
            window['benchData'],
            target,
          );
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return performance.now() - t0;
        }),
      );
    }
    return middleOf(rounds);
  } finally {
    await page.close();
  }
}

async function measureStart(browser: Browser, harness: RunningHarness) {
  const paint: number[] = [];
  const list: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.addInitScript(KEEP_NAMES);
    await page.goto(harness.url);
    await page.waitForSelector('[data-testid=instrument-count]');
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      list: performance.now(),
    }));
    paint.push(timing.paint);
    list.push(timing.list);
    await page.close();
  }
  return { paint: middleOf(paint), list: middleOf(list) };
}

export async function benchChart(): Promise<void> {
  console.log('\nData explorer in Chromium (the built UI through the harness)');
  // Built every run: a web build left from older code would measure that code instead.
  execFileSync(process.execPath, [
    'node_modules/vite/bin/vite.js',
    'build',
    '--config',
    'vite.web.config.ts',
    '--logLevel',
    'warn',
  ]);
  let browser: Browser;
  try {
    browser = await chromium.launch(chromiumLaunchOptions());
  } catch (error) {
    console.log(`  skipped: Chromium could not start (${String(error).split('\n')[0]})`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-bench-chart-'));
  const harness = await startHarness({
    port: 0,
    dataDir,
    staticDir: 'out/web',
    keychainService: `FieldDesk-bench-${process.pid}`,
  });
  try {
    await invoke(harness, 'accounts.tryDemo', {});
    const serial = generateDemoFleet(1, Date.now()).find(
      (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
    )!.wire.serialNumber;
    // The week in the cache first, as after a site sync: the chart then reads it from there.
    const end = Math.floor(Date.now() / HOUR) * HOUR;
    // With the sync's options, which the chart asks for too: the chart then reads what this stored.
    const week = await invoke<DataReadResult>(harness, 'data.read', {
      serial,
      dataset: 'noiseTimeHistory',
      start: end - 7 * 24 * HOUR,
      end,
      options: SYNC_TIME_HISTORY_OPTIONS,
    });
    const { times, values } = week.series[0]!;
    // A site sync keeps the events too; the noise chart marks them.
    await invoke(harness, 'data.read', { serial, dataset: 'events', start: end - 7 * 24 * HOUR, end });

    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    const chart = await measureChart(page, harness, serial);
    await page.close();
    const uplot = await measureUplot(browser, times, values);
    const start = await measureStart(browser, harness);

    console.log(`  ${times.length.toLocaleString('en-GB')} samples, median of ${ROUNDS} rounds`);
    console.log(`  baseline  uPlot drawing the same samples: ${uplot.toFixed(0)} ms (1.00x)`);
    console.log(
      `  subject   "Last 7 days" from the cache to a painted chart: ${chart.week.toFixed(0)} ms ` +
        `(${(chart.week / uplot).toFixed(2)}x the baseline's time; aim ≤ 1.5x)`,
    );
    console.log(
      `  zoom step (half the span, read again at the chart's width): ${chart.zoom.toFixed(0)} ms (aim < 50 ms)`,
    );
    console.log(
      `  start: first contentful paint ${start.paint.toFixed(0)} ms, instruments list ${start.list.toFixed(0)} ms (aim < 1 s each)`,
    );
  } finally {
    await browser.close();
    await harness.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
