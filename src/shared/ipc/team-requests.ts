/** The requests of a team's shared records (see docs/team.md). */
import { z } from 'zod';
import {
  SITE_FILE_MAX_BYTES,
  type SiteImportPreview,
  type SiteImportResult,
  type TeamChange,
  type TeamSites,
  type TeamConflict,
  type TeamStatus,
} from '../team';
import { base64TextSchema, noArgs, request } from './request-spec';

const text = (what: string, max: number) =>
  z
    .string({ error: `Give ${what}.` })
    .trim()
    .min(1, `Give ${what}.`)
    .max(max, `Keep ${what} to ${max} characters or fewer.`);

const followSchema = z.union([
  z.literal('all'),
  z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown site.'))
    .max(5_000, 'Follow at most 5,000 sites.'),
]);

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
    follow: followSchema.default('all'),
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
  /** The team's sites from its server, each with whether this laptop follows it. */
  'team.sites': request<TeamSites>()(noArgs),
  /** Follows every site of the team, or only those given (the records of others stop coming). */
  'team.follow': request<TeamStatus>()(z.object({ follow: followSchema }).strict()),
  /** Who changed a site's records and when, newest first (the site and its visits). */
  'team.siteChanges': request<TeamChange[]>()(
    z.object({ siteId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown site.') }).strict(),
  ),
  /** Writes the site, its visits with their photos and the calibrators they named as one file. */
  'team.exportSite': request<
    { saved: false } | { saved: true; path: string; fileName: string; bytes: number }
  >()(z.object({ siteId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown site.') }).strict()),
  /** Reads a site file and says what importing it would add or change; writes nothing. */
  'team.previewSite': request<SiteImportPreview>()(
    z
      .object({
        fileName: z.string().max(500),
        data: base64TextSchema(Math.ceil(SITE_FILE_MAX_BYTES / 3) * 4, {
          tooLarge: `A site file may be at most ${SITE_FILE_MAX_BYTES / 1024 / 1024} MB.`,
          notBase64: 'The site file did not arrive whole; choose it again.',
        }),
      })
      .strict(),
  ),
  /** Imports the file previewed; records changed here since are kept unless `takeTheFiles`. */
  'team.importSite': request<SiteImportResult>()(
    z.object({ token: z.string().uuid('Choose the site file again.'), takeTheFiles: z.boolean() }).strict(),
  ),
  'team.resolve': request<TeamConflict[]>()(
    z.object({ id: z.string().min(3).max(200), keepRev: z.string().min(3).max(200).nullable() }).strict(),
  ),
};
