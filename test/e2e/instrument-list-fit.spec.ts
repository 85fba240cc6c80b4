/**
 * The instrument list on a laptop (1366×768 and 1280×800) with the demo fleet: no sideways scroll,
 * no header or cell cut (a long name may end in an ellipsis, whole on hover), the monitor's figures
 * labelled; every column sorts by what it means; the columns shown are the user's choice, kept
 * after a reload.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

/**
 * Every header and cell whose content is wider than its box, but the name's (which ends in an
 * ellipsis, whole on hover). A pill or a figure inside is what would be cut: each child's box is
 * compared with the cell's; a visually hidden label (for screen readers) is clipped on purpose.
 * (A script as text: the e2e tsconfig has no DOM library.)
 */
async function cutCells(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const scroller = document.querySelector('[data-testid="instrument-scroller"]');
    const cut = [];
    for (const cell of scroller.querySelectorAll('th, td:not(.cell-name)')) {
      if (cell.closest('.spacer')) continue;
      const box = cell.getBoundingClientRect();
      const inner = [cell, ...cell.querySelectorAll('*:not(.visually-hidden)')];
      if (
        cell.scrollWidth > cell.clientWidth + 1 ||
        inner.some((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow === 'hidden') ||
        inner.some((el) => el.getBoundingClientRect().right > box.right + 1)
      )
        cut.push(cell.textContent.trim());
    }
    return cut;
  })()`);
}

const headers = (page: Page): Locator => page.getByTestId('instrument-scroller').getByRole('columnheader');

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width}×${viewport.height} the demo fleet’s list fits: no sideways scroll, nothing cut`, async ({
    page,
    harness,
  }, testInfo) => {
    await tryTheDemo(page, harness);
    await page.setViewportSize(viewport);
    // The health columns filled in (the monitors' figures read).
    await expect(page.getByTestId('monitor-cell').filter({ hasText: 'dBm' }).first()).toBeVisible();
    await expect(headers(page)).toHaveText([
      /^Serial/,
      /^Name/,
      /^State/,
      /^Contact/,
      /^Calibration/,
      /^SIC/,
      /^Monitor/,
      // Below 1320 px the subscription is left out by default (the Columns menu adds it).
      ...(viewport.width >= 1320 ? [/^Subscription/] : []),
    ]);
    const scroller = page.getByTestId('instrument-scroller');
    expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await cutCells(page)).toEqual([]);
    // The monitor's figures each with their name for a screen reader (and an icon on screen).
    const monitor = page.getByTestId('monitor-cell').filter({ hasText: 'dBm' }).first();
    await expect(monitor.locator('[data-kind="battery"]')).toContainText(/^Battery \d+\.\d\d V\d+\.\d V$/);
    await expect(monitor.locator('[data-kind="signal"]')).toContainText(/dBm/);
    await keepScreenshot(page, testInfo, `instruments-list-${viewport.width}`, false);
    // The demo's readings change with the clock: the widest the monitor can write (all three figures
    // beyond their limits, in bold, a full disk and the weakest signal) must fit too.
    await page.evaluate(`(() => {
      const cell = [...document.querySelectorAll('[data-testid="monitor-cell"]')].find(
        (c) => c.querySelectorAll('.monitor-figure').length === 3,
      );
      ['11.3 V', '100 %', '−120 dBm'].forEach((text, i) => {
        const figure = cell.querySelectorAll('.monitor-figure')[i];
        figure.classList.add('health-danger');
        figure.querySelector('[aria-hidden="true"]').textContent = text;
      });
      // And the widest age of a calibration or SIC: a check run minutes ago (seen cut in CI).
      for (const column of ['calibration', 'sic']) {
        const label = document.querySelector('[data-column="' + column + '"] .pill > span:last-child');
        label.textContent = 'Fail · 59 min';
      }
    })()`);
    expect(await cutCells(page)).toEqual([]);
  });
}

test('every column of the list sorts by what it means, both ways', async ({ page, harness }) => {
  await tryTheDemo(page, harness);
  await expect(page.getByTestId('monitor-cell').filter({ hasText: 'dBm' }).first()).toBeVisible();
  const rows = page.getByTestId('instrument-scroller').locator('tbody tr[data-index]');
  const column = async (index: number): Promise<string[]> =>
    rows.evaluateAll((trs, i) => trs.map((tr) => tr.children[i]?.textContent?.trim() ?? ''), index);

  const count = await headers(page).count();
  for (let index = 0; index < count; index++) {
    const header = headers(page).nth(index);
    // A new column sorts ascending at its first click; the name (sorted at the start) turns round.
    const wasSorted = (await header.getAttribute('aria-sort')) === 'ascending';
    await header.getByRole('button').click();
    if (wasSorted) {
      await expect(header).toHaveAttribute('aria-sort', 'descending');
      await header.getByRole('button').click();
    }
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const ascending = await column(index);
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const descending = await column(index);
    // A real order, and the other way round but for what is not known (last both ways).
    const known = (values: string[]) => values.filter((v) => v !== '—');
    expect(known(descending)).not.toEqual(known(ascending));
    const name = (await header.textContent())?.trim();
    if (name === 'Monitor') {
      const volts = known(ascending).map((v) => Number(/(\d+\.\d) V/.exec(v)?.[1]));
      expect(volts).toEqual([...volts].sort((a, b) => a - b));
      expect(ascending.at(-1)).toBe('—');
      expect(descending.at(-1)).toBe('—');
    }
    if (name === 'Calibration' || name === 'SIC') {
      // Failed first ascending, passed last; the checks not known at the end both ways.
      const words = known(ascending).map((v) => v.split(' · ')[0]);
      expect(words.indexOf('Fail')).toBeLessThan(words.lastIndexOf('Pass'));
      expect(ascending.at(-1)).toBe('—');
    }
    if (name === 'Contact') {
      // Newest first: "just now" before any "h ago".
      expect(ascending[0]).toMatch(/just now|min ago/);
      expect(descending[0]).toMatch(/Offline|h ago|d ago/);
    }
  }
});

test('the columns shown are the user’s choice, remembered after a reload', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const chooser = page.getByTestId('column-chooser');
  await chooser.getByRole('button', { name: 'Choose the list’s columns' }).click();
  await expect(chooser.getByRole('checkbox', { name: 'Name' })).toBeDisabled();
  await chooser.getByRole('checkbox', { name: 'Last system integrity check' }).uncheck();
  await chooser.getByRole('checkbox', { name: 'Model' }).check();
  await keepScreenshot(page, testInfo, 'instruments-columns', false);
  await page.keyboard.press('Escape');
  await expect(headers(page).filter({ hasText: /^SIC/ })).toHaveCount(0);
  await expect(headers(page).filter({ hasText: /^Model/ })).toHaveCount(1);
  // The model's column fits beside the others with no cut.
  expect(await cutCells(page)).toEqual([]);

  await page.reload();
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await expect(headers(page).filter({ hasText: /^SIC/ })).toHaveCount(0);
  await expect(headers(page).filter({ hasText: /^Model/ })).toHaveCount(1);

  await chooser.getByRole('button', { name: 'Choose the list’s columns' }).click();
  await chooser.getByRole('button', { name: 'Default for this window' }).click();
  await expect(headers(page).filter({ hasText: /^SIC/ })).toHaveCount(1);
  await expect(headers(page).filter({ hasText: /^Model/ })).toHaveCount(0);
});
