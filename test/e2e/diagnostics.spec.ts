/**
 * Settings › Save diagnostics…: the zip is written (in the harness, to the data folder's `exports`),
 * the screen says where and how big, and the zip holds the log and no key of the demo account. A
 * stored record that cannot be read is left out of its screen and said in Settings.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import { healthyNoise } from './field-helpers';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

test('saves the diagnostics from the settings screen and says where they went', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Diagnostics' });
  await section.getByRole('button', { name: 'Save diagnostics…' }).click();
  const saved = section.getByTestId('diagnostics-saved');
  await expect(saved).toContainText(/Saved the diagnostics \(\d+(\.\d+)? (bytes|kB|MB)\)/);
  await keepScreenshot(page, testInfo, 'settings-diagnostics');

  const path = (await saved.locator('.diagnostics-path').textContent())?.trim() ?? '';
  expect(path).toMatch(/[/\\]exports[/\\]FieldDesk diagnostics \d{4}-\d\d-\d\dT\d{4}Z\.zip$/);
  const zip = unzipSync(new Uint8Array(await readFile(path)));
  const log = strFromU8(zip['logs/fielddesk.log'] ?? new Uint8Array());
  expect(log).toContain('"message":"Saving diagnostics"');
  const accounts = strFromU8(zip['accounts.json'] ?? new Uint8Array());
  expect(accounts).toContain('Demo fleet');
  expect(accounts).not.toMatch(/apiKey/i);
});

test('a damaged site record is left out of the sites and said in Settings', async ({
  page,
  harness,
  dataDir,
}, testInfo) => {
  await tryTheDemo(page, harness);
  const save = async (name: string) => {
    const response = await fetch(`${harness.origin}api/invoke/assessment.saveSite`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${harness.token}` },
      body: JSON.stringify({ name, timeZone: 'Europe/London', serials: [healthyNoise().serial] }),
    });
    const answer = (await response.json()) as { ok: boolean; value?: { id: string } };
    if (answer.value === undefined) throw new Error(`site not saved: ${JSON.stringify(answer)}`);
    return answer.value.id;
  };
  const damagedId = await save('Mill Lane');
  await save('Harbour Road');
  // Its stored JSON cut short, as a disk fault or a hand edit might leave it.
  const records = new Database(join(dataDir, 'records.db'));
  records.prepare('UPDATE assessment_sites SET site_json = ? WHERE id = ?').run('{"name":"Mill', damagedId);
  records.close();

  await page.getByRole('link', { name: 'Assessment' }).click();
  // The assessment says it where the site is missing; the other site is there.
  await expect(
    page.getByText('1 saved site could not be read from the local database and is left out.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Assessment' })).toBeVisible();
  await expect(page.locator('option', { hasText: 'Harbour Road' })).toHaveCount(1);
  await expect(page.locator('option', { hasText: 'Mill Lane' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Settings' }).click();
  const said = page.getByTestId('damaged-records');
  await expect(said).toContainText(
    'Damaged records left out since FieldDesk started: 1 site — the log names each one.',
  );
  await said.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'settings-damaged-records', false);
});
