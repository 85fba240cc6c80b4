/**
 * Fleet attention in the demo fleet (seed 1): the list's health columns at 1366x768, and the Needs
 * attention view — its count on the list's link, each instrument with its reasons in plain words,
 * most urgent first, a row opening its instrument.
 */
import { generateDemoFleet, inOutageAt, isQuantumModel } from '../../src/simulator';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

const fleet = () => generateDemoFleet(1, Date.now());
/** The demo's monitor with a failing battery (simulator/data/context.ts `failingBattery`). */
const FAILING_BATTERY = 'QT218728';

test('the instrument list shows last contact, calibration, SIC and the monitor’s battery, storage and signal', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  // Connected now: not in one of the demo's outages of a few hours (status online, no current state).
  const online = fleet().find(
    (i) =>
      i.condition.online && isQuantumModel(i.wire.model) && !inOutageAt(i.wire.serialNumber, 1, Date.now()),
  )!;
  const offline = fleet().find((i) => !i.condition.online && isQuantumModel(i.wire.model))!;
  const row = (serial: string) => page.getByRole('table').getByRole('row').filter({ hasText: serial });

  // An online Quantum monitor: in contact now, its supply, storage and signal read.
  await expect(row(online.wire.serialNumber)).toContainText(/just now|\d+ min ago/);
  const monitor = row(online.wire.serialNumber).getByTestId('monitor-cell');
  await expect(monitor.locator('[data-kind="battery"]')).toHaveText(/^Battery \d+\.\d\d V\d+\.\d V$/);
  await expect(monitor.locator('[data-kind="storage"]')).toHaveText(/^Storage \d+\.\d % in use\d+ %$/);
  await expect(monitor.locator('[data-kind="signal"]')).toHaveText(/^Signal −\d+ dBm−\d+ dBm$/);
  // Not calibrated from FieldDesk: the instrument's own word, with the age.
  await expect(row(online.wire.serialNumber)).toContainText(/Pass · (\d+ (d|h|min)|now)/);
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
  const healthy = demo.find(
    (i) => i.condition.online && i.wire.type === 'Vibration' && i.wire.subscription?.status === 'Active',
  )!;

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
  // 11.4 V: under the urgent battery limit (11.5 V), so urgent, not only "soon".
  await expect(rows.filter({ hasText: FAILING_BATTERY }).locator('li[data-kind="batteryLow"]')).toHaveText(
    /^Battery nearly flat: 11\.\d V \(urgent below 11\.5 V\)$/,
  );
  // A cancelled subscription is a reason of its own.
  const cancelled = demo.find((i) => i.wire.subscription?.status === 'Cancelled')!;
  await expect(
    rows.filter({ hasText: cancelled.wire.serialNumber }).locator('li[data-kind="subscription"]'),
  ).toHaveText('Subscription cancelled: the service may stop taking its data (it reports “Cancelled”)');
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

test('the instrument page has a health card with the list’s figures in full, their limits and age', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const listed = page.getByRole('table').getByRole('row').filter({ hasText: FAILING_BATTERY });
  const listedVolts = await listed
    .getByTestId('monitor-cell')
    .locator('[data-kind="battery"] span[aria-hidden]')
    .innerText();
  await listed.getByRole('link').click();
  const card = page.getByTestId('health-card');
  await expect(card.getByRole('heading', { name: 'Health' })).toBeVisible();
  const battery = card.locator('dd[data-fact="Battery"]');
  // The same reading as the list's (to one decimal there), in full, urgent under 11.5 V.
  await expect(battery).toContainText(/^11\.\d\d\sV/);
  expect(parseFloat(await battery.locator('.value').innerText()).toFixed(1)).toBe(
    parseFloat(listedVolts).toFixed(1),
  );
  await expect(battery).toHaveClass(/health-danger/);
  await expect(battery).toContainText('Low below 11.8 V, urgent below 11.5 V');
  await expect(card.locator('dd[data-fact="Last contact"]')).toContainText(/\((just now|\d+ min ago)\)/);
  await expect(card.locator('dd[data-fact="Signal"]')).toContainText(/^RSRP −\d+\sdBm/);
  await expect(card.getByTestId('health-read')).toHaveText(/^Read (just now|\d+ min ago)/);
  await card.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'instrument-health-card', false);
});

test('a new urgent reason is told on the desktop once, while FieldDesk is in the background (opt-in)', async ({
  page,
  harness,
}) => {
  await tryTheDemo(page, harness);
  const settingsForm = async (urgentVolts: string) => {
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Needs attention settings' });
    await form.getByLabel('Battery urgent below (V)').fill(urgentVolts);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
  };
  const told = () =>
    harness.notifications().filter((notice) => notice.title.startsWith('Needs attention today'));

  // Not urgent with the urgent limit at 11.0 V; then the notices are switched on.
  await settingsForm('11');
  await page.getByTestId('notify-urgent').check();
  await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
  await page.getByTestId('attention-link').click();
  const rows = page.getByTestId('attention-table').locator('tbody tr');
  await expect(rows.filter({ hasText: FAILING_BATTERY }).locator('li[data-kind="batteryLow"]')).toHaveText(
    /^Battery low: 11\.\d V \(limit 11\.8 V\)$/,
  );

  // In the background, the battery becomes urgent: told once, with its figures.
  harness.setWindowFocused(false);
  await settingsForm('11.5');
  await expect
    .poll(() => told().map((notice) => notice.body))
    .toContainEqual(
      expect.stringMatching(
        new RegExp(`^${FAILING_BATTERY}: Battery nearly flat: 11\\.\\d V \\(urgent below 11\\.5 V\\)\\.$`),
      ),
    );
  const count = told().length;
  // The same reason, judged again on other pages, is not told twice.
  await page.getByRole('link', { name: 'Instruments', exact: true }).first().click();
  await page.getByTestId('attention-link').click();
  await expect(rows.filter({ hasText: FAILING_BATTERY }).locator('li[data-kind="batteryLow"]')).toHaveText(
    /^Battery nearly flat/,
  );
  expect(told()).toHaveLength(count);
});
