/**
 * A damaged disk, as a user meets it: FieldDesk starts anyway, says what it set aside and where,
 * and will not judge a calibration against defaults nobody chose.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSiteStore } from '../../src/main/backend/assessment/site-store';
import { openDatabase } from '../../src/main/backend/core/database';
import { recordsMigrations } from '../../src/main/backend/records/records-migrations';
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

  // Any online noise instrument (the demo's QT serials): the calibration waits for the settings to be confirmed.
  await page
    .getByRole('row')
    .filter({ hasText: /QT\d{6}/ })
    .filter({ hasText: 'Measuring' })
    .first()
    .click();
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

/**
 * A records.db as a backup copy keeps it: the demo account's site "Mill Lane" with its exclusion,
 * taken on 20 Nov 2026 at 10:00 UTC (a plain SQLite file, made here with the app's own migrations).
 */
function recordsBackup(): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'fielddesk-e2e-records-'));
  try {
    const database = openDatabase(dir, { fileName: 'records.db', migrations: recordsMigrations() });
    const sites = createSiteStore(database.db, () => Date.UTC(2026, 10, 20, 9));
    const site = sites.save(DEMO_ACCOUNT_ID, {
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT930998'],
    })!;
    sites.put({
      ...site,
      exclusions: [
        {
          id: 'e2e-works',
          start: Date.UTC(2026, 10, 19, 9),
          end: Date.UTC(2026, 10, 19, 12),
          reason: 'Road works',
          serial: null,
          createdAt: Date.UTC(2026, 10, 20, 9),
        },
      ],
    });
    database.db.pragma('journal_mode = DELETE');
    database.close();
    return readFileSync(join(dir, 'records.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const DEMO_ACCOUNT_ID = 'demo-e2e';

test.describe('a damaged records file', () => {
  test.use({
    dataDirFiles: {
      'accounts.json': JSON.stringify({
        version: 1,
        activeId: DEMO_ACCOUNT_ID,
        accounts: [
          {
            id: DEMO_ACCOUNT_ID,
            name: 'Demo fleet',
            baseUrl: 'http://127.0.0.1:9/v1',
            kind: 'demo',
            createdAt: 1,
            lastCheckedAt: null,
            missingScopes: [],
          },
        ],
      }),
      'records.db': Buffer.alloc(8_192),
      'backups/records-2026-11-20T10-00-00-000Z.db': recordsBackup(),
    },
  });

  test('is restored from its backup: the site and its exclusion are there, and the notice says from when', async ({
    page,
    harness,
  }, testInfo) => {
    await page.goto(harness.url);
    const notice = page.getByTestId('notice-records-restored');
    await expect(notice).toContainText('restored them from the backup of 2026-11-20 10:00 UTC');
    await expect(notice).toContainText('Your records now hold 1 site.');
    await expect(notice).toContainText(/set the file aside as records\.db\.corrupt-\d{4}-\d\d-\d\dT/);
    await keepScreenshot(page, testInfo, 'records-restored-notice');

    await page.getByRole('link', { name: 'Assessment' }).click();
    await expect(page.getByRole('combobox', { name: 'Site' })).toHaveText('Mill Lane');
    await expect(
      page.getByRole('region', { name: 'Exclusions' }).getByRole('row', { name: /Road works/ }),
    ).toContainText('2026-11-19 09:00');
    await keepScreenshot(page, testInfo, 'records-restored-site');
  });
});
