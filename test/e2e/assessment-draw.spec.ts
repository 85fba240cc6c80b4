/**
 * Drawing an exclusion where the hand is: a drag across one instrument's chart on the Assessment
 * screen opens a form beside the drawn stretch, snapped to the chart's readings, with that
 * instrument chosen and the reason focused; saved, it is listed with the site's exclusions.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const NOISE = 'QT930998';
const NEIGHBOUR = 'QT570913';

test.use({ viewport: { width: 1366, height: 768 } });

/** Creates a site of the two noise monitors and waits for its charts. */
async function createSite(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Assessment' }).click();
  await page.getByRole('button', { name: 'New site' }).first().click();
  const form = page.getByRole('form', { name: 'New site' });
  await form.getByLabel('Site name').fill('Mill Lane');
  await form.getByLabel(new RegExp(NOISE)).check();
  await form.getByLabel(new RegExp(NEIGHBOUR)).check();
  await expect(form.getByLabel('Time zone')).toHaveValue('Europe/London');
  await form.getByRole('button', { name: 'Create site' }).click();
  await expect(page.getByTestId('assessment-source')).toContainText("from the service's data");
}

/** Drags across `canvas` from `from` to `to` (shares of its width), at mid height. */
async function drag(page: Page, canvas: Locator, from: number, to: number): Promise<void> {
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to, y, { steps: 8 });
  await page.mouse.up();
}

/** The minutes of a "yyyy-MM-dd HH:mm" time. */
const minutesOf = (text: string): number => Number(text.slice(-2));

test('a stretch drawn on an instrument chart opens a form at it, snapped to the readings, and is saved', async ({
  page,
  harness,
}, testInfo) => {
  // Two assessments of a week of two noise monitors (created, then with the exclusion): about
  // 150 s on two busy cores.
  test.setTimeout(360_000);
  await tryTheDemo(page, harness);
  await createSite(page);

  // The neighbour's chart, the second: drawn on it, the form chooses its instrument, not the first's.
  const chart = page.locator('.assessment-charts .data-chart').filter({ hasText: NEIGHBOUR });
  await expect(chart).toHaveCount(1);
  await page.getByTestId('draw-exclusion').click();
  await expect(page.getByTestId('draw-exclusion')).toHaveAttribute('aria-pressed', 'true');
  await drag(page, chart.locator('.data-chart-canvas'), 0.42, 0.53);

  const popover = page.getByRole('dialog', { name: 'Exclude this stretch' });
  await expect(popover).toBeVisible();
  await expect(page.getByTestId('draw-exclusion')).toHaveAttribute('aria-pressed', 'false');
  // The drag picked a stretch: the chart was not zoomed.
  await expect(page.getByRole('button', { name: 'Whole range' })).toBeDisabled();
  // At the chart, beside the drawn stretch (banded on the chart), and inside the window.
  await expect(chart.getByTestId('chart-marked')).toBeVisible();
  await expect(chart.getByTestId('exclusion-popover')).toBeVisible();
  const shown = (await popover.boundingBox())!;
  const band = (await chart.getByTestId('chart-marked').boundingBox())!;
  expect(shown.x).toBeGreaterThanOrEqual(0);
  expect(shown.y).toBeGreaterThanOrEqual(0);
  expect(shown.x + shown.width).toBeLessThanOrEqual(1366);
  expect(shown.y + shown.height).toBeLessThanOrEqual(768);
  expect(shown.x >= band.x + band.width || shown.x + shown.width <= band.x).toBe(true);

  await expect(popover.getByLabel('Instrument')).toHaveValue(NEIGHBOUR);
  await expect(popover.getByLabel('Reason')).toBeFocused();
  // Snapped to the chart's readings: both ends on their boundaries, on the site's clock.
  const note = await popover.locator('.popover-note').innerText();
  const step = Number(/Snapped to the (\d+) min readings of QT570913/.exec(note)?.[1]);
  expect(step).toBeGreaterThan(0);
  expect(note).toContain('Europe/London');
  const from = await popover.getByLabel('From').inputValue();
  const to = await popover.getByLabel('To').inputValue();
  expect(from).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  expect(to).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  expect(minutesOf(from) % step).toBe(0);
  expect(minutesOf(to) % step).toBe(0);
  expect(to > from).toBe(true);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'test-results/screens/assessment-draw-popover.png' });
  await testInfo.attach('assessment-draw-popover', {
    path: 'test-results/screens/assessment-draw-popover.png',
    contentType: 'image/png',
  });

  // Enter without a reason: said in the form, which stays open with what it holds.
  await page.keyboard.press('Enter');
  await expect(popover.getByRole('alert')).toContainText('Say why this period does not count.');
  await expect(popover.getByLabel('From')).toHaveValue(from);

  await popover.getByLabel('Reason').fill('Generator beside the monitor');
  await page.keyboard.press('Enter');
  await expect(popover).toHaveCount(0);
  const listed = page.getByTestId('manual-exclusions').getByRole('row').filter({ hasText: 'Generator' });
  await expect(listed).toHaveCount(1);
  await expect(listed.getByRole('cell')).toHaveText([
    from,
    to,
    NEIGHBOUR,
    'Generator beside the monitor',
    'Remove',
  ]);
  // Focus back on the button that draws another.
  await expect(page.getByTestId('draw-exclusion')).toBeFocused();
  await expect(page.getByTestId('assessment-source')).not.toContainText('Assessing');
  // The chart shades the new excluded stretch (looked at in the screenshot).
  await chart.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'assessment-draw-saved', false);
  await page.getByTestId('draw-exclusion').focus();

  // By keyboard: drawing on, Enter on a chart takes the stretch it shows; Esc cancels, saving nothing.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('draw-exclusion')).toHaveAttribute('aria-pressed', 'true');
  await chart.locator('.data-chart-canvas').focus();
  await page.keyboard.press('Enter');
  await expect(popover).toBeVisible();
  await expect(popover.getByLabel('Reason')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await expect(page.getByTestId('draw-exclusion')).toBeFocused();
  await expect(page.getByTestId('manual-exclusions').getByRole('row')).toHaveCount(2);
});
