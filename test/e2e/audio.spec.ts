/**
 * Audio as an engineer uses it: an instrument's recordings read as recordings, one downloaded with
 * its progress bar (the demo service holds the download part-way until the test lets it go, so the
 * bar is looked at without racing the clock), played in the app with its waveform and spectrogram;
 * an event's audio played from the events table, its time history following it; then both played
 * again with the service gone and the window reloaded.
 */
import type { Locator, Page } from '@playwright/test';
import { addAccount, expect, keepScreenshot, test } from './fixtures';

/** A Quantum noise monitor with the Audio add-on in the demo fleet (seed 1). */
const SERIAL = 'QT930998';
const KEY = 'field-key';

async function openDataset(page: Page, url: string, dataset: string): Promise<void> {
  await page.goto(`${url}#/instruments/${SERIAL}/data/${dataset}`);
  await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
}

/** Plays from the start and waits until the playhead has moved on: the audio really plays. */
async function playAndHear(player: Locator): Promise<void> {
  await expect(player).toHaveAttribute('data-state', 'ready');
  await player.getByTestId('audio-play').click();
  await expect(player).toHaveAttribute('data-state', 'playing');
  await expect.poll(async () => Number(await player.getAttribute('data-position'))).toBeGreaterThan(0.2);
}

test('download a recording with its progress, play it and an event’s audio, lose the service, and play both again', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  // A download held and released, four players decoding and playing real audio, and the app
  // started again without the service: about 290 s on two busy cores.
  test.setTimeout(540_000);
  const service = await externalService({ keys: { [KEY]: '*' }, audio: { holdAfterBytes: 40_000 } });
  await page.setViewportSize({ width: 1366, height: 768 });
  // The player must work within the Content-Security-Policy: any refusal is a failure here.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text()))
      refused.push(message.text());
  });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Audio site', baseUrl: service.baseUrl, apiKey: KEY });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');

  await openDataset(page, harness.url, 'audio');
  const panel = page.getByTestId('recordings');
  const rows = panel.getByTestId('recording-row');
  await expect(rows.first()).toBeVisible();
  // Recordings read as recordings: a trigger name and times, never a raw id.
  await expect(panel.getByRole('table')).not.toContainText(/au_[A-Za-z0-9]/);
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText(/level|trigger/i);

  // Download the first: held part-way by the demo service, its bar shows how far it got.
  const row = rows.first();
  const started = row.getByRole('cell').first();
  const startText = await started.innerText();
  await row.getByRole('button', { name: /^Download the recording/ }).click();
  const progress = row.getByTestId('download-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(/\d+ kB of [\d.]+ (kB|MB)/);
  await keepScreenshot(page, testInfo, 'audio-download-progress');
  service.audio.release();
  await expect(row).toHaveAttribute('data-status', 'library');

  await row.getByRole('button', { name: /^Play the recording/ }).click();
  const player = page.getByTestId('audio-player');
  await playAndHear(player);
  await player.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'audio-player');

  // An event with audio: Play opens it, fetches its audio, and its time history follows the player.
  await openDataset(page, harness.url, 'events');
  const eventRow = page
    .getByTestId('event-row')
    .filter({ has: page.getByTestId('event-play') })
    .first();
  await eventRow.getByTestId('event-play').click();
  const detail = page.getByTestId('event-detail');
  const eventPlayer = detail.getByTestId('audio-player');
  await playAndHear(eventPlayer);
  await expect(detail.getByTestId('chart-playhead')).toBeVisible();
  await detail.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'audio-event');
  expect(refused).toEqual([]);

  // The signal is gone, and the window starts again.
  await service.close();
  await openDataset(page, harness.url, 'audio');
  const offlineRow = page.getByTestId('recording-row').filter({ hasText: startText });
  await expect(offlineRow).toHaveAttribute('data-status', 'library');
  await offlineRow.getByRole('button', { name: /^Play the recording/ }).click();
  await playAndHear(page.getByTestId('audio-player'));
  await keepScreenshot(page, testInfo, 'audio-offline');

  // The event's audio plays offline too, from the library, its time history following it.
  await openDataset(page, harness.url, 'events');
  await page
    .getByTestId('event-row')
    .filter({ has: page.getByTestId('event-play') })
    .first()
    .getByTestId('event-play')
    .click();
  await playAndHear(page.getByTestId('event-detail').getByTestId('audio-player'));
  await expect(page.getByTestId('event-detail').getByTestId('chart-playhead')).toBeVisible();
  expect(refused).toEqual([]);
});

test('Download all asks first with the count and size; an event’s Play is served before its queue', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  test.setTimeout(300_000);
  // Every audio answer is held part-way until released: "still downloading" without a clock.
  const service = await externalService({ keys: { [KEY]: '*' }, audio: { holdAfterBytes: 40_000 } });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Audio queue', baseUrl: service.baseUrl, apiKey: KEY });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');

  await openDataset(page, harness.url, 'audio');
  const panel = page.getByTestId('recordings');
  const rows = panel.getByTestId('recording-row');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(3);

  // Asked first: the count, the length and the estimated size, nothing queued yet.
  await panel.getByTestId('download-all').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Download ${count} recordings as FLAC?`);
  await expect(dialog.getByTestId('download-all-size')).toHaveText(
    new RegExp(`^${count} recordings, [\\dhmins ]+ of audio: about [\\d.]+ (kB|MB|GB) in all\\.$`),
  );
  await expect(dialog).toContainText('Estimated at 22 kB per second of FLAC audio');
  await keepScreenshot(page, testInfo, 'audio-download-all-confirm', false);
  await expect(rows.filter({ has: page.getByTestId('download-progress') })).toHaveCount(0);

  // Cancelled: nothing downloads. Asked again and confirmed: every row is queued or running.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ has: page.getByTestId('download-progress') })).toHaveCount(0);
  await panel.getByTestId('download-all').click();
  await dialog.getByRole('button', { name: `Download ${count} recordings` }).click();
  await expect(rows.filter({ has: page.getByTestId('download-progress') })).toHaveCount(count);
  // Two run (held by the service), the rest wait behind them.
  await expect(rows.getByTestId('download-progress').filter({ hasText: /\d+ kB of/ })).toHaveCount(2);
  await expect(rows.getByTestId('download-progress').filter({ hasText: 'Waiting to download' })).toHaveCount(
    count - 2,
  );

  // An event's Play, with the bulk queue full and both its transfers held: its audio starts now.
  await openDataset(page, harness.url, 'events');
  const eventRow = page
    .getByTestId('event-row')
    .filter({ has: page.getByTestId('event-play') })
    .last();
  await eventRow.getByTestId('event-play').click();
  const detail = page.getByTestId('event-detail');
  await expect(detail.getByTestId('download-progress')).toContainText(/\d+ kB of/);
  await detail.scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'audio-event-before-queue', false);

  // Released: the event's audio plays while the bulk downloads go on.
  service.audio.release();
  const player = detail.getByTestId('audio-player');
  await expect(player).toHaveAttribute('data-state', 'ready');

  // Back in the recordings: Play opens the player under its row, in view.
  await openDataset(page, harness.url, 'audio');
  const done = rows.filter({ has: page.getByRole('button', { name: /^Play the recording/ }) }).first();
  await done.getByRole('button', { name: /^Play the recording/ }).click();
  const rowPlayer = panel.getByTestId('audio-player');
  await expect(rowPlayer).toBeInViewport();
  await keepScreenshot(page, testInfo, 'audio-player-in-view', false);
});
