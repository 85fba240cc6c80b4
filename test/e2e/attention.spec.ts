/**
 * Fleet attention in the demo fleet (seed 1): the list's health columns at 1366x768, and the Needs
 * attention view — its count on the list's link, each instrument with its reasons in plain words,
 * most urgent first, a row opening its instrument.
 */
import { generateDemoFleet, isQuantumModel } from '../../src/simulator';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const fleet = () => generateDemoFleet(1, Date.now());
/** The demo's monitor with a failing battery (simulator/data/context.ts `failingBattery`). */
const FAILING_BATTERY = 'QT218728';

test('the instrument list shows last contact, calibration, SIC and the monitor’s battery, storage and signal', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const online = fleet().find((i) => i.condition.online && isQuantumModel(i.wire.model))!;
  const offline = fleet().find((i) => !i.condition.online && isQuantumModel(i.wire.model))!;
  const row = (serial: string) => page.getByRole('table').getByRole('row').filter({ hasText: serial });

  // An online Quantum monitor: in contact now, its supply, storage and signal read.
  await expect(row(online.wire.serialNumber)).toContainText(/just now|\d+ min ago/);
  await expect(row(online.wire.serialNumber)).toContainText(/\d+\.\d V · \d+ % · −\d+ dBm/);
  // Not calibrated from FieldDesk: the instrument's own word, with the age.
  await expect(row(online.wire.serialNumber)).toContainText(/Success · (\d+ (d|h|min)|now)/);
  // One gone offline hours ago: its last contact from its newest stats.
  await expect(row(offline.wire.serialNumber)).toContainText(/\d+ h( \d+ min)? ago|\d+ d( \d+ h)? ago/);
  await keepScreenshot(page, testInfo, 'instruments-list-health', false);
});

test('Needs attention lists the demo fleet’s instruments with their reasons, most urgent first', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const demo = fleet();
  const offlineMonitor = demo.find((i) => !i.condition.online && isQuantumModel(i.wire.model))!;
  const failedCalibration = demo.find(
    (i) => i.condition.online && i.condition.lastCalibration?.status === 'Failed',
  )!;
  const healthy = demo.find((i) => i.condition.online && i.wire.type === 'Vibration')!;

  await page.getByTestId('attention-link').click();
  await expect(page.getByRole('heading', { name: 'Needs attention' })).toBeVisible();
  // Every instrument of the fleet read (the rows on screen in the list were read already).
  await expect(page.getByTestId('attention-view')).toHaveAttribute('data-read', '10/10');

  const rows = page.getByTestId('attention-table').locator('tbody tr');
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId('attention-count')).toHaveText(`${count} instruments`);

  const offlineRow = rows.filter({ hasText: offlineMonitor.wire.serialNumber });
  await expect(offlineRow.locator('li[data-kind="offline"]')).toHaveText(
    /^Offline for \d+ (h|h \d+ min|d \d+ h|d) \(limit 2 h\)$/,
  );
  const failedRow = rows.filter({ hasText: failedCalibration.wire.serialNumber });
  // Not run from FieldDesk: the instrument's word is the reason, named as its own.
  await expect(failedRow.locator('li').first()).toHaveText(
    /^Last calibration failed, \d+ d( \d+ h)? ago \(the instrument reported “Failed”\)$/,
  );
  await expect(rows.filter({ hasText: healthy.wire.serialNumber })).toHaveCount(0);
  // The demo's monitor with a failing battery (seed 1: the lowest serial of the healthy online Quantum monitors).
  await expect(rows.filter({ hasText: FAILING_BATTERY }).locator('li[data-kind="batteryLow"]')).toHaveText(
    /^Battery low: 11\.\d V \(limit 11\.8 V\)$/,
  );
  // Most urgent first: the first row is urgent.
  await expect(rows.first()).toContainText('Urgent');
  await keepScreenshot(page, testInfo, 'needs-attention');

  // Back on the list, the link's count is the number of rows.
  await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
  await expect(page.getByTestId('attention-link')).toContainText(String(count));

  // A row opens its instrument.
  await page.getByTestId('attention-link').click();
  await rows.filter({ hasText: failedCalibration.wire.serialNumber }).click();
  await expect(page).toHaveURL(new RegExp(`#/instruments/${failedCalibration.wire.serialNumber}$`));

  // A visit started from its reason to go: straight to the visit, and the row then continues it.
  await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
  await page.getByTestId('attention-link').click();
  await offlineRow.getByTestId('start-visit').click();
  const start = page.getByRole('dialog', { name: /^Start a visit to/ });
  await start.getByLabel('Engineer').fill('Asha Patel');
  await start.getByRole('button', { name: 'Start visit' }).click();
  await expect(page.getByRole('heading', { name: /^Visit: / })).toContainText(
    offlineMonitor.wire.serialNumber,
  );
  await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
  await page.getByTestId('attention-link').click();
  await expect(offlineRow.getByTestId('continue-visit')).toBeVisible();
});

test('the attention limits are settings: a bad value is refused plainly, a saved one changes the reasons', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const offlineMonitor = fleet().find((i) => !i.condition.online && isQuantumModel(i.wire.model))!;
  await page.getByRole('link', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Needs attention settings' });
  const offlineLimit = form.getByLabel('Offline for more than (hours)');
  await expect(offlineLimit).toHaveValue('2');

  await offlineLimit.fill('1.5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'The offline limit must be a whole number of hours from 1 to 168.',
  );

  // Longer than the demo's offline monitor has been away (at most 48 h).
  await offlineLimit.fill('72');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  await keepScreenshot(page, testInfo, 'attention-settings');

  await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
  await page.getByTestId('attention-link').click();
  await expect(page.getByTestId('attention-view')).toHaveAttribute('data-read', '10/10');
  const row = page
    .getByTestId('attention-table')
    .locator('tbody tr')
    .filter({ hasText: offlineMonitor.wire.serialNumber });
  // Still without new data for hours, but no longer offline beyond the limit.
  await expect(row.locator('li[data-kind="noData"]')).toHaveCount(1);
  await expect(row.locator('li[data-kind="offline"]')).toHaveCount(0);
});
