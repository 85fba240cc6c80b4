/**
 * The team's CouchDB server as the user names it: an https address (plain http only on this
 * computer's loopback, for a local test server), a database per team, and the engineer's own name
 * and password there. Before replicating, the server is asked who the name is (`/_session`) and then
 * for the database, so a wrong password and a name that is not a member of the team's database each
 * get their own message instead of one "unauthorized".
 */
import { FieldDeskError } from '../../../shared/errors';

export interface TeamServer {
  /** The server's address, e.g. https://couch.example.com or http://127.0.0.1:5984. */
  url: string;
  /** The team's database on it. */
  database: string;
  username: string;
  password: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** CouchDB's rule for database names. */
const DATABASE_NAME = /^[a-z][a-z0-9_$()+/-]{0,237}$/;

/** The server's address without a trailing slash; throws the reason it cannot be used. */
export function checkedServerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new FieldDeskError('invalidRequest', `"${text}" is not a server address (https://…).`);
  }
  if (url.username !== '' || url.password !== '')
    throw new FieldDeskError(
      'invalidRequest',
      'Give the name and password in their own fields, not in the address, so the password goes to the keychain.',
    );
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    throw new FieldDeskError(
      'invalidRequest',
      `The team's server must be reached over https (${url.host} was given with ${url.protocol.replace(':', '')}); plain http is allowed only for a server on this computer.`,
    );
  return url.href.replace(/\/+$/, '');
}

export function checkedDatabaseName(name: string): string {
  if (!DATABASE_NAME.test(name))
    throw new FieldDeskError(
      'invalidRequest',
      `"${name}" is not a CouchDB database name: lower-case letters, digits and _$()+-/, starting with a letter.`,
    );
  return name;
}

export const basicAuth = (server: Pick<TeamServer, 'username' | 'password'>): string =>
  `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;

/** The database's address. */
export const databaseUrl = (server: Pick<TeamServer, 'url' | 'database'>): string =>
  `${server.url}/${encodeURIComponent(server.database)}`;

/**
 * Asks the server whether the name and password are right and whether the name may use the team's
 * database; throws a FieldDeskError in words for each way it is refused or cannot be reached.
 */
export async function checkTeamAccess(server: TeamServer, fetchImpl: typeof fetch = fetch): Promise<void> {
  const headers = { Authorization: basicAuth(server), Accept: 'application/json' };
  const ask = async (url: string): Promise<Response> => {
    try {
      return await fetchImpl(url, { headers, signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      throw new FieldDeskError(
        'offline',
        `The team's server at ${server.url} could not be reached (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  };
  const session = await ask(`${server.url}/_session`);
  if (session.status === 401)
    throw new FieldDeskError(
      'unauthorized',
      `The team's server refused the name "${server.username}" with this password. Check both, as your team's administrator gave them.`,
    );
  if (!session.ok)
    throw new FieldDeskError(
      'serverError',
      `The team's server at ${server.url} answered ${session.status} when asked who "${server.username}" is; is it a CouchDB server?`,
    );
  const database = await ask(databaseUrl(server));
  if (database.status === 401 || database.status === 403)
    throw new FieldDeskError(
      'forbidden',
      `"${server.username}" is not a member of the team's database "${server.database}". Ask your team's administrator to add the name to its members.`,
    );
  if (database.status === 404)
    throw new FieldDeskError(
      'notFound',
      `The team's server has no database "${server.database}". Check the name, or ask your team's administrator to create it.`,
    );
  if (!database.ok)
    throw new FieldDeskError(
      'serverError',
      `The team's server answered ${database.status} for the database "${server.database}".`,
    );
}

/**
 * The filter a laptop that follows some sites replicates through: CouchDB's design-document filter
 * (Mango selectors in `_changes` are CouchDB 2's; pouchdb-server, the local test server, has only
 * these). Tombstones keep `kind` and `site`, so a deletion reaches exactly the laptops that follow
 * its site. Only the database's administrator may add it: `installTeamDesign`.
 */
export const FOLLOWED_FILTER = 'fielddesk/followed';
export const TEAM_DESIGN = {
  _id: '_design/fielddesk',
  filters: {
    followed:
      "function (doc, req) { var sites = String(req.query.sites || '').split(','); " +
      "return doc.kind === 'calibrator' || doc.kind === 'checklist' || (doc.site !== null && sites.indexOf(doc.site) >= 0); }",
  },
};

/** Makes (or updates) the team database's design document; needs the database administrator's name. */
export async function installTeamDesign(server: TeamServer, fetchImpl: typeof fetch = fetch): Promise<void> {
  const url = `${databaseUrl(server)}/${TEAM_DESIGN._id}`;
  const headers = { Authorization: basicAuth(server), 'Content-Type': 'application/json' };
  const existing = await fetchImpl(url, { headers });
  const rev = existing.ok ? ((await existing.json()) as { _rev?: string })._rev : undefined;
  const answer = await fetchImpl(url, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ...TEAM_DESIGN, ...(rev === undefined ? {} : { _rev: rev }) }),
  });
  if (!answer.ok)
    throw new FieldDeskError(
      answer.status === 401 || answer.status === 403 ? 'forbidden' : 'serverError',
      `The team database's filter could not be installed (${answer.status}): only its administrator may.`,
    );
}
