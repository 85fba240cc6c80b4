import { addAccount, expect, keepScreenshot, test } from './fixtures';

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
  const vibrationRows = page.getByRole('table').getByRole('row').filter({ hasText: 'VM:400' });
  const shown = await page.getByRole('table').getByRole('row').count();
  expect(await vibrationRows.count()).toBe(shown - 1);

  // Search narrows to one serial.
  const firstSerial = (await vibrationRows.first().getByRole('cell').nth(1).innerText()).trim();
  await page.getByLabel('Type').selectOption({ label: 'All types' });
  await page.getByLabel('Search').fill(firstSerial);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);

  // Open it and rename it in place.
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByText(firstSerial).first()).toBeVisible();
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
  const service = await externalService({ keys: { 'read-only': ['instruments:read'] } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Read-only client', baseUrl: service.baseUrl, apiKey: 'read-only' });
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').click();
  const heading = page.getByRole('heading', { level: 1 });
  const originalName = (await heading.innerText()).trim();

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
