/**
 * What the team screens say: the state in words (one wording for every screen), a conflict's
 * title and summary, and only the fields the versions differ in.
 */
import { describe, expect, it } from 'vitest';
import { teamStateText, type TeamConflict, type TeamStatus } from '../../../src/shared/team';
import {
  conflictSummary,
  conflictTitle,
  differingFields,
} from '../../../src/renderer/src/features/team/logic';

const NOW = Date.UTC(2026, 10, 30, 12, 0);
const member: TeamStatus = {
  membership: {
    teamName: 'Team North',
    url: 'https://couch.example.com',
    database: 'team-north',
    username: 'ann',
    engineer: 'Ann Field',
    follow: 'all',
  },
  phase: 'upToDate',
  waiting: 0,
  syncedAt: NOW - 2 * 60_000,
  unreachableSince: null,
  refusal: null,
  conflicts: 0,
  seq: 1,
};

describe('the team’s state in words', () => {
  it('says up to date, waiting, unreachable and refused as a field engineer reads them', () => {
    expect(teamStateText(member, NOW)).toBe('Up to date with Team North, 2 min ago');
    expect(teamStateText({ ...member, phase: 'sending', waiting: 3 }, NOW)).toBe(
      '3 changes waiting to be sent to Team North',
    );
    const since = new Date(NOW - 3 * 3_600_000);
    const clock = `${String(since.getHours()).padStart(2, '0')}:${String(since.getMinutes()).padStart(2, '0')}`;
    expect(
      teamStateText({ ...member, phase: 'unreachable', waiting: 1, unreachableSince: since.getTime() }, NOW),
    ).toBe(`Server unreachable since ${clock} · 1 change waiting to be sent`);
    expect(teamStateText({ ...member, phase: 'refused', refusal: '"ann" is not a member' }, NOW)).toBe(
      '"ann" is not a member',
    );
    expect(teamStateText({ ...member, membership: null, phase: 'local' }, NOW)).toBe('Not in a team');
  });
});

describe('a conflict as the team screen shows it', () => {
  const version = (changedBy: string, record: Record<string, unknown> | null) => ({
    rev: `2-${changedBy}`,
    deleted: record === null,
    record,
    changedBy,
    changedAt: NOW,
  });
  const visit = { site: { id: 's1', name: 'Depot' }, notes: 'Mast checked', arrivedAt: NOW, updatedAt: NOW };

  it('names the record and who did what', () => {
    const deleted: TeamConflict = {
      id: 'visit:v1',
      kind: 'visit',
      recordId: 'v1',
      site: 's1',
      type: 'deleted',
      versions: [version('Ann Field', visit), version('Bob Meter', null)],
    };
    expect(conflictTitle(deleted)).toMatch(/^Visit to Depot, /);
    expect(conflictSummary(deleted)).toBe('Deleted by Bob Meter while Ann Field edited it');
    expect(differingFields(deleted.versions)).toContainEqual({
      label: 'Notes',
      values: ['Mast checked', 'Deleted'],
    });
  });

  it('lists only the fields that differ, not the times every version differs in', () => {
    const edited = [
      version('Ann Field', { ...visit, notes: 'A', updatedAt: 1 }),
      version('Bob Meter', { ...visit, notes: 'B', updatedAt: 2 }),
    ];
    expect(differingFields(edited)).toEqual([{ label: 'Notes', values: ['A', 'B'] }]);
  });
});
