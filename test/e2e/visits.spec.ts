/**
 * A site visit from arrival to the visit sheet: started on a healthy demo noise instrument, the
 * checklist answered, a photo added (its thumbnail shown), a calibration run while the visit is
 * open and linked with its verdict, the visit finished and its sheet written — then the PDF read
 * back (engineer, the calibration's verdict and calibrator, the notes, the photo's thumbnail as an
 * image).
 */
import { join } from 'node:path';
import { addCalibrator, dateFromToday, healthyNoise } from './field-helpers';
import { expect, hasPoppler, keepScreenshot, runProgram, test, tryTheDemo } from './fixtures';

const PHOTO = join(__dirname, '../fixtures/site-photo-mast.jpg');

test.describe('a site visit', () => {
  test.use({ demoTimeScale: 0.02 });

  test('from arrival to a visit sheet that names the engineer, the calibration and the photo', async ({
    page,
    harness,
  }, testInfo) => {
    // The demo fleet, a visit filled in, a calibration followed to its verdict by the backend's polls,
    // and a PDF written and read back: about 120 s on two busy cores.
    test.setTimeout(300_000);
    const instrument = healthyNoise();
    await tryTheDemo(page, harness);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('calibrators-link').click();
    await addCalibrator(page, {
      model: 'CR:515',
      serial: '054433',
      levels: '94, 114',
      certificate: dateFromToday(-100),
      due: dateFromToday(265),
    });
    await page.getByRole('link', { name: 'Instruments' }).click();
    await page.locator(`a[href$="/instruments/${instrument.serial}"]`).first().click();
    await expect(page.getByText(instrument.serial).first()).toBeVisible();

    await page.getByTestId('start-visit').click();
    const start = page.getByRole('dialog', { name: /^Start a visit to/ });
    await start.getByLabel('Engineer').fill('Asha Patel');
    await keepScreenshot(page, testInfo, 'visit-start', false);
    await start.getByRole('button', { name: 'Start visit' }).click();
    await expect(page.getByRole('heading', { name: /^Visit: / })).toBeVisible();
    await expect(page.getByText('Visit open')).toBeVisible();

    // The checklist: everything fine but the windshield, with a note.
    const items = page.locator('.check-item');
    await expect(items).toHaveCount(7);
    for (const label of ['State on arrival', 'Battery or power', 'Mast and cables']) {
      await items.filter({ hasText: label }).getByText('Done', { exact: true }).click();
    }
    const windshield = items.filter({ hasText: 'Windshield and microphone inspected' });
    await windshield.getByText('Issue', { exact: true }).click();
    await windshield.getByRole('textbox').fill('Windshield torn by birds; replaced');
    await windshield.getByRole('textbox').press('Tab');
    await expect(page.getByText('4 of 7 answered')).toBeVisible();

    await page.getByTestId('photo-input').setInputFiles(PHOTO);
    const photo = page.getByTestId('visit-photo');
    await expect(photo).toHaveCount(1);
    await expect(photo.locator('img')).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
    await photo.getByLabel(/^Caption of/).fill('New windshield on the mast');
    await photo.getByLabel(/^Caption of/).press('Tab');
    // The photo opens whole in the viewer (keyboard: arrows move, Esc closes back to its thumbnail).
    const thumbnail = photo.getByRole('button', { name: 'View New windshield on the mast whole' });
    await thumbnail.click();
    const viewer = page.getByRole('dialog', { name: /^New windshield on the mast/ });
    await expect(viewer).toContainText('1 of 1');
    await expect(viewer.getByTestId('photo-full')).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
    await viewer.getByRole('button', { name: 'Actual size' }).click();
    await expect(viewer.getByRole('button', { name: 'Fit to window' })).toBeVisible();
    await keepScreenshot(page, testInfo, 'visit-photo-viewer', false);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(thumbnail).toBeFocused();
    await page
      .getByRole('textbox', { name: 'Notes' })
      .fill('Replaced the windshield. Guy rope re-tensioned.');
    await page.getByRole('textbox', { name: 'Notes' }).blur();
    await expect(page.getByText('Saving…')).toHaveCount(0);

    // A calibration while the visit is open, from the instrument's page.
    await page.locator('.visit-facts a').first().click();
    await page.getByRole('button', { name: 'Calibrate', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Calibrate/ });
    await dialog.getByRole('radio', { name: `${instrument.referenceDb.toFixed(1)} dB`, exact: true }).check();
    await dialog
      .getByTestId('calibrator-choice')
      .getByRole('radio', { name: /^CR:515 #054433/ })
      .check();
    await dialog.getByRole('button', { name: 'Start calibration' }).click();
    await expect(dialog.getByTestId('verdict').getByTestId('verdict-word')).toHaveText('PASS');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('instrument-visits')).toContainText('Asha Patel');
    await page.getByTestId('instrument-visits').scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, 'visit-in-instrument-history', false);

    await page.getByTestId('continue-visit').click();
    const actions = page.getByTestId('visit-actions');
    await expect(actions).toContainText('Calibration');
    await expect(actions).toContainText('FieldDesk: Pass');
    await expect(actions).toContainText('Calibrator: CR:515 #054433');
    // The calibration answers "Calibration before", with its verdict and figures.
    const before = items.filter({ hasText: 'Calibration before' });
    await expect(before).toHaveAttribute('data-state', 'ok');
    await expect(before.getByRole('textbox')).toHaveValue(
      /^From the calibration run from FieldDesk: Pass \(FieldDesk\)/,
    );
    // Finishing names the items left unanswered, and asks first (Cancel focused).
    await page.getByRole('button', { name: 'Finish visit' }).click();
    const question = page.getByRole('dialog', { name: 'Finish with 2 items unanswered?' });
    await expect(question.getByTestId('unanswered').getByRole('listitem')).toHaveText([
      'SIC',
      'Calibration after',
    ]);
    await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await question.getByRole('button', { name: 'Finish visit' }).click();
    await expect(page.getByText('Visit finished')).toBeVisible();
    await keepScreenshot(page, testInfo, 'visit-finished');
    // Reopened, the departure is kept and offered again when it is finished.
    const left = await page.getByTestId('visit-left').innerText();
    await page.getByRole('button', { name: 'Reopen visit' }).click();
    await expect(page.getByTestId('visit-left')).toContainText('kept while reopened');
    await page.getByRole('button', { name: /^Finish, left / }).click();
    await question.getByRole('button', { name: 'Finish visit' }).click();
    await expect(page.getByText('Visit finished')).toBeVisible();
    await expect(page.getByTestId('visit-left')).toHaveText(left);
    await page.getByRole('link', { name: 'Visits', exact: true }).click();
    await expect(page.getByTestId('visits-table')).toContainText('Asha Patel');
    await expect(page.getByTestId('visits-table')).toContainText('1 issue · 2 unanswered · 1 photo');
    await keepScreenshot(page, testInfo, 'visits-list', false);
    await page.getByTestId('visits-table').getByRole('link').first().click();

    await page.getByRole('button', { name: 'Save visit sheet (PDF)' }).click();
    const saved = page.getByTestId('visit-sheet-saved');
    await expect(saved).toContainText('.pdf');
    const path = (await saved.locator('.mono').textContent())!.trim();
    expect(path).toMatch(/Site visit .*\.pdf$/);

    test.skip(
      !(await hasPoppler()),
      'pdftotext is not installed here (Debian: poppler-utils), so the sheet is not read back',
    );
    const { stdout: text } = await runProgram('pdftotext', ['-layout', path, '-']);
    expect(text).toContain('Asha Patel');
    // The check's one record, as every output writes it: FieldDesk's verdict, then the instrument's word.
    expect(text).toMatch(/Calibration\s+Pass \(FieldDesk\): level \d+\.\d+ dB/);
    expect(text).toContain('CR:515 #054433');
    expect(text).toContain('Windshield torn by birds; replaced');
    expect(text).toContain('New windshield on the mast');
    expect(text).toContain('Replaced the windshield. Guy rope re-tensioned.');
    const { stdout: info } = await runProgram('pdfinfo', [path]);
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBeLessThanOrEqual(2);
    const { stdout: images } = await runProgram('pdfimages', ['-list', path]);
    // Two header lines, then one per image: the photo's thumbnail.
    expect(images.trim().split('\n').slice(2)).toHaveLength(1);
    const pages = join('test-results', 'screens');
    await runProgram('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '1',
      path,
      join(pages, 'visit-sheet'),
    ]);
  });
});
