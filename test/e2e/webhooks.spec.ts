/**
 * Webhooks in the real UI against the in-app demo service: add one and see its secret once, send a
 * test message to a receiver on this computer and see it delivered (signed with that secret),
 * delete it; and a key that may not read webhooks is told why.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addAccount, expect, keepScreenshot, test, tryTheDemo } from './fixtures';

interface Arrival {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** A webhook receiver on 127.0.0.1 answering 200; closed by the caller. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrivals.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fielddesk-hook`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('add a webhook, copy its secret once, send a test to this computer, delete it', async ({
  page,
  context,
  harness,
}, testInfo) => {
  const receiver = await startReceiver();
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(harness.url).origin,
    });
    await tryTheDemo(page, harness);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('webhooks-link').click();
    await expect(page.getByText('No webhooks yet')).toBeVisible();
    await expect(page.getByTestId('no-test-delivery')).toHaveCount(0);

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByLabel('Reports').selectOption({ label: 'Calibration finished' });
    const instrument = form.getByLabel('Instrument');
    const firstChoice = instrument.locator('option:not([disabled])').first();
    const serial = await firstChoice.getAttribute('value');
    await instrument.selectOption(serial!);
    // The address is checked before anything is sent.
    await form.getByLabel('Receiving address').fill('http://receiver.example.com/hook');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect(form.getByText('The address must start with https://')).toBeVisible();
    await form.getByLabel('Receiving address').fill(receiver.url);
    await form.getByRole('button', { name: 'Add webhook' }).click();

    const created = page.getByTestId('webhook-created');
    // The wording is true: the secret is not "shown only once" (Show secret shows it again below).
    await expect(created).toContainText('Copy the secret into your receiving system now.');
    await expect(created).toContainText('Show secret on the webhook shows it again.');
    await expect(created).not.toContainText('only this once');
    const secret = (await created.getByLabel('Secret of the new webhook').innerText()).trim();
    expect(secret).toMatch(/^\S{16,}$/);
    await created.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(created.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await keepScreenshot(page, testInfo, 'webhooks-created');
    await created.getByRole('button', { name: 'I have copied it' }).click();

    // Afterwards the secret is masked unless asked for.
    const card = page.getByTestId('webhook');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Calibration finished');
    await expect(card).toContainText(receiver.url);
    await expect(page.getByText(secret)).toHaveCount(0);
    await card.getByRole('button', { name: 'Show secret' }).click();
    await expect(card.getByLabel('Secret of this webhook')).toHaveText(secret);
    await card.getByRole('button', { name: 'Hide' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    // A test message reaches the receiver, signed with the secret, and the attempt is shown.
    await card.getByRole('button', { name: 'Send a test' }).click();
    const delivery = card.getByTestId('webhook-delivery');
    await expect(delivery).toContainText('Delivered');
    await expect(delivery.getByTestId('webhook-attempt')).toHaveCount(1);
    await expect(delivery.getByTestId('webhook-attempt')).toContainText(/HTTP 200 in \d/);
    expect(receiver.arrivals).toHaveLength(1);
    const arrival = receiver.arrivals[0]!;
    expect(arrival.headers['x-webhook-signature']).toBe(
      createHmac('sha256', secret).update(arrival.raw).digest('hex'),
    );
    expect(JSON.parse(arrival.raw.toString('utf8'))).toMatchObject({
      type: 'CalibrationFinished',
      instrument: serial,
    });
    await keepScreenshot(page, testInfo, 'webhooks-delivery');

    // After a reload the secret is not on the page: it is masked until asked for.
    await page.reload();
    await expect(page.getByTestId('webhook')).toHaveCount(1);
    await expect(page.getByText(secret)).toHaveCount(0);

    await page.getByTestId('webhook').getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await expect(dialog).toContainText(receiver.url);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No webhooks yet')).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test('a key that may not read webhooks is told which scope it lacks', async ({
  page,
  harness,
  externalService,
}) => {
  const service = await externalService({ keys: { 'fleet-only': ['instruments:read'] } });
  await page.goto(harness.url);
  await addAccount(page, { name: 'Harbour works', baseUrl: service.baseUrl, apiKey: 'fleet-only' });
  await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByTestId('webhooks-link').click();
  await expect(page.getByText('This key cannot list webhooks: it lacks webhooks:read.')).toBeVisible();
});
