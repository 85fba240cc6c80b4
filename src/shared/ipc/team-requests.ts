/** The requests of a team's shared records (see docs/team.md). */
import { z } from 'zod';
import type { TeamConflict, TeamStatus } from '../team';
import { noArgs, request } from './request-spec';

const text = (what: string, max: number) =>
  z
    .string({ error: `Give ${what}.` })
    .trim()
    .min(1, `Give ${what}.`)
    .max(max, `Keep ${what} to ${max} characters or fewer.`);

export const teamJoinSchema = z
  .object({
    teamName: text('the team’s name', 60),
    url: text('the server’s address', 500),
    database: text('the team’s database', 238),
    username: text('your name on the server', 200),
    password: z
      .string({ error: 'Give your password on the server.' })
      .min(1, 'Give your password on the server.')
      .max(1_000),
    engineer: text('your name as colleagues see it', 80),
    follow: z.union([z.literal('all'), z.array(z.string().min(1).max(100)).max(5_000)]).default('all'),
  })
  .strict();

export const TEAM_REQUESTS = {
  /** Whether this laptop is in a team, and the replication's state. */
  'team.status': request<TeamStatus>()(noArgs),
  /**
   * Joins a team's CouchDB database: checks the name, password and membership (each refusal in its
   * own words), keeps the password in the keychain and starts replicating the active account's sites,
   * visits and calibrators.
   */
  'team.join': request<TeamStatus>()(teamJoinSchema),
  /** Stops replicating; the records stay on this laptop. */
  'team.leave': request<TeamStatus>()(noArgs),
  /** The records two laptops changed differently, each with its versions. */
  'team.conflicts': request<TeamConflict[]>()(noArgs),
  /** Keeps one version of a record in conflict (`keepRev` null: keeps its deletion). */
  'team.resolve': request<TeamConflict[]>()(
    z.object({ id: z.string().min(3).max(200), keepRev: z.string().min(3).max(200).nullable() }).strict(),
  ),
};
