/**
 * The report's cover, conclusion and measurement positions are kept with the site: a site saved
 * before them reads with them empty (never dropped as unreadable), what was saved is kept through
 * later changes that leave it out, and the save request and the store itself say clearly what is
 * wrong (too long, a height of 1e9 m or NaN). The report holds to the same span limit as the
 * assessment.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  type SiteCover,
  type SitePositions,
} from '../../../src/shared/assessment';
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

const COVER: SiteCover = {
  client: 'Thames Water',
  project: 'Mogden',
  reference: 'AC-114/R01',
  author: 'J. Smith',
  company: 'Acme Acoustics Ltd',
  approver: 'A. Patel',
  revision: 'R01',
  status: 'draft',
};
const POSITIONS: SitePositions = {
  instruments: { QT1: { description: 'Rear garden of No. 14', height: 1.5, kind: 'freeField' } },
  weather: 'Site office roof',
};

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
    expect(store.get('acc', 'old')!.cover).toEqual({
      client: '',
      project: '',
      reference: '',
      author: '',
      company: '',
      approver: '',
      revision: '',
      status: '',
    });
    expect(store.get('acc', 'old')!.conclusion).toBe('');
    expect(store.get('acc', 'old')!.positions).toEqual({ instruments: {}, weather: '' });

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

  it('reads a cover stored with only the first four fields, filling the others empty', () => {
    const db = database();
    const site = {
      id: 'four',
      accountId: 'acc',
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT1'],
      rules: DEFAULT_EXCLUSION_RULES,
      exclusions: [],
      limits: {},
      settings: DEFAULT_ASSESSMENT_SETTINGS,
      cover: { client: 'Thames Water', project: 'Mogden', reference: 'AC-114', author: 'J. Smith' },
      createdAt: 1,
      updatedAt: 1,
    };
    db.prepare('INSERT INTO assessment_sites VALUES (?, ?, ?, ?)').run(
      'acc',
      'four',
      1,
      JSON.stringify(site),
    );
    const read = createSiteStore(db, () => 2).get('acc', 'four')!;
    expect(read.cover).toEqual({ ...EMPTY_SITE_COVER, ...site.cover });
    expect(read.cover.status).toBe('');
  });

  it('keeps the conclusion and positions, only for the site’s own instruments, through changes', () => {
    const store = createSiteStore(database(), () => 2);
    const created = store.save('acc', {
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT1', 'QT2'],
      conclusion: '  The night limit was met.\nNo action is needed.  ',
      positions: {
        instruments: {
          ...POSITIONS.instruments,
          QT2: { description: 'Façade of No. 16', height: null, kind: 'facade' },
        },
        weather: POSITIONS.weather,
      },
    })!;
    // Kept as typed, trimmed; several lines allowed.
    expect(created.conclusion).toBe('The night limit was met.\nNo action is needed.');
    expect(created.positions.instruments['QT2']).toEqual({
      description: 'Façade of No. 16',
      height: null,
      kind: 'facade',
    });
    // A change that leaves them out keeps them; an instrument taken off the site takes its position along.
    const changed = store.save('acc', {
      id: created.id,
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['QT1'],
    })!;
    expect(changed.conclusion).toBe(created.conclusion);
    expect(changed.positions).toEqual(POSITIONS);
    // An empty conclusion is kept empty: the report then drafts one.
    expect(
      store.save('acc', {
        id: created.id,
        name: 'Mill Lane',
        timeZone: 'Europe/London',
        serials: ['QT1'],
        conclusion: '',
      })!.conclusion,
    ).toBe('');
  });

  it('refuses in the store what the request would refuse, with the same message', () => {
    const store = createSiteStore(database(), () => 2);
    const base = { name: 'Mill Lane', timeZone: 'Europe/London', serials: ['QT1'] };
    const position = (height: number) => ({
      instruments: { QT1: { description: 'Garden', height, kind: 'freeField' as const } },
      weather: '',
    });
    expect(() => store.save('acc', { ...base, positions: position(1e9) })).toThrow(
      'The height must be between 0 and 100 m above ground.',
    );
    expect(() => store.save('acc', { ...base, positions: position(Number.NaN) })).toThrow(
      'The height must be a number of metres.',
    );
    expect(() => store.save('acc', { ...base, conclusion: 'x'.repeat(6001) })).toThrow(
      'Keep the conclusion to 6000 characters or fewer.',
    );
    expect(() => store.save('acc', { ...base, cover: { ...COVER, approver: 'x'.repeat(121) } })).toThrow(
      'Keep the approver to 120 characters or fewer.',
    );
    expect(store.list('acc').sites).toEqual([]);
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
    expect(message({ company: 'x'.repeat(121) })).toBe('Keep the company to 120 characters or fewer.');
    expect(message({ revision: 'R01\tR02' })).toBe('Keep the revision on one line.');
    expect(message({ status: 'approved' })).toBe('Choose the status: draft, for comment or final.');
    // Trimmed as kept.
    const parsed = siteSaveSchema.parse({ ...base, cover: { ...COVER, author: '  J. Smith  ' } });
    expect(parsed.cover!.author).toBe('J. Smith');
  });

  it('says what is wrong with a conclusion or a measurement position', () => {
    const base = { name: 'Mill Lane', timeZone: 'Europe/London', serials: ['QT930998'] };
    const message = (change: Record<string, unknown>) => {
      const parsed = siteSaveSchema.safeParse({ ...base, ...change });
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    const positions = (over: Record<string, unknown>, weather = '') => ({
      positions: {
        instruments: { QT930998: { description: 'Garden', height: 1.5, kind: 'freeField', ...over } },
        weather,
      },
    });
    expect(message({ conclusion: 'Met.\nNo action.', ...positions({}) })).toBeNull();
    expect(message(positions({ height: null, kind: 'unstated', description: '' }))).toBeNull();
    expect(message({ conclusion: 'x'.repeat(6001) })).toBe(
      'Keep the conclusion to 6000 characters or fewer.',
    );
    expect(message(positions({ height: 1e9 }))).toBe('The height must be between 0 and 100 m above ground.');
    expect(message(positions({ height: -1 }))).toBe('The height must be between 0 and 100 m above ground.');
    expect(message(positions({ height: Number.NaN }))).toBe('The height must be a number of metres.');
    expect(message(positions({ height: Number.POSITIVE_INFINITY }))).toBe(
      'The height must be a number of metres.',
    );
    expect(message(positions({ height: '1.5' }))).toBe('The height must be a number of metres.');
    expect(message(positions({ kind: 'roof' }))).toBe('Choose free-field, façade or not stated.');
    expect(message(positions({ description: 'x'.repeat(121) }))).toBe(
      'Keep the position description to 120 characters or fewer.',
    );
    expect(message(positions({}, 'Roof\nmast'))).toBe('Keep the weather sensor’s place on one line.');
    // The height is kept as given (0 m is a height, not "not stated").
    const parsed = siteSaveSchema.parse({ ...base, ...positions({ height: 0 }) });
    expect(parsed.positions!.instruments['QT930998']!.height).toBe(0);
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
