/**
 * The team store keeps the newest state, pushed or answered: the answer to joining may arrive after
 * a newer state pushed as `team.changed` (up to date), and must not put the screen back to
 * "Connecting…" for good (seen in the e2e, one run in two).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../../src/shared/team';
import { createFakeBackend, fakePinia } from './fake-api';
import { useTeamStore } from '../../../src/renderer/src/features/team/store';

const backend = createFakeBackend();
const fake = backend.api;

const state = (phase: TeamStatus['phase'], seq: number): TeamStatus => ({
  membership: {
    teamName: 'Team North',
    url: 'https://couch.example.com',
    database: 'team-north',
    username: 'ann',
    engineer: 'Ann Field',
    follow: 'all',
  },
  phase,
  waiting: 0,
  syncedAt: null,
  unreachableSince: null,
  refusal: null,
  conflicts: 0,
  seq,
});

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
  fake.team.status.mockResolvedValue({ ...state('local', 1), membership: null });
  fake.team.conflicts.mockResolvedValue([]);
});

describe('the team store', () => {
  it('keeps a pushed state newer than the answer to joining that arrives after it', async () => {
    const team = useTeamStore();
    await team.load();
    let answer!: (value: TeamStatus) => void;
    fake.team.join.mockReturnValue(new Promise<TeamStatus>((resolve) => (answer = resolve)));
    const joining = team.join({
      teamName: 'Team North',
      url: 'https://couch.example.com',
      database: 'team-north',
      username: 'ann',
      password: 'pw',
      engineer: 'Ann Field',
    });
    backend.emit('team.changed', state('upToDate', 3));
    answer(state('connecting', 2));
    await joining;
    expect(team.status?.phase).toBe('upToDate');
    backend.emit('team.changed', state('unreachable', 4));
    expect(team.status?.phase).toBe('unreachable');
  });
});
