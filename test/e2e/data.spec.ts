import type { Locator, Page } from '@playwright/test';
import { addAccount, expect, keepScreenshot, listCell, setNoiseValues, test } from './fixtures';

/** A finished sync that got everything says so: a full bar, every request, nothing listed as missing. */
async function expectCompleteSync(dialog: Locator): Promise<void> {
  await expect(dialog.getByTestId('sync-follow')).toHaveAttribute('data-outcome', 'complete');
  const progress = dialog.getByTestId('sync-progress');
  await expect(progress).toContainText('Ready for the site visit');
  // Every request done: "32 of 32 requests".
  await expect(progress).toContainText(/(?<!\d)(\d+) of \1 requests/);
  await expect(progress.getByRole('progressbar')).toHaveAttribute('value', '100');
  await expect(dialog.getByText('Not fetched')).toHaveCount(0);
  await expect(dialog.getByText(/Finished with gaps|could not be fetched/)).toHaveCount(0);
}

/** The serial of the first instrument in the list whose model mentions `text` (the search finds models). */
async function serialOf(page: Page, text: string): Promise<string> {
  await page.getByLabel('Search').fill(text);
  const row = page.getByRole('table').locator('tbody tr[data-index]').first();
  const serial = (await listCell(row, 'serial').innerText()).trim();
  await page.getByLabel('Search').fill('');
  return serial;
}

test('prepare for a site visit, lose the service, and keep browsing the data from the cache', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // A day of one instrument synced (dozens of requests), then five views and the history read from
  // the cache: about 115 s on two busy cores.
  test.setTimeout(240_000);
  // An external service, so the test can stop it as a lost signal would.
  const service = await externalService({ keys: { 'field-key': '*' } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Sizewell site', baseUrl: service.baseUrl, apiKey: 'field-key' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');

  // Open a noise monitor.
  await page.getByLabel('Type').selectOption({ label: 'Noise' });
  const row = page.getByRole('table').getByRole('row').nth(1);
  const serial = (await listCell(row, 'serial').innerText()).trim();
  await row.getByRole('link').click();
  // The instrument's own page (loaded when first opened): the list has a "Prepare" button too.
  await expect(page.getByRole('button', { name: 'Rename' })).toBeVisible();
  await expect(page.getByText(serial).first()).toBeVisible();

  // Prepare for site visit: this instrument is preselected, its default datasets, last 24 hours.
  await page.getByTestId('prepare-site-visit').click();
  const dialog = page.getByTestId('sync-dialog');
  await expect(dialog.getByRole('heading', { name: 'Prepare for site visit' })).toBeVisible();
  const checked = dialog.locator('.sync-pick input:checked');
  await expect(checked).toHaveCount(1);
  await expect(
    dialog.locator('.sync-item').filter({ has: page.locator('.sync-pick input:checked') }),
  ).toContainText(serial);
  await expect(dialog.locator('.sync-datasets summary')).toContainText('Noise levels');
  await dialog.getByRole('radio', { name: 'Last 24 hours' }).check();
  await dialog.getByRole('button', { name: 'Start' }).click();

  const progress = dialog.getByTestId('sync-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(/requests/);
  await keepScreenshot(page, testInfo, 'site-sync-progress');

  // Finished: it reads as complete, with a summary of what is offline now, per instrument.
  await expect(dialog.getByTestId('sync-follow')).toHaveAttribute('data-state', 'succeeded');
  await expectCompleteSync(dialog);
  const summary = dialog.getByTestId('sync-summary');
  await expect(summary).toContainText(serial);
  await expect(summary).toContainText('Noise levels');
  await expect(summary).not.toContainText('Nothing offline for this instrument');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The signal is gone.
  await service.close();

  await page.getByRole('link', { name: 'Data', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Noise levels');
  const provenance = page.getByTestId('provenance');
  await expect(provenance).toHaveAttribute('data-source', /^(cached|partial)$/);
  await expect(provenance).toContainText(/From the cache|offline/);
  const chart = page.getByTestId('data-chart');
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute('data-series', '3');
  expect(Number(await chart.getAttribute('data-samples'))).toBeGreaterThan(0);
  const records = page.getByTestId('record-table').getByRole('row');
  await expect.poll(() => records.count()).toBeGreaterThan(2);
  await expect(page.getByTestId('record-table').getByRole('columnheader').first()).toBeVisible();
  // The app-wide offline banner says how old the shown copy is.
  await expect(page.getByTestId('offline-banner')).toContainText('The data shown was fetched');
  await keepScreenshot(page, testInfo, 'data-view-offline');

  // Another cached dataset answers from the cache too.
  await page.getByLabel('Dataset').selectOption({ label: 'Noise events' });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Noise events');
  await expect(provenance).toHaveAttribute('data-source', /^(cached|partial)$/);
  await expect(provenance).toContainText(/From the cache|offline/);
  await expect(page.getByText(/Could not read/)).toHaveCount(0);

  // A-weighted spectra were never fetched: derived offline from the synced Z octaves, and said so.
  await page.getByLabel('Dataset').selectOption({ label: 'Octave / third-octave spectra' });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Octave / third-octave spectra');
  await page.getByRole('group', { name: 'Weighting' }).getByRole('radio', { name: 'A', exact: true }).check();
  await expect(provenance).toHaveAttribute('data-derived', 'yes');
  await expect(provenance).toContainText('Derived offline from cached data, not fetched.');
  await expect(
    page.getByTestId('data-note').filter({ hasText: /A-weighted from the cached Z-weighted/ }),
  ).toBeVisible();
  await keepScreenshot(page, testInfo, 'data-derived-offline');

  // The instrument's calibration & SIC history reads through the cache too, and says so.
  await page.getByRole('link', { name: 'Instruments', exact: true }).click();
  // Offline, the list's states are the last known, said with their time, never as live.
  await expect(page.getByRole('columnheader', { name: /^Last known, \d\d:\d\d/ })).toBeVisible();
  await keepScreenshot(page, testInfo, 'instruments-offline');
  await page.getByRole('row').filter({ hasText: serial }).getByRole('link').first().click();
  const history = page.getByTestId('history');
  await expect(history.getByRole('heading', { name: 'Calibration & SIC history' })).toBeVisible();
  const calibrations = history.getByRole('region', { name: 'Calibrations', exact: true });
  const calibrationSource = calibrations.getByTestId('provenance');
  await expect(calibrationSource).toHaveAttribute('data-source', /^(cached|partial)$/);
  await expect(calibrationSource).toContainText(/from the cache/i);
  await expect(page.getByTestId('calibration-table').locator('tbody tr').first()).toBeVisible();
  const log = history.getByRole('region', { name: 'Calibration log' });
  await expect(log.getByTestId('provenance')).toHaveAttribute('data-source', /^(cached|partial)$/);
  await expect(history.getByText(/Could not (load|refresh) the calibration/)).toHaveCount(0);
  await history.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'history-offline');

  // A sync needs the service: offline it cannot start, and says why instead of failing after a wait.
  await page.getByTestId('prepare-site-visit').click();
  const again = page.getByTestId('sync-dialog');
  await expect(again.getByTestId('sync-offline')).toHaveText(
    /FieldDesk is offline: a site sync needs a connection/,
  );
  await expect(again.getByRole('button', { name: 'Start' })).toBeDisabled();
  await page.keyboard.press('Escape');

  // The offline data screen lists what is kept.
  await page.getByRole('link', { name: 'Offline data' }).click();
  const item = page.getByTestId('cache-item').filter({ hasText: serial });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Noise levels');
  await expect(item.getByRole('button', { name: 'Clear' })).toBeEnabled();
  await keepScreenshot(page, testInfo, 'cache-view');
});

test('the site-sync dialog offers only what each instrument can have, and a clean sync reads as complete', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  const service = await externalService({ keys: { 'field-key': '*' } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Sizewell site', baseUrl: service.baseUrl, apiKey: 'field-key' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  // Every demo fleet has an Optimus+ without SIC (no system monitor) and Quantum monitors (with one).
  const optimus = await serialOf(page, 'Optimus');
  const quantum = await serialOf(page, 'Quantum');

  await page.getByTestId('prepare-site-visit').click();
  const dialog = page.getByTestId('sync-dialog');
  const item = (serial: string) => dialog.locator('.sync-item').filter({ hasText: serial });
  const choices = (serial: string) => item(serial).locator('.sync-dataset-options');

  await item(quantum).locator('.sync-pick input').check();
  await item(quantum).getByText('Change').click();
  await expect(choices(quantum).getByLabel('System health')).toBeVisible();
  await item(quantum).locator('.sync-pick input').uncheck();

  await item(optimus).locator('.sync-pick input').check();
  await item(optimus).getByText('Change').click();
  await expect(choices(optimus).getByLabel('Noise levels')).toBeChecked();
  await expect(choices(optimus).getByLabel('Calibrations')).toBeVisible();
  await expect(choices(optimus).getByText('System health')).toHaveCount(0);
  await expect(choices(optimus).getByText('System events')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'site-sync-choices');

  await dialog.getByRole('radio', { name: 'Last 24 hours' }).check();
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByTestId('sync-follow')).toHaveAttribute('data-state', 'succeeded');
  await expectCompleteSync(dialog);
  await expect(dialog.getByTestId('sync-summary')).toContainText(optimus);
  await keepScreenshot(page, testInfo, 'site-sync-complete');
});

test('sync with a chosen profile, lose the service, and read every view it covers with other choices than the defaults', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // A week of one instrument synced with spectra (hundreds of requests), then six views drawn from
  // the cache, a week of 1 s readings among them: about 230 s on two busy cores.
  test.setTimeout(480_000);
  const service = await externalService({ keys: { 'field-key': '*' } });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Sizewell site', baseUrl: service.baseUrl, apiKey: 'field-key' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  // A Quantum noise monitor with SIC, opened on its own page: the dialog preselects it.
  const serial = await serialOf(page, 'Quantum');
  await page.getByRole('row').filter({ hasText: serial }).getByRole('link').first().click();
  await expect(page.getByRole('button', { name: 'Rename' })).toBeVisible();

  await page.getByTestId('prepare-site-visit').click();
  const dialog = page.getByTestId('sync-dialog');
  const profile = dialog.getByTestId('sync-profile-select');
  const noiseChoice = dialog.locator('.sync-type[data-type="noise"]');
  // A profile sets what is kept at once; the noise survey is the default.
  await expect(profile).toHaveValue('Noise survey');
  await profile.selectOption('Construction vibration');
  await expect(noiseChoice.locator('summary')).toContainText('LAeq, LAFMax, LAF90, LCPeak');
  await profile.selectOption('Noise survey');
  await expect(noiseChoice.locator('summary')).toContainText(
    'LAeq, LAFMax, LAF10, LAF90, LCPeak · octave, third-octave · Z · as recorded',
  );
  // The engineer adds C-weighted spectra and keeps that as a profile of their own.
  await noiseChoice.getByText('Change').click();
  await noiseChoice.getByRole('checkbox', { name: 'C-weighted' }).check();
  await expect(profile).toHaveValue('');
  await expect(profile.locator('option:checked')).toHaveText('Changed (not saved)');
  await dialog.getByRole('button', { name: 'Save as profile…' }).click();
  await dialog.getByRole('textbox', { name: 'Profile name' }).fill('Survey with C spectra');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(profile).toHaveValue('Survey with C spectra');
  // A week, with its size before starting.
  await dialog.getByRole('radio', { name: 'Last 7 days' }).check();
  await expect(dialog.getByTestId('sync-size')).toHaveText(/1 instrument · about [\d.]+ MB in \d+ requests/);
  await keepScreenshot(page, testInfo, 'site-sync-profile');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByTestId('sync-follow')).toHaveAttribute('data-state', 'succeeded');
  await expectCompleteSync(dialog);
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The signal is gone.
  await service.close();

  const provenance = page.getByTestId('provenance');
  const chart = page.getByTestId('data-chart');
  const notes = page.getByTestId('data-note');
  /** The view shows readings, says where they came from, and whether they were derived. */
  async function expectShown(derived: boolean): Promise<void> {
    await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
    await expect(provenance).toHaveAttribute('data-source', 'cached');
    await expect(provenance).toContainText('From the cache');
    if (derived) await expect(provenance).toHaveAttribute('data-derived', 'yes');
    else await expect(provenance).not.toHaveAttribute('data-derived', 'yes');
    await expect(chart).toHaveAttribute('data-samples', /^[1-9]\d*$/);
  }

  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseMeasurements`);
  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 7 days' });
  // LAF90 over a week: fetched with the survey's values, read as cached.
  await setNoiseValues(page, ['LAF90']);
  await expectShown(false);
  await expect(chart).toHaveAttribute('data-series', '4');
  await keepScreenshot(page, testInfo, 'offline-levels-laf90-week');

  // Hourly levels: derived from the 15-minute ones, and said so.
  await setNoiseValues(page, ['LAF90'], false);
  await page.getByLabel('Period').selectOption({ label: '1 hour' });
  await expectShown(true);
  await expect(notes.filter({ hasText: /1-hour .* from the cached noise levels/ }).first()).toBeVisible();
  await keepScreenshot(page, testInfo, 'offline-levels-hourly-derived');

  // A value the profile does not keep says exactly why, and what would have kept it.
  await page.getByLabel('Period').selectOption({ label: 'As recorded' });
  await setNoiseValues(page, ['LASMax']);
  await expect(
    notes.filter({ hasText: /^LASMax was not synced .*tick LASMax under Noise values/ }),
  ).toBeVisible();
  // The other values were fetched (with others): shown as cached, not as derived.
  await expect(provenance).not.toHaveAttribute('data-derived', 'yes');
  await expect(chart).toHaveAttribute('data-series', '3');
  await keepScreenshot(page, testInfo, 'offline-levels-not-synced');

  // Third octaves, as kept; A-weighted, derived from the Z bands.
  await page.goto(`${harness.url}#/instruments/${serial}/data/frequencyMeasurements`);
  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 7 days' });
  await page.getByRole('group', { name: 'Bands' }).getByRole('radio', { name: 'Third-octave' }).check();
  await expectShown(false);
  await page.getByRole('group', { name: 'Weighting' }).getByRole('radio', { name: 'A', exact: true }).check();
  await expectShown(true);
  await expect(
    notes.filter({ hasText: /A-weighted from the cached Z-weighted third-octave bands/ }),
  ).toBeVisible();
  await keepScreenshot(page, testInfo, 'offline-third-octave-a-derived');

  // The 1 s time history of the week.
  await page.goto(`${harness.url}#/instruments/${serial}/data/noiseTimeHistory`);
  await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 7 days' });
  await expectShown(false);

  // Calibrations are kept 24 months, so the 12-month history is more than the week's few.
  await page.goto(`${harness.url}#/instruments/${serial}`);
  const history = page.getByTestId('history');
  await expect(history.getByRole('heading', { name: 'Calibration & SIC history' })).toBeVisible();
  await expect(
    history.getByRole('region', { name: 'Calibrations', exact: true }).getByTestId('provenance'),
  ).toHaveAttribute('data-source', 'cached');
  await expect
    .poll(() => page.getByTestId('calibration-table').locator('tbody tr').count())
    .toBeGreaterThan(10);
  await history.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'offline-calibration-history');
});

test('a sync that cannot fetch everything names each cause once, with what it left missing', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // A key for noise data only: audio, events, weather and system health are refused.
  const service = await externalService({
    keys: { 'noise-key': ['instruments:read', 'data.noise:read'] },
  });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Noise only', baseUrl: service.baseUrl, apiKey: 'noise-key' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await page.getByLabel('Search').fill('Quantum');
  const quantums = page.getByRole('table').locator('tbody tr[data-index]');
  const first = (await listCell(quantums.nth(0), 'serial').innerText()).trim();
  const second = (await listCell(quantums.nth(1), 'serial').innerText()).trim();
  await page.getByLabel('Search').fill('');

  await page.getByTestId('prepare-site-visit').click();
  const dialog = page.getByTestId('sync-dialog');
  for (const serial of [first, second])
    await dialog.locator('.sync-item').filter({ hasText: serial }).locator('.sync-pick input').check();
  await dialog.getByRole('radio', { name: 'Last 24 hours' }).check();
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByTestId('sync-follow')).toHaveAttribute('data-outcome', 'gaps');

  const causes = dialog.getByTestId('sync-cause');
  const reasons = await causes.locator('.sync-reason').allInnerTexts();
  // Each reason once, however many instruments and datasets it hit.
  expect(new Set(reasons).size).toBe(reasons.length);
  const system = causes.filter({ hasText: 'data.system:read' });
  await expect(system).toHaveCount(1);
  await expect(system.getByTestId('sync-failure')).toHaveCount(2);
  await expect(system).toContainText('System health');
  await expect(system).toContainText('Calibrations');
  // The progress bar is never full when parts are missing.
  const bar = dialog.getByTestId('sync-progress').getByRole('progressbar');
  expect(Number(await bar.getAttribute('value'))).toBeLessThan(100);
  // Every part is missing for want of a scope: another try cannot fetch it, so none is offered.
  const gaps = dialog.getByTestId('sync-gaps');
  await expect(gaps).toContainText('Asking again will not fetch the parts listed below');
  await expect(gaps.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await dialog.getByTestId('sync-cause').first().scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'site-sync-gaps-by-cause');
});
