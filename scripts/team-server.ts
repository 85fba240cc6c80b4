/**
 * A CouchDB-compatible server for trying a team's replication on one machine: pouchdb-server, in
 * memory, on loopback, with a team database "team-north" whose members are ann and bob. Two FieldDesk
 * instances (two data folders) joined to it show records moving between them. Nothing is kept when
 * it stops. A real team runs Apache CouchDB instead (README).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installTeamDesign } from '../src/main/backend/team/team-server';

const HELP = `Usage: npm run team-server -- [--port N]

Starts a CouchDB-compatible server (pouchdb-server, in memory) on http://127.0.0.1:<port>
(default 5984) with the database "team-north" and two members:
  ann / ann-password    bob / bob-password
Join it from FieldDesk with the address http://127.0.0.1:<port>. Ctrl+C stops it; nothing is kept.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? Number(args[portAt + 1]) : 5984;
if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
  console.error(`--port wants a port number (1–65535), not "${args[portAt + 1] ?? ''}".\n\n${HELP}`);
  process.exit(2);
}

const url = `http://127.0.0.1:${port}`;
const admin = { username: 'admin', password: 'admin-password' };
const folder = mkdtempSync(join(tmpdir(), 'fielddesk-team-server-'));
const server = spawn(
  process.execPath,
  [
    join(process.cwd(), 'node_modules', 'pouchdb-server', 'bin', 'pouchdb-server'),
    '--in-memory',
    '--port',
    String(port),
    '--config',
    join(folder, 'config.json'),
  ],
  { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] },
);
server.on('exit', (code) => process.exit(code ?? 0));
process.on('SIGINT', () => server.kill('SIGTERM'));

async function call(method: string, path: string, body: unknown, auth: boolean): Promise<void> {
  const authorization = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: authorization } : {}) },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
}

async function main(): Promise<void> {
  for (;;) {
    const up = await fetch(`${url}/`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (up) break;
    if (server.exitCode !== null) process.exit(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await call('PUT', `/_config/admins/${admin.username}`, admin.password, false);
  await call('PUT', '/team-north', {}, true);
  for (const name of ['ann', 'bob'])
    await call(
      'PUT',
      `/_users/org.couchdb.user:${name}`,
      { name, password: `${name}-password`, roles: [], type: 'user' },
      true,
    );
  await installTeamDesign({ url, database: 'team-north', ...admin });
  await call(
    'PUT',
    '/team-north/_security',
    { admins: { names: [], roles: [] }, members: { names: ['ann', 'bob'], roles: [] } },
    true,
  );
  console.log(
    `Team server for "team-north" at ${url} (members ann / ann-password, bob / bob-password). Ctrl+C stops it.`,
  );
}

main().catch((error: unknown) => {
  console.error(
    `The team server could not be set up: ${error instanceof Error ? error.message : String(error)}`,
  );
  server.kill('SIGTERM');
  process.exitCode = 1;
});
