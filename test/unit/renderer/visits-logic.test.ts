/** Which actions a visit links (by instrument and time, at the edges), and what its lists say. */
import { describe, expect, it } from 'vitest';
import { actionDuringVisit, summariseVisit, visitKind, type SiteVisit } from '../../../src/shared/visits';
import { visitFindingsText, visitTitleText } from '../../../src/renderer/src/features/visits/logic';

const ARRIVED = Date.UTC(2026, 10, 27, 9, 0);
const visit: SiteVisit = {
  id: 'v1',
  accountId: 'a',
  site: null,
  instruments: [{ serial: 'QT1', name: 'North gate', model: 'CR:900', type: 'Noise' }],
  engineer: 'Asha Patel',
  arrivedAt: ARRIVED,
  leftAt: ARRIVED + 3_600_000,
  checklist: [
    { id: 'c1', serial: 'QT1', label: 'State on arrival', state: 'ok', note: '' },
    { id: 'c2', serial: 'QT1', label: 'Mast and cables', state: 'issue', note: 'Guy rope slack' },
    { id: 'c3', serial: 'QT1', label: 'Calibration after', state: null, note: '' },
  ],
  notes: '',
  photos: [],
  createdAt: ARRIVED,
  updatedAt: ARRIVED,
};

describe('the actions a visit links', () => {
  it('are those on its instruments started from arrival to departure, both included', () => {
    const at = (startedAt: number, serial = 'QT1') => actionDuringVisit(visit, { serial, startedAt }, 0);
    expect(at(ARRIVED - 1)).toBe(false);
    expect(at(ARRIVED)).toBe(true);
    expect(at(ARRIVED + 3_600_000)).toBe(true);
    expect(at(ARRIVED + 3_600_001)).toBe(false);
    expect(at(ARRIVED + 60_000, 'QT2')).toBe(false);
  });

  it('of an open visit run up to now', () => {
    const open = { ...visit, leftAt: null };
    expect(
      actionDuringVisit(open, { serial: 'QT1', startedAt: ARRIVED + 7_200_000 }, ARRIVED + 7_200_000),
    ).toBe(true);
    expect(
      actionDuringVisit(open, { serial: 'QT1', startedAt: ARRIVED + 7_200_001 }, ARRIVED + 7_200_000),
    ).toBe(false);
  });
});

describe('what a visit says of itself', () => {
  it('counts issues and unanswered items, and names itself by site or instrument', () => {
    const summary = summariseVisit(visit);
    expect(summary).toMatchObject({ issues: 1, open: 1, photos: 0, serials: ['QT1'] });
    expect(visitFindingsText(summary)).toBe('1 issue · 1 unanswered');
    expect(visitFindingsText({ issues: 0, open: 0, photos: 2 })).toBe('All checked · 2 photos');
    expect(visitTitleText(visit)).toBe('North gate (QT1)');
    expect(visitTitleText({ ...visit, site: { id: 's', name: 'Mill Lane' } })).toBe('Mill Lane');
  });

  it('takes the checklist of the instrument kind its type names', () => {
    expect(visitKind('Noise')).toBe('Noise');
    expect(visitKind('AirQuality')).toBe('AirQuality');
    expect(visitKind('vibration')).toBe('Vibration');
  });
});
