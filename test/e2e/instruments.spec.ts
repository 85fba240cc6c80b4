import { generateDemoFleet } from '../../src/simulator';
import { addAccount, expect, keepScreenshot, listCell, test } from './fixtures';
import { startOddService } from './odd-service';

test('try the demo, filter the fleet, open an instrument and rename it', async ({
  page,
  harness,
}, testInfo) => {
  await page.goto(harness.url);
  await page.getByRole('button', { name: 'Try the demo' }).click();

  const rows = page.getByRole('table').getByRole('row');
  // Header row + the ten instruments of the demo fleet.
  await expect(rows).toHaveCount(11);
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await expect(page.getByTestId('connectivity')).toContainText('Online');
  await keepScreenshot(page, testInfo, 'instruments-list');

  // Filter by type: only the vibration monitors remain.
  await page.getByLabel('Type').selectOption({ label: 'Vibration' });
  await expect(page.getByTestId('instrument-count')).toContainText(/^\d+ of 10 instruments$/);
  // The demo's vibration monitors are the VB serials.
  const vibrationRows = page
    .getByRole('table')
    .getByRole('row')
    .filter({ hasText: /VB\d{6}/ });
  const shown = await page.getByRole('table').getByRole('row').count();
  expect(await vibrationRows.count()).toBe(shown - 1);

  // Search narrows to one serial.
  const firstSerial = (await listCell(vibrationRows.first(), 'serial').innerText()).trim();
  await page.getByLabel('Type').selectOption({ label: 'All types' });
  await page.getByLabel('Search').fill(firstSerial);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);

  // Open it and rename it in place.
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByRole('button', { name: 'Rename' })).toBeVisible();
  await expect(page.getByText(firstSerial).first()).toBeVisible();
  // The demo's image address is on a host that does not exist: why it is not shown, and where it is.
  const imageProblem = page.getByTestId('instrument-image-problem');
  await expect(imageProblem).toContainText(
    'Not shown: The image could not be fetched from demo.fielddesk.invalid: it could not be reached.',
  );
  await expect(imageProblem).toContainText('https://demo.fielddesk.invalid/images/');
  await keepScreenshot(page, testInfo, 'instrument-detail');
  await page.getByRole('button', { name: 'Rename' }).click();
  const nameInput = page.getByLabel('Instrument name');
  await nameInput.fill('   ');
  await expect(page.getByRole('alert')).toContainText('The name cannot be empty.');
  await nameInput.fill('Gate 3 – piling rig');
  await nameInput.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Gate 3 – piling rig');

  // The new name comes from the service: reload the whole page and refresh the list.
  await page.reload();
  await page.getByRole('link', { name: 'Instruments', exact: true }).click();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: firstSerial })).toContainText(
    'Gate 3 – piling rig',
  );
});

test('a key without instruments:read is refused with the precise reason', async ({
  page,
  harness,
  externalService,
}) => {
  const service = await externalService({ keys: { 'noise-data-only': ['data.noise:read'] } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Harbour works', baseUrl: service.baseUrl, apiKey: 'noise-data-only' });
  await expect(page.getByRole('alert')).toContainText(
    'This key lacks the instruments:read scope, so FieldDesk cannot list instruments.',
  );
  // Nothing was saved: still on the first-run screen, no account to switch to.
  await expect(page.getByRole('heading', { name: 'Welcome to FieldDesk' })).toBeVisible();
});

test('an invalid key and an unreachable address each get their own message', async ({
  page,
  harness,
  externalService,
}) => {
  const service = await externalService({ keys: { 'right-key': '*' } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Client A', baseUrl: service.baseUrl, apiKey: 'wrong-key' });
  await expect(page.getByRole('alert')).toContainText('did not accept this API key');

  await addAccount(page, { name: 'Client A', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'right-key' });
  await expect(page.getByRole('alert')).toContainText('127.0.0.1');

  await addAccount(page, { name: 'Client A', baseUrl: 'http://example.com/v1', apiKey: 'right-key' });
  await expect(page.getByText('plain http is allowed only for a service on this computer')).toBeVisible();
});

test('when the service stops, the list stays and a clear offline message shows', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  const service = await externalService({ keys: { 'field-key': '*' } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Sizewell site', baseUrl: service.baseUrl, apiKey: 'field-key' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');

  await service.close();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toContainText('Offline');
  await expect(banner).toContainText('127.0.0.1');
  await expect(banner).not.toContainText(/ECONNREFUSED|fetch failed|TypeError/);
  await expect(page.getByTestId('connectivity')).toContainText('Offline');
  // What was loaded before is still there to work from.
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(11);
  await keepScreenshot(page, testInfo, 'offline');
});

test('a key without instruments:write cannot rename, and the app says why', async ({
  page,
  harness,
  externalService,
}) => {
  // (A key that is not spelled in the account's name: such a name is refused.)
  const service = await externalService({ keys: { 'viewer-key': ['instruments:read'] } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Read-only client', baseUrl: service.baseUrl, apiKey: 'viewer-key' });
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').click();
  // Wait for the instrument's own page (it loads when first opened) before reading its name.
  await expect(page.getByRole('button', { name: 'Rename' })).toBeVisible();
  const heading = page.getByRole('heading', { level: 1 });
  const originalName = (await heading.innerText()).trim();
  expect(originalName).not.toBe('Instruments');

  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('Instrument name').fill('Should not stick');
  await page.getByLabel('Instrument name').press('Enter');
  await expect(page.getByRole('alert')).toContainText('instruments:write');
  // The old name came back, and renaming is now disabled with the reason shown.
  await expect(heading).toHaveText(originalName);
  await expect(page.getByRole('button', { name: 'Rename' })).toBeDisabled();
  await expect(
    page.getByText('This key cannot rename instruments: it lacks instruments:write.', { exact: true }),
  ).toBeVisible();
});

/** Any state a status that was read can show (not "Loading status", not "Status unknown"). */
const READ_STATE = /Measuring|Idle|Offline|Calibrating|SIC running|Online/;

test('a fleet of 1,000: the rows on screen read their statuses, far down the list too', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  const service = await externalService({ keys: { 'fleet-key': '*' }, fleetSize: 1000 });
  // Every status request the page sends: how many serials each asks for.
  const asked: number[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/invoke/instruments.statuses')) {
      asked.push((request.postDataJSON() as { serials: string[] }).serials.length);
    }
  });
  // The most table rows the page ever holds: a virtualized list never renders the whole fleet,
  // not even for one frame (an unbounded scroller once made it render all 1,000 at first).
  // (A script as text: the e2e tsconfig has no DOM library.)
  await page.addInitScript({
    content: `window.mostRows = 0;
      document.addEventListener('DOMContentLoaded', () => {
        new MutationObserver(() => {
          window.mostRows = Math.max(window.mostRows, document.querySelectorAll('tr').length);
        }).observe(document.body, { childList: true, subtree: true });
      });`,
  });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Big fleet', baseUrl: service.baseUrl, apiKey: 'fleet-key' });

  await expect(page.getByTestId('instrument-count')).toHaveText('1,000 instruments');
  const table = page.getByRole('table');
  // Screen readers hear the whole list's size, while only the rows in view are in the page.
  await expect(table).toHaveAttribute('aria-rowcount', '1001');
  expect(await table.getByRole('row').count()).toBeLessThan(60);
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow).toHaveAttribute('aria-rowindex', '2');
  await expect(firstRow.locator('[data-column="state"]')).toContainText(READ_STATE);
  await keepScreenshot(page, testInfo, 'instruments-fleet-1000');

  // Scrolled halfway down: the rows there read theirs.
  await page.getByTestId('instrument-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  const middleRow = table.locator('tbody tr[aria-rowindex]').nth(8);
  await expect(middleRow).toHaveAttribute('aria-rowindex', /^[45]\d\d$/);
  await expect(middleRow.locator('[data-column="state"]')).toContainText(READ_STATE);

  // The keyboard reaches the end of the list, and the last row reads its status too.
  await middleRow.getByRole('link').focus();
  await page.keyboard.press('End');
  const lastRow = table.locator('tr[aria-rowindex="1001"]');
  await expect(lastRow.getByRole('link')).toBeFocused();
  await expect(lastRow.locator('[data-column="state"]')).toContainText(READ_STATE);
  await page.keyboard.press('ArrowUp');
  await expect(table.locator('tr[aria-rowindex="1000"]').getByRole('link')).toBeFocused();
  await keepScreenshot(page, testInfo, 'instruments-fleet-1000-end');

  expect(await page.evaluate('window.mostRows')).toBeLessThan(100);
  // Never more than a batch at a time, and only for rows that were on screen: far from all 1,000.
  expect(asked.length).toBeGreaterThan(0);
  expect(Math.max(...asked)).toBeLessThanOrEqual(100);
  expect(asked.reduce((sum, n) => sum + n, 0)).toBeLessThan(500);

  // Search still covers the whole fleet, not just the rows that were rendered.
  const lastSerial = (await listCell(lastRow, 'serial').innerText()).trim();
  await page.getByLabel('Search').fill(lastSerial);
  await expect(page.getByTestId('instrument-count')).toHaveText('1 of 1,000 instruments');
  await expect(table.getByRole('row').nth(1)).toContainText(lastSerial);
});

test('odd answers: a calm note for unreadable items, notes beside the facts, long names cut on the list', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // Three online noise instruments of the seed-1 demo fleet (the one externalService starts).
  const [odd, never, long] = generateDemoFleet(1, Date.now())
    .filter((i) => i.wire.type === 'Noise' && i.condition.online)
    .map((i) => i.wire.serialNumber);
  if (odd === undefined || never === undefined || long === undefined)
    throw new Error('The seed-1 demo fleet has fewer than three online noise instruments.');
  const longName = `Hinkley Point C – north fence receptor beside the temporary haul road, ${'second lamp post west of gate C1, '.repeat(6)}`;

  const service = await externalService({ keys: { 'odd-key': '*' } });
  const oddService = await startOddService(service.baseUrl, {
    instrument: (item) => (item['serialNumber'] === long ? { ...item, name: longName } : item),
    // An item with no serial number cannot be listed; the others still are.
    list: (items) => [...items, { type: 'Noise', name: 'Spare unit' }],
    status: (serial, status) => {
      if (serial === odd)
        return {
          ...status,
          measuring: 'maybe',
          lastCalibration: { ...(status['lastCalibration'] as object), level: 1e29 },
        };
      return serial === never ? { ...status, lastCalibration: {} } : status;
    },
  });
  try {
    await page.goto(harness.url);
    await addAccount(page, { name: 'Odd client', baseUrl: oddService.baseUrl, apiKey: 'odd-key' });

    // One calm note, and the list is still there in full.
    await expect(page.getByTestId('skipped-note')).toContainText(
      '1 listed item could not be read, so it is not shown.',
    );
    await expect(page.getByTestId('skipped-note')).toContainText('without a serialNumber (item 11 of 11)');
    await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
    const rowOf = (serial: string) => page.getByRole('table').getByRole('row').filter({ hasText: serial });
    await expect(rowOf(odd).getByTestId('note-marker')).toBeVisible();
    await expect(rowOf(odd)).toContainText('Online');
    await expect(rowOf(never).getByTestId('note-marker')).toHaveCount(0);

    // The long name (cut to 200 characters by the backend) ends in an ellipsis on the list, and
    // the whole of it shows on hover.
    const longLink = rowOf(long).getByRole('link');
    expect(await longLink.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await longLink.hover();
    await expect(rowOf(long).locator('.name-full')).toBeVisible();
    await keepScreenshot(page, testInfo, 'instruments-odd-answers');

    // On the detail page each note is beside its fact, and the value left out is not a fact.
    await rowOf(odd).getByRole('link').click();
    const calibration = page.getByRole('region', { name: 'Last calibration' });
    await expect(calibration).toContainText(
      'The reported calibration level of 1e+29 dB cannot be right, so it is not shown.',
    );
    await expect(calibration.getByRole('definition').nth(2)).toHaveText('Not shown — see note');
    const status = page.getByRole('region', { name: 'Status' });
    await expect(status).toContainText('Whether it is measuring could not be read.');
    await expect(status.getByRole('definition').nth(1)).toHaveText('Not shown — see note');
    await keepScreenshot(page, testInfo, 'instrument-detail-notes');

    // Never calibrated is said as such, and calibrating stays possible.
    await page.getByRole('link', { name: 'All instruments' }).click();
    await rowOf(never).getByRole('link').click();
    await expect(page.getByRole('region', { name: 'Last calibration' })).toContainText('Never calibrated');
    await expect(page.getByRole('button', { name: 'Calibrate' })).toBeEnabled();
  } finally {
    await oddService.close();
  }
});
