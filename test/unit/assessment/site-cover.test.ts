/**
 * The report's cover is kept with the site: a site saved before it had one reads with an empty
 * cover (never dropped as unreadable), a saved cover is kept through later changes that leave it
 * out, and the save and report requests say clearly what is wrong. The report holds to the same
 * span limit as the assessment.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ASSESSMENT_SETTINGS, DEFAULT_EXCLUSION_RULES } from '../../../src/shared/assessment';
import {
  ASSESSMENT_MAX_SPAN_MS,
  ASSESSMENT_REQUESTS,
  siteSaveSchema,
} from '../../../src/shared/ipc/assessment-requests';
import { createSiteStore } from '../../../src/main/backend/assessment/site-store';

function database() {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE assessment_sites (
    account_id TEXT NOT NULL, id TEXT NOT NULL, updated_at INTEGER NOT NULL, site_json TEXT NOT NULL,
    PRIMARY KEY (account_id, id))`);
  return db;
}

const COVER = { client: 'Thames Water', project: 'Mogden', reference: 'AC-114/R01', author: 'J. Smith' };

describe('site cover', () => {
  it('reads a site stored before the cover with an empty one, and keeps a cover through changes', () => {
    const db = database();
    const old = {
      id: 'old',
      accountId: 'acc',
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT1'],
      rules: DEFAULT_EXCLUSION_RULES,
      exclusions: [],
      limits: {},
      settings: DEFAULT_ASSESSMENT_SETTINGS,
      createdAt: 1,
      updatedAt: 1,
    };
    db.prepare('INSERT INTO assessment_sites VALUES (?, ?, ?, ?)').run('acc', 'old', 1, JSON.stringify(old));
    const store = createSiteStore(db, () => 2);
    expect(store.list('acc')).toMatchObject({ unreadable: 0, sites: [{ id: 'old' }] });
    expect(store.get('acc', 'old')!.cover).toEqual({ client: '', project: '', reference: '', author: '' });

    const saved = store.save('acc', {
      id: 'old',
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT1'],
      cover: COVER,
    });
    expect(saved!.cover).toEqual(COVER);
    // A change that leaves the cover out keeps it.
    store.save('acc', { id: 'old', name: 'Mill Lane 2', timeZone: 'Europe/London', serials: ['QT1'] });
    expect(store.get('acc', 'old')!.cover).toEqual(COVER);
  });

  it('says what is wrong with a cover field', () => {
    const base = { name: 'Mill Lane', timeZone: 'Europe/London', serials: ['QT930998'] };
    const message = (cover: Record<string, string>) => {
      const parsed = siteSaveSchema.safeParse({ ...base, cover: { ...COVER, ...cover } });
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    expect(message({})).toBeNull();
    expect(message({ client: 'x'.repeat(121) })).toBe('Keep the client to 120 characters or fewer.');
    expect(message({ reference: 'AC-114\nR01' })).toBe('Keep the reference on one line.');
    // Trimmed as kept.
    const parsed = siteSaveSchema.parse({ ...base, cover: { ...COVER, author: '  J. Smith  ' } });
    expect(parsed.cover!.author).toBe('J. Smith');
  });

  it('holds a report to the assessment span limit', () => {
    const schema = ASSESSMENT_REQUESTS['assessment.report'].arg;
    const start = Date.UTC(2026, 0, 1);
    const request = (end: number) => ({ siteId: 'site-1', start, end, format: 'pdf' });
    expect(schema.safeParse(request(start + ASSESSMENT_MAX_SPAN_MS)).success).toBe(true);
    const tooLong = schema.safeParse(request(start + ASSESSMENT_MAX_SPAN_MS + 1));
    expect(tooLong.success).toBe(false);
    expect(tooLong.error!.issues[0]!.message).toBe('Assess at most a year at a time.');
  });
});
