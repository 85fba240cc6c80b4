/**
 * Nothing typed into a visit is lost, at the laptop's 1366×768: a checklist note typed and the next
 * item answered at once (no pause, no leaving the field) keeps both, on screen and after a reload;
 * notes typed and then at once a navigation, a reload or a closed window are there when the visit
 * is opened again, saved in the record (not only in the page's draft).
 */
import { healthyNoise } from './field-helpers';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

test.describe('a visit keeps what is typed', () => {
  test.use({ demoTimeScale: 0.02, viewport: { width: 1366, height: 768 } });

  test('a note then the next answer at once, then a navigation, a reload and a close straight after typing', async ({
    page,
    harness,
  }, testInfo) => {
    // The demo fleet, a visit started and typed into, three reloads: about 60 s on two busy cores.
    test.setTimeout(180_000);
    const instrument = healthyNoise();
    await tryTheDemo(page, harness);
    await page.locator(`a[href$="/instruments/${instrument.serial}"]`).first().click();
    await page.getByTestId('start-visit').click();
    const start = page.getByRole('dialog', { name: /^Start a visit to/ });
    await start.getByLabel('Engineer').fill('Asha Patel');
    await start.getByRole('button', { name: 'Start visit' }).click();
    await expect(page.getByRole('heading', { name: /^Visit: / })).toBeVisible();
    const visitUrl = page.url();

    // A note on the first item, and the second answered the same instant.
    const items = page.locator('.check-item');
    const first = items.nth(0);
    const second = items.nth(1);
    await first.getByRole('textbox').fill('Door seal cracked');
    await second.getByText('Done', { exact: true }).click();
    await expect(second.getByRole('radio', { name: 'Done' })).toBeChecked();
    await expect(first.getByRole('textbox')).toHaveValue('Door seal cracked');
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    await keepScreenshot(page, testInfo, 'visit-note-then-answer', false);
    await page.reload();
    await expect(first.getByRole('textbox')).toHaveValue('Door seal cracked');
    await expect(second.getByRole('radio', { name: 'Done' })).toBeChecked();

    // Notes typed, then at once away to the visits list and back.
    const notes = page.getByRole('textbox', { name: 'Notes' });
    await notes.fill('Guy rope re-tensioned.');
    await page.getByRole('link', { name: 'Visits', exact: true }).click();
    await expect(page.getByTestId('visits-table')).toBeVisible();
    await page.goto(visitUrl);
    await expect(notes).toHaveValue('Guy rope re-tensioned.');

    // Typed, then at once a reload: back as typed, and saved in the record.
    await notes.fill('Guy rope re-tensioned. Solar panel cleaned.');
    await page.reload();
    await expect(notes).toHaveValue('Guy rope re-tensioned. Solar panel cleaned.');
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    await expect
      .poll(() =>
        page.evaluate('Object.keys(localStorage).filter((k) => k.startsWith("fielddesk.draft.")).length'),
      )
      .toBe(0);

    // Typed, and the window closed at once: there in a new window.
    await notes.fill('Closed straight after typing this.');
    await page.close();
    // A new window has no session: opened as the app is, with the harness's token, at the visit.
    const again = await page.context().newPage();
    await again.setViewportSize({ width: 1366, height: 768 });
    await again.goto(`${harness.url}${new URL(visitUrl).hash}`);
    await expect(again.getByRole('textbox', { name: 'Notes' })).toHaveValue(
      'Closed straight after typing this.',
    );
    await expect(again.getByTestId('save-status')).toHaveText('Saved');
    // Saved in the record: the visits list counts the answers given above.
    await again.getByRole('link', { name: 'Visits', exact: true }).click();
    await expect(again.getByTestId('visits-table')).toContainText('Asha Patel');
  });
});
