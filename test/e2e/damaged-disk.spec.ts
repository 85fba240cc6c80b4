/**
 * A damaged disk, as a user meets it: FieldDesk starts anyway, says what it set aside and where,
 * and will not judge a calibration against defaults nobody chose.
 */
import { expect, keepScreenshot, test } from './fixtures';

test.use({
  dataDirFiles: {
    'fielddesk.db': 'SQLite format 3\0 and then nothing a database would hold',
    'settings.json': '{"version": 1, "settings": {"calibrationTolerance',
  },
});

test('a damaged database and settings are set aside, said, and the next calibration asks first', async ({
  page,
  harness,
}, testInfo) => {
  await page.goto(harness.url);
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');

  const database = page.getByTestId('notice-database-set-aside');
  await expect(database).toContainText(/set aside as fielddesk\.db\.corrupt-\d{4}-\d\d-\d\dT/);
  await expect(page.getByTestId('notice-settings-file')).toContainText('Your settings are damaged');
  await keepScreenshot(page, testInfo, 'damaged-disk-notices');

  // Any online noise instrument: the calibration waits for the settings to be confirmed.
  await page.getByRole('row').filter({ hasText: 'Noise' }).filter({ hasText: 'Measuring' }).first().click();
  await page.getByRole('button', { name: 'Calibrate', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
  await expect(dialog.getByTestId('calibration-confirm')).toContainText(
    'Confirm the calibration settings first',
  );
  await expect(dialog.getByRole('button', { name: 'Start calibration' })).toBeDisabled();
  await keepScreenshot(page, testInfo, 'calibration-confirm-settings');
  await dialog.getByRole('button', { name: 'Use these settings' }).click();
  await expect(dialog.getByTestId('calibration-confirm')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Start calibration' })).toBeEnabled();
  // Confirmed settings need no more telling; the database notice stays until dismissed.
  await expect(page.getByTestId('notice-settings-file')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await database.getByRole('button', { name: 'Dismiss' }).click();
  await expect(database).toHaveCount(0);
});
