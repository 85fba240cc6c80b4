/**
 * A year of a three-monitor noise site assessed in the browser: the progress says the days read
 * and Cancel stops it, leaving the week shown before (never a red error); then the whole year is
 * assessed while the page keeps answering, its figures shown a month a row with the days of a
 * month opened beneath — no main-thread block over 200 ms while the result is drawn, and a page of
 * thousands of elements, not hundreds of thousands. The same after the year's PDF is written.
 *
 * A proxy in front of the demo service holds the first monitor's levels from its 63rd day on
 * until the test lets them go, so "still reading" never races the clock. Long tasks are taken by
 * a PerformanceObserver('longtask') the page starts with.
 */
import type { Page } from '@playwright/test';
import { format } from 'date-fns';
import { tz } from '@date-fns/tz';
import { addAccount, expect, keepScreenshot, test } from './fixtures';
import { startOddService } from './odd-service';

const KEY = 'year-key';
const DAY_MS = 86_400_000;
/** Three noise monitors of the demo fleet (seed 1). */
const MONITORS = ['QT930998', 'QT570913', 'QT882792'];

/** The main-thread blocks (ms) seen since the last call, and forgets them. */
// (Scripts as text: the e2e tsconfig has no DOM library.)
async function takeLongTasks(page: Page): Promise<number[]> {
  // Blocks that began before `ignoreBefore` are the test's own reference work (see slowness).
  return page.evaluate<number[]>(
    'window.longTasks.splice(0).filter(([start]) => start >= window.ignoreBefore).map(([, duration]) => duration)',
  );
}

/**
 * How much slower this machine is just now than an idle developer machine (two cores): a fixed
 * piece of page work (build, sort and copy 25,000 rows) timed five times, its median over the
 * 50 ms it takes there, at least 1. The page's blocks are held to 200 ms times the larger of this
 * taken before and after they were measured, so the aim holds on a machine busy with other work
 * without the test depending on its speed.
 */
async function slowness(page: Page): Promise<number> {
  const times = await page.evaluate<number[]>(`(() => {
    const times = [];
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      const rows = [];
      for (let i = 0; i < 25000; i++) rows.push({ i, key: 'k' + ((i * 7919) % 25000) });
      rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      JSON.parse(JSON.stringify(rows));
      times.push(performance.now() - start);
    }
    // The reference work's own blocks are not the app's, whenever the observer reports them.
    window.ignoreBefore = performance.now();
    return times;
  })()`);
  return Math.max(1, [...times].sort((a, b) => a - b)[2]! / 50);
}

/** The longest block of `blocks` within 200 ms scaled by the slower of `before` and now. */
async function expectNoBlockOver200ms(
  page: Page,
  testInfo: Info,
  blocks: number[],
  before: number,
): Promise<number> {
  const factor = Math.max(before, await slowness(page));
  const budget = Math.round(200 * factor);
  testInfo.annotations.push({
    type: 'blocks',
    description: `long tasks ${blocks.join(', ') || 'none'} ms; budget ${budget} ms (machine ${factor.toFixed(2)}× the reference)`,
  });
  expect(Math.max(0, ...blocks)).toBeLessThanOrEqual(budget);
  return factor;
}

// The trace's DOM snapshots run on the page's main thread: off, so only the app's own work is measured.
test.use({ trace: 'off' });

const elementsOnPage = (page: Page) => page.evaluate<number>("document.getElementsByTagName('*').length");

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];
type Info = Parameters<Parameters<typeof test>[2]>[1];

/**
 * The site of three monitors over its last week, then a year with the first monitor's levels held
 * from its 63rd day: the progress while held, and Cancel. With `wholeYear`, the held days are let
 * go and the whole year assessed, drawn a month a row, and written as a PDF.
 */
async function yearOfThreeMonitors(
  { page, harness, externalService }: Pick<Fixtures, 'page' | 'harness' | 'externalService'>,
  testInfo: Info,
  wholeYear: boolean,
): Promise<void> {
  const service = await externalService({ keys: { [KEY]: '*' }, rateLimit: 10_000 });
  let holdFrom: number | null = null;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const proxy = await startOddService(service.baseUrl, {
    hold: (path, query) => {
      const start = Date.parse(query.get('start') ?? '');
      return holdFrom !== null &&
        query.get('instruments') === MONITORS[0] &&
        path.endsWith('/data/noise/measurements') &&
        start >= holdFrom
        ? released
        : null;
    },
  });
  await page.addInitScript({
    content: `window.longTasks = [];
      window.ignoreBefore = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.longTasks.push([entry.startTime, Math.round(entry.duration)]);
      }).observe({ type: 'longtask', buffered: true });`,
  });
  try {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(harness.url);
    await addAccount(page, { name: 'Noise year', baseUrl: proxy.baseUrl, apiKey: KEY });
    await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');

    // The site of three monitors, assessed first over its last seven days.
    await page.getByRole('link', { name: 'Assessment' }).click();
    await page.getByRole('button', { name: 'New site' }).first().click();
    const form = page.getByRole('form', { name: 'New site' });
    await form.getByLabel('Site name').fill('Mill Lane year');
    for (const serial of MONITORS) await form.getByLabel(new RegExp(serial)).check();
    await expect(form.getByLabel('Time zone')).toHaveValue('Europe/London');
    await form.getByRole('button', { name: 'Create site' }).click();
    const figures = page.getByTestId(`figures-${MONITORS[0]}`);
    await expect(figures).toBeVisible();
    await expect(page.getByTestId('assessment-source')).toContainText("from the service's data");
    const weekRows = await figures.locator('tbody tr').count();
    expect(weekRows).toBeGreaterThanOrEqual(7);

    // A year up to the same midnight: the first monitor's levels are held from its 63rd day.
    const london = tz('Europe/London');
    const to = page.getByLabel(/^To \(UTC/);
    const end = await to.inputValue();
    const endMs = Date.parse(`${end.replace(' ', 'T')}:00${format(Date.now(), 'xxx', { in: london })}`);
    const yearStart = endMs - 365 * DAY_MS;
    const fromText = format(yearStart, 'yyyy-MM-dd', { in: london });
    holdFrom = yearStart + 62 * DAY_MS - 3_600_000;
    const from = page.getByLabel(/^From \(UTC/);
    await from.fill(`${fromText} 00:00`);
    await from.press('Enter');

    const progress = page.getByTestId('assessment-progress');
    await expect(progress).toContainText(`${MONITORS[0]} (1 of 3): 62 of 365 days read`);
    await expect(progress).toContainText('Reading the data');
    // The page answers while the year is read: the rules open, the week's figures stay.
    await page.getByText('Rules, limits and methods').click();
    await expect(page.getByRole('checkbox', { name: 'Any precipitation' })).toBeVisible();
    await page.getByText('Rules, limits and methods').click();
    await expect(figures.locator('tbody tr')).toHaveCount(weekRows);
    await keepScreenshot(page, testInfo, 'assessment-year-progress', false);

    // Cancel: at once, the week's figures kept, said as cancelled, never as an error.
    await page.getByTestId('assessment-cancel').click();
    await expect(page.getByTestId('assessment-cancelled')).toContainText(
      'Cancelled. The figures below are from the assessment before it.',
    );
    await expect(progress).toBeHidden();
    await expect(page.getByText('Could not assess this period')).toBeHidden();
    await expect(figures.locator('tbody tr')).toHaveCount(weekRows);
    await keepScreenshot(page, testInfo, 'assessment-year-cancelled', false);

    // The week's hourly table, read when opened: a row an hour of each of the three monitors.
    const hourlySummary = page.locator('summary', { hasText: 'Hourly table (' });
    await expect(hourlySummary).toContainText(`(${7 * 24 * 3} hours`);
    await hourlySummary.click();
    const hourly = page.getByTestId('hourly');
    await expect(hourly).toHaveAttribute('aria-rowcount', String(7 * 24 * 3 + 1));
    await expect(hourly.locator('tbody tr:not(.spacer)').first()).toBeVisible();
    // The report's columns and words: levels with the excluded time left out, then all data.
    await expect(hourly.locator('thead th').last()).toHaveText('LAeq all data (dB)');
    await expect(page.getByText(/^LAeq, LAFMax, LA10 and LA90 are each formed/)).toBeVisible();
    await hourlySummary.click();

    if (!wholeYear) return;

    // The whole year: the held days let go, the year assessed again from the start.
    holdFrom = null;
    release();
    let factor = await slowness(page);
    await page.getByRole('button', { name: 'Assess again' }).click();
    await expect(page.getByTestId('assessment-cancelled')).toBeHidden();
    await expect(progress).toBeVisible();
    // Still answering input while it reads and computes.
    await page.getByText('Rules, limits and methods').click();
    await expect(page.getByRole('checkbox', { name: 'Any precipitation' })).toBeVisible();
    await page.getByText('Rules, limits and methods').click();
    await expect(progress).toBeHidden({ timeout: 600_000 });
    await expect(page.getByText('Could not assess this period')).toBeHidden();

    // The year by month: 12 or 13 month rows (it starts mid-month), each with its highest figure.
    const months = figures.locator('tr.month-row');
    await expect(months.first()).toBeVisible();
    expect(await months.count()).toBeGreaterThanOrEqual(12);
    expect(await months.count()).toBeLessThanOrEqual(13);
    const secondMonth = months.nth(1);
    await expect(secondMonth.locator('td[data-figure="LAeq,day"] .figure-valid')).toHaveText(/^\d{2,3}\.\d$/);
    factor = await expectNoBlockOver200ms(page, testInfo, await takeLongTasks(page), factor);
    const elements = await elementsOnPage(page);
    testInfo.annotations.push({ type: 'year', description: `${elements} elements` });
    expect(elements).toBeLessThan(10_000);

    // A month opens into its days, read then, each a figure that opens its readings.
    await secondMonth.getByRole('button').click();
    await expect(secondMonth.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
    const days = figures.locator('tr.month-day:not(.month-state)');
    await expect(days.first()).toBeVisible();
    expect(await days.count()).toBeGreaterThanOrEqual(28);
    await expect(days.first().locator('th')).toHaveText(/^\w{3} \d{1,2} \w{3} \d{4}$/);
    await expect(days.first().locator('td[data-figure="LAeq,night"] .figure-valid')).toHaveText(
      /^(\d{2,3}\.\d|—|insufficient data.*|all excluded|no readings)$/,
    );
    factor = await expectNoBlockOver200ms(page, testInfo, await takeLongTasks(page), factor);
    await keepScreenshot(page, testInfo, 'assessment-year-month', false);

    // The year's PDF: written with its progress, and the page still draws without a block.
    await page.getByRole('button', { name: 'Save report (PDF)' }).click();
    await expect(page.getByTestId('report-saved')).toBeVisible({ timeout: 600_000 });
    await expectNoBlockOver200ms(page, testInfo, await takeLongTasks(page), factor);
    expect(await elementsOnPage(page)).toBeLessThan(10_000);
    await keepScreenshot(page, testInfo, 'assessment-year-report', false);
  } finally {
    release();
    await proxy.close();
  }
}

test('a year of three noise monitors: the days read said as they are read, and Cancel keeps the week', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // A week of three monitors, then 62 days of the year read before the hold: about 2 min on two
  // busy cores.
  test.setTimeout(300_000);
  await yearOfThreeMonitors({ page, harness, externalService }, testInfo, false);
});

test('a year of three noise monitors drawn a month a row without a main-thread block over 200 ms', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // A week, then a year of three monitors read and assessed: 5.6–8 min on two busy cores, most
  // of it the year's reads; the PDF after it adds a few minutes more.
  test.setTimeout(1_200_000);
  await yearOfThreeMonitors({ page, harness, externalService }, testInfo, true);
});
