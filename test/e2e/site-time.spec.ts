/**
 * Site time: a laptop set to New York looking at a UK site reads the site's own clock, with its
 * UTC offset, in the axis, the range and the pickers; a time typed in the 24-hour ISO format is
 * read in the zone shown, and switching to laptop time rewrites the pickers, not the range.
 */
import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import { generateDemoFleet } from '../../src/simulator';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

test.use({ timezoneId: 'America/New_York' });

test("a UK site's data reads in site time with its offset, and a typed range is read in that zone", async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const serial = generateDemoFleet(1, Date.now()).find(
    (instrument) => instrument.wire.type === 'Noise' && instrument.condition.measuring,
  )!.wire.serialNumber;
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseTimeHistory`);
  const chart = page.getByTestId('data-chart');
  await expect(chart).toHaveAttribute('data-samples', /^[1-9]\d+$/);

  // The demo sites are in Great Britain: site time is London's, offset stated.
  const london = tz('Europe/London');
  const offset = `UTC${format(Date.now(), 'xxx', { in: london })}`;
  const times = page.getByLabel('Times', { exact: true });
  await expect(times.locator('option:checked')).toHaveText(`Site (Europe/London, ${offset})`);

  // Three days ago, 09:00 to 15:00 on the site's clock.
  const day = format(Date.now() - 3 * 86_400_000, 'yyyy-MM-dd', { in: london });
  const siteStart = new Date(`${day}T09:00:00${format(Date.now() - 3 * 86_400_000, 'xxx', { in: london })}`);
  const siteEnd = siteStart.getTime() + 6 * 3_600_000;

  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Custom…' });
  const from = page.getByLabel(/^From \(UTC/);
  const to = page.getByLabel(/^To \(UTC/);
  await from.fill(`${day} 09:00`);
  await from.press('Enter');
  await to.fill(`${day} 15:00`);
  await to.press('Enter');
  await expect(chart).toHaveAttribute('data-view-start', String(siteStart.getTime()));
  await expect(chart).toHaveAttribute('data-view-end', String(siteEnd));
  // Not today, so with its full date.
  await expect(page.locator('.data-range')).toHaveText(
    `${format(siteStart, 'd MMM yyyy', { in: london })} 09:00 – 15:00 UTC${format(siteEnd, 'xxx', { in: london })}`,
  );
  await keepScreenshot(page, testInfo, 'data-site-time');

  // The same range in laptop time (New York): the pickers say 04:00 and 10:00 in November.
  await times.selectOption({ label: 'Laptop' });
  const newYork = tz('America/New_York');
  const laptopFrom = format(siteStart, 'yyyy-MM-dd HH:mm', { in: newYork });
  await expect(page.getByLabel(/^From \(UTC/)).toHaveValue(laptopFrom);
  await expect(chart).toHaveAttribute('data-view-start', String(siteStart.getTime()));
  await expect(page.getByLabel(/^From \(UTC/)).toHaveAccessibleName(
    `From (UTC${format(siteEnd, 'xxx', { in: newYork })})`,
  );
});
