/**
 * A large camera photo on a visit, at 1366×768: kept whole by default, or as a reduced copy when the
 * engineer asks (remembered) — the copy the viewer shows is then 2560 px on its longer side, the
 * file's own size otherwise.
 */
import type { Page } from '@playwright/test';
import { healthyNoise } from './field-helpers';
import { expect, test, tryTheDemo } from './fixtures';

/**
 * A 4000 × 3000 JPEG of noise (a camera's size), drawn by the browser: the e2e tests carry no
 * encoder. (A script as text: the e2e tsconfig has no DOM library.)
 */
async function largePhoto(page: Page): Promise<Buffer> {
  const base64 = (await page.evaluate(`(async () => {
    const canvas = new OffscreenCanvas(4000, 3000);
    const context = canvas.getContext('2d');
    const pixels = context.createImageData(4000, 3000);
    let seed = 7;
    for (let i = 0; i < pixels.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      pixels.data[i] = seed & 255;
      pixels.data[i + 1] = (seed >> 8) & 255;
      pixels.data[i + 2] = (seed >> 16) & 255;
      pixels.data[i + 3] = 255;
    }
    context.putImageData(pixels, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  })()`)) as string;
  return Buffer.from(base64, 'base64');
}

test.use({ viewport: { width: 1366, height: 768 } });

test('a large photo is kept whole, or as a reduced copy when asked (remembered)', async ({
  page,
  harness,
}) => {
  // Two photos of several MB read, checked and kept: about 40 s on two busy cores.
  test.setTimeout(180_000);
  const instrument = healthyNoise();
  await tryTheDemo(page, harness);
  const photo = await largePhoto(page);
  expect(photo.length).toBeGreaterThan(3_000_000);
  await page.locator(`a[href$="/instruments/${instrument.serial}"]`).first().click();
  await page.getByTestId('start-visit').click();
  const start = page.getByRole('dialog', { name: /^Start a visit to/ });
  await start.getByLabel('Engineer').fill('Asha Patel');
  await start.getByRole('button', { name: 'Start visit' }).click();
  await expect(page.getByRole('heading', { name: /^Visit: / })).toBeVisible();

  const photos = page.getByTestId('visit-photo');
  const shownWidth = async (index: number): Promise<number> => {
    await photos
      .nth(index)
      .getByRole('button', { name: /^View / })
      .click();
    const full = page.getByTestId('photo-full');
    await expect(full).toBeVisible();
    const width = await full.evaluate((img) => Number(Reflect.get(img, 'naturalWidth')));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('photo-viewer')).toBeHidden();
    return width;
  };

  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'camera.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(photos).toHaveCount(1);
  await expect(page.getByTestId('photo-progress')).toHaveCount(0);
  expect(await shownWidth(0)).toBe(4000);

  const reduce = page.getByRole('checkbox', { name: /^Keep reduced copies/ });
  await reduce.check();
  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'reduced.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(photos).toHaveCount(2);
  expect(await shownWidth(1)).toBe(2560);

  // The choice is remembered.
  await page.reload();
  await expect(reduce).toBeChecked();
});
