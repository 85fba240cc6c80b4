/**
 * A real CouchDB-compatible server for the team tests: pouchdb-server (from the npm registry) in a
 * child process on loopback, its databases in a temporary folder so it can be stopped and started
 * again with what it held. An administrator is set at start; `team` makes a team's database with its
 * members and FieldDesk's filter, as a team's administrator would on Apache CouchDB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installTeamDesign } from '../../../src/main/backend/team/team-server';

const ADMIN = { name: 'admin', password: 'admin-secret' };
const BIN = join(process.cwd(), 'node_modules', 'pouchdb-server', 'bin', 'pouchdb-server');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export interface CouchServer {
  url: string;
  /** Makes a database whose members are the names given, each a user with its password. */
  team(database: string, members: Record<string, string>): Promise<void>;
  /** Adds a user who is not a member of any database. */
  user(name: string, password: string): Promise<void>;
  stop(): Promise<void>;
  /** Starts it again after `stop` (nothing when it is running). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startCouchServer(): Promise<CouchServer> {
  const dir = await mkdtemp(join(tmpdir(), 'fielddesk-couch-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const admin = `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64')}`;

  /** `exists`: a 409 (the user made for an earlier test) is what was wanted. */
  async function request(
    method: string,
    path: string,
    body?: unknown,
    auth = true,
    exists = false,
  ): Promise<void> {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: admin } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok && !(exists && response.status === 409))
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  }

  async function start(): Promise<void> {
    if (child !== null && child.exitCode === null) return;
    const started = spawn(
      process.execPath,
      [BIN, '--port', String(port), '--dir', dir, '--config', join(dir, 'config.json')],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Ready when it answers; it loads for some seconds on a busy machine.
    for (;;) {
      if (started.exitCode !== null) throw new Error(`pouchdb-server ended at start:\n${output}`);
      const answered = await fetch(`${url}/`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    const ended = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await ended;
  }

  await start();
  await request('PUT', `/_config/admins/${ADMIN.name}`, ADMIN.password, false);

  const user = (name: string, password: string) =>
    request(
      'PUT',
      `/_users/org.couchdb.user:${name}`,
      { name, password, roles: [], type: 'user' },
      true,
      true,
    );

  return {
    url,
    user,
    async team(database, members) {
      for (const [name, password] of Object.entries(members)) await user(name, password);
      await request('PUT', `/${database}`);
      await installTeamDesign({ url, database, username: ADMIN.name, password: ADMIN.password });
      await request('PUT', `/${database}/_security`, {
        admins: { names: [], roles: [] },
        members: { names: Object.keys(members), roles: [] },
      });
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
