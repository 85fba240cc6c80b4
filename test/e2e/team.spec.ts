/**
 * The team screen at 1366x768 against a real CouchDB-compatible server (pouchdb-server on loopback,
 * started here): joining (a wrong password refused in its own words, then joined and up to date),
 * a colleague's calibrator arriving, and a conflict two colleagues made — both versions with who made
 * them and what differs — resolved by keeping one; and a site handed over as one file between two
 * laptops (two harnesses), previewed before it is imported.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from '../../src/harness/server';
import { generateDemoFleet } from '../../src/simulator';
import { startCouchServer, type CouchServer } from '../unit/backend/couch-server';
import { expect, keepScreenshot, test, tryTheDemo } from './fixtures';

test.use({ viewport: { width: 1366, height: 768 } });

let couch: CouchServer;
test.beforeAll(async () => {
  couch = await startCouchServer();
  await couch.team('team-north', { ann: 'ann-password', bob: 'bob-password' });
});
test.afterAll(async () => {
  await couch?.close();
});

const bob = () => `Basic ${Buffer.from('bob:bob-password').toString('base64')}`;

/** Writes revisions as another laptop's replication does (`new_edits: false`: kept as given). */
async function replicateIn(docs: object[]): Promise<void> {
  const answer = await fetch(`${couch.url}/team-north/_bulk_docs`, {
    method: 'POST',
    headers: { Authorization: bob(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ docs, new_edits: false }),
  });
  expect(answer.ok).toBe(true);
}

const calibrator = (dueDate: string, updatedAt: number) => ({
  id: 'cal-team-1',
  model: 'CR:515',
  serial: '054433',
  class: '1',
  levelsDb: [94, 114],
  certificateDate: '2026-01-10',
  dueDate,
  retired: false,
  createdAt: 1_790_000_000_000,
  updatedAt,
});

test('join a team, see its state, and resolve a conflict two colleagues made', async ({
  page,
  harness,
}, testInfo) => {
  await tryTheDemo(page, harness);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
  await expect(page.getByTestId('team-state')).toContainText('Not in a team');

  await page.getByLabel('Team name').fill('Team North');
  await page.getByLabel('Server address').fill(couch.url);
  await page.getByLabel('Team database').fill('team-north');
  await page.getByLabel('Your name on the server').fill('ann');
  await page.getByLabel('Password').fill('not-her-password');
  await page.getByLabel('Your name as colleagues see it').fill('Ann Field');
  await page.getByTestId('team-join-submit').click();
  await expect(page.getByTestId('team-join-error')).toContainText(
    'refused the name "ann" with this password',
  );
  await keepScreenshot(page, testInfo, 'team-join-refused');

  await page.getByLabel('Password').fill('ann-password');
  await page.getByTestId('team-join-submit').click();
  await expect(page.getByTestId('team-state')).toContainText(/Up to date with Team North, just now/);
  await expect(page.getByRole('heading', { name: 'Team North' })).toBeVisible();
  await expect(page.getByText('No conflicts')).toBeVisible();
  await keepScreenshot(page, testInfo, 'team-joined');

  // A calibrator from the team, then two colleagues' different changes to it (two revisions on one).
  const base = { _id: 'calibrator:cal-team-1', kind: 'calibrator', site: null };
  await replicateIn([
    {
      ...base,
      _rev: '1-aaaa',
      record: calibrator('2027-01-10', 1_790_000_000_000),
      changedBy: 'Bob Meter',
      changedAt: 1_790_000_000_000,
    },
  ]);
  await replicateIn([
    {
      ...base,
      _rev: '2-bbbb',
      _revisions: { start: 2, ids: ['bbbb', 'aaaa'] },
      record: calibrator('2027-02-01', 1_790_000_100_000),
      changedBy: 'Bob Meter',
      changedAt: 1_790_000_100_000,
    },
    {
      ...base,
      _rev: '2-cccc',
      _revisions: { start: 2, ids: ['cccc', 'aaaa'] },
      record: calibrator('2027-03-01', 1_790_000_200_000),
      changedBy: 'Cy Level',
      changedAt: 1_790_000_200_000,
    },
  ]);
  const conflict = page.getByTestId('conflict-cal-team-1');
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText('Calibrator CR:515 #054433');
  await expect(conflict).toContainText('Edited differently by');
  await expect(conflict.getByRole('row', { name: /Due date/ })).toContainText('2027-02-01');
  await expect(conflict.getByRole('row', { name: /Due date/ })).toContainText('2027-03-01');
  await keepScreenshot(page, testInfo, 'team-conflict');

  await conflict.getByTestId('keep-Cy Level').click();
  await expect(page.getByText('No conflicts')).toBeVisible();
  // Kept for everyone: the server holds one version, Cy's.
  await expect
    .poll(async () => {
      const doc = (await (
        await fetch(`${couch.url}/team-north/calibrator:cal-team-1?conflicts=true`, {
          headers: { Authorization: bob() },
        })
      ).json()) as { record?: { dueDate?: string }; _conflicts?: string[] };
      return `${doc.record?.dueDate} ${doc._conflicts?.length ?? 0}`;
    })
    .toBe('2027-03-01 0');

  // Following only some of the team's sites (its list from the server).
  await page.getByTestId('follow-choose').click();
  const follow = page.getByTestId('follow-sites');
  await follow.getByLabel(/Only the sites ticked/).check();
  await keepScreenshot(page, testInfo, 'team-follow-sites');
  await follow.getByTestId('follow-save').click();
  await expect(page.getByText('0 site(s) you follow')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByTestId('calibrators-link').click();
  await expect(page.getByTestId('calibrator-table')).toContainText('054433');
});

test('hand a site over as one file: saved on one laptop, previewed and imported on another', async ({
  page,
  harness,
  browser,
}, testInfo) => {
  await tryTheDemo(page, harness);
  // The site made through the backend's own request, as the assessment screen makes it.
  const made = await fetch(new URL('api/invoke/assessment.saveSite', harness.origin), {
    method: 'POST',
    headers: { Authorization: `Bearer ${harness.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: [generateDemoFleet(1, Date.now())[0]!.wire.serialNumber],
    }),
  });
  expect(((await made.json()) as { ok: boolean }).ok).toBe(true);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
  const card = page.getByTestId('site-file');
  await card.getByLabel('Site', { exact: true }).selectOption({ label: 'Mill Lane' });
  await card.getByTestId('site-file-save').click();
  await expect(card.getByRole('status')).toContainText('Saved Mill Lane.fielddesk-site');
  const saved = (await card.getByRole('status').textContent()) ?? '';
  const folder = /in (.*)$/.exec(saved.trim())?.[1] ?? '';

  // The other laptop: its own harness and data folder.
  const dataDir = await mkdtemp(join(tmpdir(), 'fielddesk-e2e-other-'));
  const other = await startHarness({
    port: 0,
    dataDir,
    staticDir: 'out/web',
    keychainService: `FieldDesk-e2e-${randomUUID()}`,
  });
  const otherPage = await browser.newPage();
  try {
    await tryTheDemo(otherPage, other);
    await otherPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await otherPage.getByTestId('site-file-choose').setInputFiles(join(folder, 'Mill Lane.fielddesk-site'));
    const preview = otherPage.getByTestId('site-file-preview');
    await expect(preview).toContainText('Mill Lane — new here');
    await expect(preview).toContainText('Visits');
    await keepScreenshot(otherPage, testInfo, 'team-site-file-preview');
    await otherPage.getByTestId('site-file-import').click();
    await expect(otherPage.getByTestId('site-file-imported')).toContainText(
      'Imported 1 record(s) of Mill Lane.',
    );

    // A file that is not a site file is refused with its reason.
    await otherPage.getByTestId('site-file-choose').setInputFiles({
      name: 'notes.fielddesk-site',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a zip at all'),
    });
    await expect(otherPage.getByTestId('site-file-error')).toContainText('it is not a zip file');
  } finally {
    await otherPage.close();
    await other.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
