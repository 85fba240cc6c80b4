/**
 * A week of spectrum time history read day by day: the view says how many of the seven days are
 * read, Cancel stops the rest at once and says how far it got, and Refresh then reads the week
 * (the days read before from the cache). A proxy in front of the demo service holds the newest
 * days' requests until the test lets them go, so "still reading" never races the clock.
 */
import { addAccount, expect, keepScreenshot, test } from './fixtures';
import { startOddService } from './odd-service';

/** A Quantum noise monitor with spectra in the demo fleet (seed 1). */
const SERIAL = 'QT930998';
const KEY = 'field-key';
const DAY_MS = 86_400_000;

test('a week of spectrum time history: days read, Cancel, then the week', async ({
  page,
  harness,
  externalService,
}, testInfo) => {
  test.setTimeout(300_000);
  const service = await externalService({ keys: { [KEY]: '*' } });
  // Armed once the week is asked for: requests for the three newest days wait until released.
  let holdFrom: number | null = null;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const proxy = await startOddService(service.baseUrl, {
    hold: (path, query) => {
      const start = Date.parse(query.get('start') ?? '');
      return holdFrom !== null && path.endsWith('/data/frequency/timehistory') && start >= holdFrom
        ? released
        : null;
    },
  });
  try {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(harness.url);
    await addAccount(page, { name: 'Spectra week', baseUrl: proxy.baseUrl, apiKey: KEY });
    await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
    await page.goto(`${harness.url}#/instruments/${SERIAL}/data/frequencyTimeHistory`);
    await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('spectrogram')).not.toHaveAttribute('data-cells', '0');

    // The week: its four oldest days are read, the three newest held by the proxy.
    holdFrom = Date.now() - 3.5 * DAY_MS;
    await page.getByLabel('Range', { exact: true }).selectOption({ label: 'Last 7 days' });
    const progress = page.getByTestId('day-read-progress');
    await expect(progress).toContainText('4 of 7 days');
    await expect(progress).toContainText('Reading the spectrum time history day by day');
    await keepScreenshot(page, testInfo, 'spectrum-week-days', false);

    // Cancel: at once, with how far it got; the day's answer shown before stays.
    await page.getByTestId('day-read-cancel').click();
    await expect(page.getByTestId('day-reads')).toBeHidden();
    await expect(page.locator('main.data-page')).toContainText(
      'Stopped after 4 of 7 days. The days read are kept offline; Refresh reads the rest.',
    );
    await expect(page.getByTestId('spectrogram')).not.toHaveAttribute('data-cells', '0');
    await keepScreenshot(page, testInfo, 'spectrum-week-cancelled', false);

    // Let the held days go and read the week: it is shown whole.
    release();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.locator('main.data-page')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('day-reads')).toBeHidden();
    await expect(page.locator('main.data-page')).not.toContainText('Stopped after');
    await expect(page.getByTestId('provenance')).not.toHaveAttribute('data-source', 'partial');
    await expect(page.getByTestId('spectrogram')).not.toHaveAttribute('data-cells', '0');
    await keepScreenshot(page, testInfo, 'spectrum-week-read', false);
  } finally {
    release();
    await proxy.close();
  }
});
