/** Assessment sites in a real SQLite file: kept whole, changed in part, and one damaged row never hides the others. */
import { describe, expect, it } from 'vitest';
import { createSiteStore } from '../../../src/main/backend/assessment/site-store';
import { DEFAULT_EXCLUSION_RULES, DEFAULT_LIMITS } from '../../../src/shared/assessment';
import { useTempDatabaseFolder } from './temp-database';

const folder = useTempDatabaseFolder();

describe('the site store', () => {
  it('creates a site with the defaults, changes only what is given, and keeps it across a reopen', () => {
    let clock = 1_000;
    const store = createSiteStore(folder.openRecords().db, () => clock);
    const created = store.save('acc', {
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['A1', 'A1', 'B2'],
    });
    expect(created).toMatchObject({
      accountId: 'acc',
      serials: ['A1', 'B2'],
      rules: DEFAULT_EXCLUSION_RULES,
      limits: DEFAULT_LIMITS,
      exclusions: [],
      createdAt: 1_000,
    });
    clock = 2_000;
    const changed = store.save('acc', {
      id: created!.id,
      name: 'Mill Lane (north)',
      timeZone: 'Europe/London',
      serials: ['A1'],
      limits: { 'LAeq,night': 45 },
    });
    expect(changed).toMatchObject({
      name: 'Mill Lane (north)',
      limits: { 'LAeq,night': 45 },
      rules: DEFAULT_EXCLUSION_RULES,
    });
    expect(changed!.updatedAt).toBe(2_000);
    expect(store.save('acc', { id: 'nope', name: 'X', timeZone: 'UTC', serials: ['A1'] })).toBeNull();
    // Another account sees none of it.
    expect(store.list('other').sites).toEqual([]);
    folder.closeAll();
    const reopened = createSiteStore(folder.openRecords().db, () => clock);
    expect(reopened.get('acc', created!.id)).toEqual(changed);
  });

  it('leaves a damaged site out and counts it, keeping the others', () => {
    const database = folder.openRecords();
    const store = createSiteStore(database.db, () => 1);
    store.save('acc', { name: 'Good', timeZone: 'UTC', serials: ['A1'] });
    database.db
      .prepare('INSERT INTO assessment_sites (account_id, id, updated_at, site_json) VALUES (?, ?, ?, ?)')
      .run('acc', 'broken', 1, '{"id": "broken", "name": 7');
    database.db
      .prepare('INSERT INTO assessment_sites (account_id, id, updated_at, site_json) VALUES (?, ?, ?, ?)')
      .run('acc', 'odd', 1, JSON.stringify({ id: 'odd', name: 'Odd' }));
    const { sites, unreadable } = store.list('acc');
    expect(sites.map((s) => s.name)).toEqual(['Good']);
    expect(unreadable).toBe(2);
    expect(store.get('acc', 'broken')).toBeNull();
  });

  it('reads a site stored before the wind-reading option as excluding time without a wind reading', () => {
    const database = folder.openRecords();
    const store = createSiteStore(database.db, () => 1);
    const saved = store.save('acc', { name: 'Old', timeZone: 'UTC', serials: ['A1'] })!;
    // As an earlier version wrote it: the rules without `windUnknown`.
    const { windUnknown: _dropped, ...oldRules } = saved.rules;
    database.db
      .prepare('UPDATE assessment_sites SET site_json = ? WHERE id = ?')
      .run(JSON.stringify({ ...saved, rules: oldRules }), saved.id);
    expect(store.get('acc', saved.id)!.rules.windUnknown).toBe('exclude');
    const calm = store.save('acc', { ...saved, rules: { ...saved.rules, windUnknown: 'calm' } })!;
    expect(store.get('acc', calm.id)!.rules.windUnknown).toBe('calm');
  });

  it('reads a site stored before the coverage rule with the 75 % minimum, and keeps a site’s own', () => {
    const database = folder.openRecords();
    const store = createSiteStore(database.db, () => 1);
    const saved = store.save('acc', { name: 'Old', timeZone: 'UTC', serials: ['A1'] })!;
    // As an earlier version wrote it: the settings without `minimumCoverage`.
    const { minimumCoverage: _dropped, ...oldSettings } = saved.settings;
    database.db
      .prepare('UPDATE assessment_sites SET site_json = ? WHERE id = ?')
      .run(JSON.stringify({ ...saved, settings: oldSettings }), saved.id);
    expect(store.get('acc', saved.id)!.settings.minimumCoverage).toBe(0.75);
    const strict = store.save('acc', { ...saved, settings: { ...saved.settings, minimumCoverage: 0.9 } })!;
    expect(store.get('acc', strict.id)!.settings.minimumCoverage).toBe(0.9);
  });
});
