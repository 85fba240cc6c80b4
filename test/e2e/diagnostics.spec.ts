/**
 * Settings › Save diagnostics…: the zip is written (in the harness, to the data folder's `exports`),
 * the screen says where and how big, and the zip holds the log and no key of the demo account.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
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
