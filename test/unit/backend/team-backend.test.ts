/**
 * Two FieldDesk backends (two data folders, two demo accounts: two laptops) joining one team's
 * database on a real CouchDB-compatible server (pouchdb-server on loopback): the join checks before
 * it keeps anything, a site saved on one is listed on the other, the state is pushed and said in
 * words, and a laptop that joined replicates again after a restart, its password from the keychain.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { TEAM_FILE_NAME } from '../../../src/main/backend/team/team-service';
import type { BackendHandlers } from '../../../src/shared/ipc/contract';
import { teamStateText, type TeamStatus } from '../../../src/shared/team';
import { demoBackendsWithNetwork, startDemoBackend } from './backend-helpers';
import { startCouchServer, type CouchServer } from './couch-server';

const PHOTO = join(__dirname, '../../fixtures/site-photo-mast.jpg');
let couch: CouchServer;
beforeAll(async () => {
  couch = await startCouchServer();
  await couch.team('team-north', { ann: 'ann-pw', bob: 'bob-pw' });
}, 120_000);
afterAll(async () => {
  await couch?.close();
});

const joining = (username: 'ann' | 'bob', password = `${username}-pw`) => ({
  teamName: 'Team North',
  url: couch.url,
  database: 'team-north',
  username,
  password,
  engineer: username === 'ann' ? 'Ann Field' : 'Bob Meter',
  follow: 'all' as const,
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within a minute: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const upToDate = (handlers: BackendHandlers) => async () =>
  (await handlers['team.status']({})).phase === 'upToDate';

describe('joining a team from two laptops', () => {
  it('refuses a wrong password before keeping anything, then joins and shares a site', async () => {
    const ann = await startDemoBackend();
    const bob = await startDemoBackend();
    expect(teamStateText(await ann.handlers['team.status']({}), Date.now())).toBe('Not in a team');

    await expect(ann.handlers['team.join'](joining('ann', 'wrong'))).rejects.toThrow(
      /refused the name "ann" with this password/,
    );
    expect((await ann.handlers['team.status']({})).membership).toBeNull();
    expect(existsSync(join(ann.dataDir, TEAM_FILE_NAME))).toBe(false);
    await expect(
      ann.handlers['team.join']({ ...joining('ann'), url: 'http://couch.example.com' }),
    ).rejects.toThrow(/must be reached over https/);

    const joined = await ann.handlers['team.join'](joining('ann'));
    expect(joined.membership).toMatchObject({
      teamName: 'Team North',
      username: 'ann',
      engineer: 'Ann Field',
    });
    expect(JSON.stringify(joined)).not.toContain('ann-pw');
    await bob.handlers['team.join'](joining('bob'));

    const site = await ann.handlers['assessment.saveSite']({
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: [],
    });
    await until(
      async () => (await bob.handlers['assessment.sites']({})).sites.some((s) => s.id === site.id),
      'the site on Bob’s laptop',
    );
    await until(upToDate(ann.handlers), 'Ann up to date');
    const status = await ann.handlers['team.status']({});
    expect(teamStateText(status, Date.now())).toBe('Up to date with Team North, just now');
    const pushed = ann.events.filter((e) => e.channel === 'team.changed').map((e) => e.payload as TeamStatus);
    expect(pushed.some((s) => s.phase === 'upToDate')).toBe(true);
    // Never the password in a pushed state.
    expect(JSON.stringify(pushed)).not.toContain('ann-pw');

    // Who did what: Bob renames the site; both laptops list both changes, newest first.
    await until(upToDate(bob.handlers), 'Bob up to date');
    await bob.handlers['assessment.saveSite']({
      id: site.id,
      name: 'Mill Lane East',
      timeZone: 'Europe/London',
      serials: [],
    });
    await until(
      async () => (await ann.handlers['assessment.sites']({})).sites.some((s) => s.name === 'Mill Lane East'),
      'the rename on Ann’s laptop',
    );
    for (const laptop of [ann, bob])
      expect(
        (await laptop.handlers['team.siteChanges']({ siteId: site.id })).map((c) => [
          c.change,
          c.changedBy,
          c.title,
        ]),
      ).toEqual([
        ['changed', 'Bob Meter', 'Site “Mill Lane East”'],
        ['added', 'Ann Field', 'Site “Mill Lane”'],
      ]);
  }, 120_000);

  it('sends a visit with its photo: the other laptop shows the same picture', async () => {
    const ann = await startDemoBackend();
    const bob = await startDemoBackend();
    await ann.handlers['team.join'](joining('ann'));
    await bob.handlers['team.join'](joining('bob'));
    const { entries } = await ann.handlers['instruments.list']({});
    const serial = entries[0]!.instrument.serialNumber;
    const { visit } = await ann.handlers['visits.start']({ serials: [serial], engineer: 'Ann Field' });
    const photo = (await readFile(PHOTO)).toString('base64');
    const added = await ann.handlers['visits.addPhoto']({
      visitId: visit.id,
      fileName: 'mast.jpg',
      caption: 'Mast',
      imageBase64: photo,
      reduce: false,
    });
    const photoId = added.visit.photos[0]!.id;
    await until(
      async () =>
        (await bob.handlers['visits.list']({})).visits.some((v) => v.id === visit.id && v.photos === 1),
      'the visit with its photo on Bob’s laptop',
    );
    expect(await bob.handlers['visits.photo']({ visitId: visit.id, photoId })).toBe(
      `data:image/jpeg;base64,${photo}`,
    );
    // The thumbnail Ann's laptop made, the same on Bob's.
    expect(await bob.handlers['visits.thumbnail']({ visitId: visit.id, photoId })).toBe(
      await ann.handlers['visits.thumbnail']({ visitId: visit.id, photoId }),
    );
  }, 120_000);

  it('follows only the sites chosen, lists the team’s sites from its server, and follows a site it makes', async () => {
    const ann = await startDemoBackend();
    const bob = await startDemoBackend();
    await ann.handlers['team.join'](joining('ann'));
    const north = await ann.handlers['assessment.saveSite']({ name: 'North', timeZone: 'UTC', serials: [] });
    const south = await ann.handlers['assessment.saveSite']({ name: 'South', timeZone: 'UTC', serials: [] });
    await until(upToDate(ann.handlers), 'Ann sent both');

    await bob.handlers['team.join']({ ...joining('bob'), follow: [north.id] });
    await until(upToDate(bob.handlers), 'Bob up to date');
    const listed = await bob.handlers['team.sites']({});
    expect(listed.sites.filter((s) => [north.id, south.id].includes(s.id))).toEqual([
      { id: north.id, name: 'North', followed: true },
      { id: south.id, name: 'South', followed: false },
    ]);
    expect((await bob.handlers['assessment.sites']({})).sites.map((s) => s.name)).toEqual(['North']);

    // A site Bob makes is one he follows: Ann's change to it reaches him.
    const east = await bob.handlers['assessment.saveSite']({ name: 'East', timeZone: 'UTC', serials: [] });
    await until(
      async () => ((await bob.handlers['team.status']({})).membership?.follow ?? []).includes(east.id),
      'East followed',
    );
    await until(
      async () => (await ann.handlers['assessment.sites']({})).sites.some((s) => s.id === east.id),
      'East on Ann’s laptop',
    );
    await ann.handlers['assessment.saveSite']({
      id: east.id,
      name: 'East Gate',
      timeZone: 'UTC',
      serials: [],
    });
    await until(
      async () => (await bob.handlers['assessment.sites']({})).sites.some((s) => s.name === 'East Gate'),
      'Ann’s rename on Bob’s laptop',
    );

    // Following South from now brings its records.
    await bob.handlers['team.follow']({ follow: [north.id, east.id, south.id] });
    await until(
      async () => (await bob.handlers['assessment.sites']({})).sites.some((s) => s.id === south.id),
      'South on Bob’s laptop',
    );
  }, 120_000);

  const network = demoBackendsWithNetwork();

  it('replicates again after a restart, with the password from the keychain, and leaving stops it', async () => {
    const vault = createMemoryVault('one vault across the restart, as the keychain is');
    const first = await network.open({ overrides: { vault } });
    await first.handlers['team.join'](joining('ann'));
    await network.close(first.backend);

    const again = await network.open({ addDemo: false, overrides: { vault } });
    await until(upToDate(again.handlers), 'up to date after the restart');
    const bob = await startDemoBackend();
    await bob.handlers['team.join'](joining('bob'));
    const site = await bob.handlers['assessment.saveSite']({ name: 'Quarry', timeZone: 'UTC', serials: [] });
    await until(
      async () => (await again.handlers['assessment.sites']({})).sites.some((s) => s.id === site.id),
      'Bob’s site after the restart',
    );

    const left = await again.handlers['team.leave']({});
    expect(left.membership).toBeNull();
    expect(await vault.get('team-server')).toBeNull();
    // The records stay on the laptop.
    expect((await again.handlers['assessment.sites']({})).sites.map((s) => s.id)).toContain(site.id);
  }, 120_000);
});
