/**
 * A team's records on two laptops (two data folders, each with its own records.db and account)
 * through a real CouchDB-compatible server (pouchdb-server, started by the test on loopback): sites,
 * exclusions, visits and calibrators move between them; deletions stay deleted, also after a damaged
 * records.db is restored; conflicts are shown with both versions, merged where safe; the state says
 * what waits; a wrong password and a name that is not a member are each told.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SiteVisit } from '../../../src/shared/visits';
import { createEventHub } from '../../../src/main/backend/core/events';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import { CHANGE_JOURNAL_FILE_NAME } from '../../../src/main/backend/records/change-journal';
import {
  openRecordsDatabase,
  type RecordsDatabase,
} from '../../../src/main/backend/records/records-database';
import { openTeamReplica, type TeamReplica } from '../../../src/main/backend/team/team-replica';
import type { TeamServer } from '../../../src/main/backend/team/team-server';
import { startCouchServer, type CouchServer } from './couch-server';
import { makeTempDir, memoryLogger } from './helpers';

let couch: CouchServer;
let teamNumber = 0;
beforeAll(async () => {
  couch = await startCouchServer();
}, 120_000);
afterAll(async () => {
  await couch?.close();
});

interface Laptop {
  name: string;
  accountId: string;
  folder: string;
  records: RecordsDatabase;
  replica: TeamReplica;
}

const opened: Laptop[] = [];
const folders: Array<{ remove(): Promise<void> }> = [];
let database = '';
const PASSWORDS = { ann: 'ann-pw', bob: 'bob-pw' } as const;

beforeEach(async () => {
  database = `team-${++teamNumber}`;
  await couch.team(database, PASSWORDS);
});
afterEach(async () => {
  await couch.start();
  for (const laptop of opened.splice(0)) await shut(laptop);
  for (const folder of folders.splice(0)) await folder.remove();
});

const server = (username: keyof typeof PASSWORDS, password: string = PASSWORDS[username]): TeamServer => ({
  url: couch.url,
  database,
  username,
  password,
});

async function open(
  name: keyof typeof PASSWORDS,
  options: { folder?: string; follow?: 'all' | string[]; connect?: boolean } = {},
): Promise<Laptop> {
  let folder = options.folder;
  if (folder === undefined) {
    const made = await makeTempDir();
    folders.push(made);
    folder = made.path;
  }
  const records = openRecordsDatabase({
    dataDir: folder,
    notices: createNoticeBoard(createEventHub(), Date.now),
    log: memoryLogger(),
    now: Date.now,
  });
  const accountId = `account-of-${name}`;
  const replica = await openTeamReplica({
    folder: join(folder, 'team'),
    rows: records.view('rows'),
    onCommitted: (listener) => records.onCommitted(listener),
    accountId,
    engineer: () => (name === 'ann' ? 'Ann Field' : 'Bob Meter'),
    follow: options.follow ?? 'all',
    log: memoryLogger(),
    now: Date.now,
  });
  const laptop = { name, accountId, folder, records, replica };
  opened.push(laptop);
  if (options.connect !== false) await replica.connect(server(name));
  return laptop;
}

async function shut(laptop: Laptop): Promise<void> {
  const at = opened.indexOf(laptop);
  if (at >= 0) opened.splice(at, 1);
  await laptop.replica.close();
  await laptop.records.close();
}

/** Waits for a state of the records, not for a time: replication is asynchronous. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within a minute: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sites = (laptop: Laptop) => laptop.records.view('sites').list(laptop.accountId).sites;
const visits = (laptop: Laptop) => laptop.records.view('visits').list(laptop.accountId).visits;

function visitAt(laptop: Laptop, site: { id: string; name: string }, notes: string): SiteVisit {
  const at = Date.now();
  return {
    id: `visit-${at}`,
    accountId: laptop.accountId,
    site,
    instruments: [],
    engineer: 'Ann Field',
    arrivedAt: at,
    leftAt: null,
    checklist: [],
    notes,
    photos: [],
    createdAt: at,
    updatedAt: at,
  };
}

function addExclusion(laptop: Laptop, siteId: string, reason: string): void {
  const site = laptop.records.view('sites').get(laptop.accountId, siteId)!;
  const at = Date.now();
  laptop.records.view('sites').put({
    ...site,
    exclusions: [
      ...site.exclusions,
      { id: `ex-${reason}`, start: at - 3_600_000, end: at, reason, serial: null, createdAt: at },
    ],
    updatedAt: at,
  });
}

describe('a team’s records through a CouchDB server', () => {
  it('a site made on one laptop appears on the other, under that laptop’s own account', async () => {
    const ann = await open('ann');
    const bob = await open('bob');
    const made = ann.records.view('sites').save(ann.accountId, {
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT100001'],
    })!;
    await until(() => sites(bob).some((site) => site.id === made.id), 'the site on Bob’s laptop');
    const received = sites(bob).find((site) => site.id === made.id)!;
    expect(received).toMatchObject({ name: 'Mill Lane', serials: ['QT100001'], accountId: bob.accountId });
    await until(() => ann.replica.state().phase === 'upToDate', 'Ann up to date');
    expect(ann.replica.state()).toMatchObject({ waiting: 0, unreachableSince: null, refusal: null });
  }, 90_000);

  it('exclusions added on both laptops while the server is down are both kept on both', async () => {
    const ann = await open('ann');
    const bob = await open('bob');
    const site = ann.records
      .view('sites')
      .save(ann.accountId, { name: 'Quarry', timeZone: 'UTC', serials: [] })!;
    await until(() => sites(bob).some((s) => s.id === site.id), 'the site on Bob’s laptop');

    await couch.stop();
    addExclusion(ann, site.id, 'Road works');
    addExclusion(bob, site.id, 'Fireworks');
    await until(
      () => ann.replica.state().phase === 'unreachable' && ann.replica.state().waiting === 1,
      'Ann sees the server unreachable, one change waiting',
    );
    expect(ann.replica.state().unreachableSince).not.toBeNull();

    await couch.start();
    const reasons = (laptop: Laptop) =>
      laptop.records
        .view('sites')
        .get(laptop.accountId, site.id)!
        .exclusions.map((e) => e.reason)
        .sort();
    await until(
      () => reasons(ann).length === 2 && reasons(bob).length === 2,
      'both exclusions on both laptops',
    );
    expect(reasons(ann)).toEqual(['Fireworks', 'Road works']);
    expect(reasons(bob)).toEqual(['Fireworks', 'Road works']);
    await until(() => ann.replica.state().phase === 'upToDate', 'Ann caught up');
    expect(ann.replica.state().waiting).toBe(0);
    expect(await ann.replica.conflicts()).toEqual([]);
    expect(await bob.replica.conflicts()).toEqual([]);
  }, 120_000);

  it('a visit deleted on one laptop goes on the other, and a restore of damaged records does not bring it back', async () => {
    const ann = await open('ann');
    const bob = await open('bob');
    const site = ann.records
      .view('sites')
      .save(ann.accountId, { name: 'Depot', timeZone: 'UTC', serials: [] })!;
    const visit = visitAt(ann, { id: site.id, name: site.name }, 'Mast checked');
    ann.records.view('visits').put(visit);
    await until(() => visits(bob).some((v) => v.id === visit.id), 'the visit on Bob’s laptop');
    // Ann's backup holds the visit.
    await ann.records.backupNow();

    bob.records.view('visits').remove(bob.accountId, visit.id);
    await until(() => !visits(ann).some((v) => v.id === visit.id), 'the visit gone from Ann’s laptop');

    // Ann's records.db is damaged and its journal lost: the restore brings back the backup, visit and all.
    await shut(ann);
    const path = join(ann.folder, 'records.db');
    const bytes = await readFile(path);
    await writeFile(path, Buffer.concat([Buffer.from('not a database at all!'), bytes.subarray(22)]));
    await rm(join(ann.folder, CHANGE_JOURNAL_FILE_NAME));
    const reopened = await open('ann', { folder: ann.folder, connect: false });
    await reopened.replica.settled();
    expect(visits(reopened).map((v) => v.id)).not.toContain(visit.id);
    expect(sites(reopened).map((s) => s.id)).toContain(site.id);
    expect(await reopened.replica.conflicts()).toEqual([]);
  }, 120_000);

  it('a visit deleted on one laptop while the other edits it offline is a conflict on both, not silently back', async () => {
    const ann = await open('ann');
    const bob = await open('bob');
    const visit = visitAt(ann, null as unknown as { id: string; name: string }, 'First notes');
    ann.records.view('visits').put({ ...visit, site: null });
    await until(() => visits(bob).some((v) => v.id === visit.id), 'the visit on Bob’s laptop');

    await couch.stop();
    bob.records.view('visits').remove(bob.accountId, visit.id);
    ann.records
      .view('visits')
      .put({ ...visit, site: null, notes: 'Edited offline', updatedAt: Date.now() + 1 });
    await ann.replica.settled();
    await bob.replica.settled();
    await couch.start();

    const conflictOf = async (laptop: Laptop) =>
      (await laptop.replica.conflicts()).find((c) => c.recordId === visit.id);
    await until(async () => (await conflictOf(ann)) !== undefined, 'the conflict on Ann’s laptop');
    await until(async () => (await conflictOf(bob)) !== undefined, 'the conflict on Bob’s laptop');
    const onBob = (await conflictOf(bob))!;
    expect(onBob.type).toBe('deleted');
    expect(
      onBob.versions
        .map((v) => ({ deleted: v.deleted, by: v.changedBy }))
        .sort((a, b) => a.by.localeCompare(b.by)),
    ).toEqual([
      { deleted: false, by: 'Ann Field' },
      { deleted: true, by: 'Bob Meter' },
    ]);
    // Not silently back on Bob's laptop; still there, edited, on Ann's.
    expect(visits(bob).map((v) => v.id)).not.toContain(visit.id);
    expect(visits(ann).find((v) => v.id === visit.id)?.notes).toBe('Edited offline');

    // Bob keeps the deletion: gone on both, no conflict left.
    await bob.replica.resolve(onBob.id, null);
    await until(() => !visits(ann).some((v) => v.id === visit.id), 'the visit gone from Ann’s laptop');
    await until(async () => (await conflictOf(ann)) === undefined, 'no conflict left on Ann’s laptop');
    expect(await conflictOf(bob)).toBeUndefined();
  }, 120_000);

  it('conflicting edits of one calibrator are shown on both with both versions, and resolved once for both', async () => {
    const ann = await open('ann');
    const bob = await open('bob');
    const calibrator = ann.records.view('calibrators').save({
      model: 'CR:515',
      serial: '054433',
      class: '1',
      levelsDb: [94, 114],
      certificateDate: '2026-01-10',
      dueDate: '2027-01-10',
    })!;
    await until(
      () => bob.records.view('calibrators').get(calibrator.id) !== null,
      'the calibrator on Bob’s laptop',
    );

    await couch.stop();
    ann.records.view('calibrators').save({ ...calibrator, dueDate: '2027-02-01' });
    bob.records.view('calibrators').save({ ...calibrator, dueDate: '2027-03-01' });
    await ann.replica.settled();
    await bob.replica.settled();
    await couch.start();

    const conflictOn = async (laptop: Laptop) =>
      (await laptop.replica.conflicts()).find((c) => c.recordId === calibrator.id);
    await until(
      async () => (await conflictOn(ann)) !== undefined && (await conflictOn(bob)) !== undefined,
      'the conflict on both',
    );
    for (const laptop of [ann, bob]) {
      const conflict = (await conflictOn(laptop))!;
      expect(conflict.type).toBe('edited');
      expect(conflict.versions.map((v) => [v.changedBy, v.record?.['dueDate']]).sort()).toEqual([
        ['Ann Field', '2027-02-01'],
        ['Bob Meter', '2027-03-01'],
      ]);
    }
    // Both laptops show the same version meanwhile (CouchDB's winner), not each its own.
    expect(ann.records.view('calibrators').get(calibrator.id)?.dueDate).toBe(
      bob.records.view('calibrators').get(calibrator.id)?.dueDate,
    );

    const onAnn = (await conflictOn(ann))!;
    const annVersion = onAnn.versions.find((v) => v.changedBy === 'Ann Field')!;
    await ann.replica.resolve(onAnn.id, annVersion.rev);
    await until(
      () => bob.records.view('calibrators').get(calibrator.id)?.dueDate === '2027-02-01',
      'Ann’s choice on Bob’s laptop',
    );
    await until(async () => (await conflictOn(bob)) === undefined, 'no conflict left on Bob’s laptop');
    expect(await conflictOn(ann)).toBeUndefined();
    expect(ann.records.view('calibrators').get(calibrator.id)?.dueDate).toBe('2027-02-01');
  }, 120_000);

  it('a laptop following one site never receives another site’s records', async () => {
    const ann = await open('ann');
    const north = ann.records
      .view('sites')
      .save(ann.accountId, { name: 'North', timeZone: 'UTC', serials: [] })!;
    const south = ann.records
      .view('sites')
      .save(ann.accountId, { name: 'South', timeZone: 'UTC', serials: [] })!;
    ann.records.view('visits').put(visitAt(ann, { id: south.id, name: 'South' }, 'South visit'));
    await until(
      () => ann.replica.state().phase === 'upToDate' && ann.replica.state().waiting === 0,
      'Ann sent all',
    );

    const bob = await open('bob', { follow: [north.id] });
    await until(() => sites(bob).some((s) => s.id === north.id), 'North on Bob’s laptop');
    await until(() => bob.replica.state().phase === 'upToDate', 'Bob up to date');
    expect(sites(bob).map((s) => s.name)).toEqual(['North']);
    expect(visits(bob)).toEqual([]);
  }, 120_000);

  it('a laptop whose team folder was lost takes the team’s records again without a conflict for each', async () => {
    const ann = await open('ann');
    const bob = await open('bob');
    const site = ann.records
      .view('sites')
      .save(ann.accountId, { name: 'Reservoir', timeZone: 'UTC', serials: [] })!;
    ann.records
      .view('sites')
      .save(ann.accountId, { id: site.id, name: 'Reservoir North', timeZone: 'UTC', serials: [] });
    await until(
      () => sites(bob).some((s) => s.name === 'Reservoir North'),
      'the renamed site on Bob’s laptop',
    );

    await shut(ann);
    await rm(join(ann.folder, 'team'), { recursive: true, force: true });
    const again = await open('ann', { folder: ann.folder });
    await until(() => again.replica.state().phase === 'upToDate', 'Ann up to date again');
    expect(await again.replica.conflicts()).toEqual([]);
    await bob.replica.settled();
    expect(await bob.replica.conflicts()).toEqual([]);
    expect(sites(again).map((s) => s.name)).toEqual(['Reservoir North']);
    // A site made after is sent as ever.
    const later = again.records
      .view('sites')
      .save(again.accountId, { name: 'Weir', timeZone: 'UTC', serials: [] })!;
    await until(() => sites(bob).some((s) => s.id === later.id), 'the new site on Bob’s laptop');
  }, 120_000);

  it('a record from the team that does not fit, or names a path, is left out; the ones after it still come', async () => {
    const ann = await open('ann');
    const post = (docs: object[]) =>
      fetch(`${couch.url}/${database}/_bulk_docs`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`bob:${PASSWORDS.bob}`).toString('base64')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ docs }),
      });
    const from = { changedBy: 'Someone', changedAt: Date.now() };
    await post([
      { _id: 'site:bad-site', kind: 'site', site: 'bad-site', record: { id: 'bad-site', name: 42 }, ...from },
      { _id: 'visit:../../outside', kind: 'visit', site: null, record: { id: '../../outside' }, ...from },
    ]);
    const good = ann.records
      .view('sites')
      .save('elsewhere', { name: 'Probe', timeZone: 'UTC', serials: [] })!;
    const { accountId: _elsewhere, ...record } = good;
    await post([{ _id: `site:${good.id}`, kind: 'site', site: good.id, record, ...from }]);
    await until(() => sites(ann).some((s) => s.id === good.id), 'the good site after the bad ones');
    expect(sites(ann).map((s) => s.id)).not.toContain('bad-site');
    expect(
      ann.records
        .view('rows')
        .all('assessment_sites')
        .map((row) => row['id']),
    ).not.toContain('bad-site');
    expect(ann.records.view('rows').all('site_visits')).toEqual([]);
  }, 60_000);

  it('a checklist template changed on one laptop is the template on the other; the last engineer stays each one’s own', async () => {
    const ann = await open('ann');
    const bob = await open('bob', { follow: [] });
    ann.records
      .view('visits')
      .setTemplate('Noise', ['Windshield intact', 'Mast secure', 'Battery above 12 V']);
    ann.records.view('visits').setLastEngineer('Ann Field');
    await until(
      () => bob.records.view('visits').templates()['Noise'].includes('Mast secure'),
      'the template on Bob’s laptop (following no site)',
    );
    expect(bob.records.view('visits').templates()['Noise']).toEqual([
      'Windshield intact',
      'Mast secure',
      'Battery above 12 V',
    ]);
    expect(bob.records.view('visits').lastEngineer()).toBe('');
  }, 60_000);

  it('a wrong password and a name that is not a member each get their own message', async () => {
    const ann = await open('ann', { connect: false });
    await expect(ann.replica.connect(server('ann', 'not-the-password'))).rejects.toThrow(
      /refused the name "ann" with this password/,
    );
    expect(ann.replica.state()).toMatchObject({ phase: 'refused' });
    await couch.user('carol', 'carol-pw');
    await expect(
      ann.replica.connect({ url: couch.url, database, username: 'carol', password: 'carol-pw' }),
    ).rejects.toThrow(/"carol" is not a member of the team's database "team-\d+"/);
    expect(ann.replica.state().refusal).toMatch(/not a member/);
  }, 60_000);
});
