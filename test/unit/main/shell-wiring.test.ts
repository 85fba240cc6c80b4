/**
 * The Electron shell as built (`out/main/index.js`), run in a child `node` with a stand-in for the
 * `electron` module (electron-stand-in.mjs): the Electron binary cannot be downloaded here, so this
 * is the test of the glue between Electron and the backend — every request of the contract has its
 * IPC handler, the window's security settings, the CSP and navigation guards, the custom protocols,
 * desktop notifications, and an orderly quit (handlers removed, records written, nothing left
 * running).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_REQUEST_PREFIX, REQUEST_CHANNELS } from '../../../src/shared/ipc/channels';
import { APP_ORIGIN, RENDERER_CSP } from '../../../src/main/security';
import { AUDIO_SCHEME } from '../../../src/shared/audio';

const ROOT = resolve(__dirname, '../../..');
const MAIN_BUNDLE = join(ROOT, 'out/main/index.js');
const STAND_IN = join(__dirname, 'electron-stand-in.mjs');

interface Ready {
  handlers: string[];
  windowOptions: { webPreferences: Record<string, unknown> } & Record<string, unknown>;
  loadedUrl: string;
  sandboxEnabled: boolean;
  privilegedSchemes: Array<{ scheme: string; privileges: Record<string, boolean> }>;
  protocolSchemes: string[];
}

interface Envelope {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

/** The environment without a dev server's address: the shell then loads its own built pages. */
function withoutDevServer(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ELECTRON_RENDERER_URL: _devServer, ...rest } = env;
  return rest;
}

/** The built app in a child process, and a way to ask its stand-in Electron to act. */
class Shell {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  readonly ready: Promise<Ready>;
  readonly quit: Promise<{ removedHandlers: string[] }>;
  readonly exited: Promise<number | null>;
  readonly child: ChildProcess;

  constructor(userData: string, env: Record<string, string> = {}) {
    this.child = fork(MAIN_BUNDLE, [], {
      execArgv: ['--import', pathToFileURL(STAND_IN).href],
      env: { ...withoutDevServer(process.env), FIELDDESK_USER_DATA_DIR: userData, ...env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    this.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.exited = new Promise((done) => this.child.once('exit', (code) => done(code)));
    const early = (what: string) =>
      this.exited.then((code) => {
        throw new Error(`the shell ended (${code}) before ${what}: ${stderr}`);
      });
    this.ready = Promise.race([
      new Promise<Ready>((done) =>
        this.child.on('message', (m: { type: string }) => m.type === 'ready' && done(m as unknown as Ready)),
      ),
      early('its window was loaded'),
    ]);
    this.quit = new Promise((done) =>
      this.child.on(
        'message',
        (m: { type: string }) => m.type === 'quit' && done(m as unknown as { removedHandlers: string[] }),
      ),
    );
    this.child.on('message', (m: { type: string; id?: number }) => {
      if (m.type === 'answer' && m.id !== undefined) this.waiting.get(m.id)?.(m as Record<string, unknown>);
    });
  }

  ask<T = Record<string, unknown>>(op: string, fields: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.nextId;
    return new Promise((done, fail) => {
      this.waiting.set(id, (answer) =>
        answer['error'] ? fail(new Error(String(answer['error']))) : done(answer as T),
      );
      this.child.send({ op, id, ...fields });
    });
  }

  async invoke(channel: string, arg: unknown, sender: 'ours' | 'elsewhere' = 'ours'): Promise<Envelope> {
    const { answer } = await this.ask<{ answer: Envelope }>('invoke', {
      channel: `${IPC_REQUEST_PREFIX}${channel}`,
      arg,
      sender,
    });
    return answer;
  }
}

const folders: string[] = [];
const shells: Shell[] = [];
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'fielddesk-shell-'));
  folders.push(folder);
  return folder;
};
const startShell = (userData: string, env?: Record<string, string>) => {
  const shell = new Shell(userData, env);
  shells.push(shell);
  return shell;
};

/** The channels of the contract that have no IPC handler in the shell. */
const missingHandlers = (registered: readonly string[]) =>
  REQUEST_CHANNELS.filter((channel) => !registered.includes(`${IPC_REQUEST_PREFIX}${channel}`));

let userData: string;
let shell: Shell;
let ready: Ready;

beforeAll(async () => {
  // A lone run of this file builds the bundles (`npm test` has built them already).
  if (!existsSync(MAIN_BUNDLE) || !existsSync(join(ROOT, 'out/renderer/index.html')))
    execFileSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  userData = newFolder();
  shell = startShell(userData);
  ready = await shell.ready;
});

afterAll(() => {
  for (const { child } of shells) if (child.exitCode === null) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const CALIBRATOR = {
  model: 'CR:515',
  serial: '054433',
  class: '1',
  levelsDb: [94, 114],
  certificateDate: '2026-03-01',
  dueDate: '2027-03-01',
};

describe('the Electron shell, built, on a stand-in Electron', () => {
  it('registers an IPC handler for every request of the contract, and no other', () => {
    expect(missingHandlers(ready.handlers)).toEqual([]);
    expect(ready.handlers).toHaveLength(REQUEST_CHANNELS.length);
  });

  it('notices a request left without a handler', async () => {
    const lacking = startShell(newFolder(), { FIELDDESK_STAND_IN_SKIP_HANDLER: 'visits.start' });
    expect(missingHandlers((await lacking.ready).handlers)).toEqual(['visits.start']);
    lacking.child.kill();
  });

  it('opens one window with the security settings of a modern Electron app, on its own scheme', () => {
    expect(ready.sandboxEnabled).toBe(true);
    expect(ready.windowOptions.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(existsSync(String(ready.windowOptions.webPreferences['preload']))).toBe(true);
    expect(ready.loadedUrl).toBe(`${APP_ORIGIN}/index.html`);
    const app = ready.privilegedSchemes.find((s) => s.scheme === 'app');
    expect(app?.privileges).toMatchObject({ standard: true, secure: true });
    expect(ready.protocolSchemes.sort()).toEqual(['app', AUDIO_SCHEME].sort());
  });

  it('serves the renderer with its Content-Security-Policy, and nothing outside its folder', async () => {
    const page = await shell.ask<{ status: number; headers: Record<string, string>; bytes: number }>(
      'protocol',
      {
        scheme: 'app',
        url: `${APP_ORIGIN}/index.html`,
      },
    );
    expect(page.status).toBe(200);
    expect(page.bytes).toBeGreaterThan(0);
    expect(page.headers['content-security-policy']).toBe(RENDERER_CSP);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    for (const url of [`${APP_ORIGIN}/../main/index.js`, `${APP_ORIGIN}/assets/..%5c..%5cmain%5cindex.js`])
      expect((await shell.ask<{ status: number }>('protocol', { scheme: 'app', url })).status, url).toBe(404);
    const audio = await shell.ask<{ status: number }>('protocol', {
      scheme: AUDIO_SCHEME,
      url: `${AUDIO_SCHEME}://library/not-in-the-library.flac`,
    });
    expect(audio.status).toBe(404);
  });

  it('keeps the window on its own pages: navigation, new windows, webviews and permissions refused', async () => {
    for (const event of ['will-navigate', 'will-redirect']) {
      expect((await shell.ask('navigate', { event, url: 'https://elsewhere.example/' }))['prevented']).toBe(
        true,
      );
      expect(
        (await shell.ask('navigate', { event, url: `${APP_ORIGIN}/index.html#/visits` }))['prevented'],
      ).toBe(false);
    }
    expect((await shell.ask('navigate', { event: 'will-attach-webview', url: '' }))['prevented']).toBe(true);
    expect((await shell.ask('openWindow', { url: 'https://elsewhere.example/' }))['decision']).toEqual({
      action: 'deny',
    });
    expect(await shell.ask('permission', { permission: 'media' })).toMatchObject({
      granted: false,
      checked: false,
      device: false,
    });
  });

  it('answers requests from its own window only, validated', async () => {
    const info = await shell.invoke('app.getInfo', {});
    expect(info).toMatchObject({ ok: true, value: { shell: 'electron', version: '0.0.0-stand-in' } });
    const foreign = await shell.invoke('app.getInfo', {}, 'elsewhere');
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const invalid = await shell.invoke('calibrators.save', { ...CALIBRATOR, levelsDb: [] });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('shows a desktop notification for an urgent reason while the window is in the background', async () => {
    const told = await shell.invoke('instruments.tellUrgent', {
      serial: 'QT218728',
      name: 'Sizewell C – rail siding',
      reason: 'Battery 11.3 V, below the urgent limit of 11.5 V',
    });
    expect(told).toMatchObject({ ok: true });
    const { notifications, sentToWindow } = await shell.ask<{
      notifications: Array<{ title: string; body: string }>;
      sentToWindow: string[];
    }>('notifications');
    expect(notifications).toContainEqual(
      expect.objectContaining({ title: 'Needs attention today — Sizewell C – rail siding' }),
    );
    expect(sentToWindow).toContain('fielddesk:evt:instruments.urgent');
  });

  it('quits in order: handlers removed, the backend closed, nothing left running, records kept', async () => {
    const saved = await shell.invoke('calibrators.save', CALIBRATOR);
    expect(saved).toMatchObject({ ok: true });
    const backups = () =>
      readdirSync(join(userData, 'backups')).filter((name) => name.startsWith('records-'));
    const backupsBefore = backups();
    void shell.ask('quit');
    const { removedHandlers } = await shell.quit;
    expect(missingHandlers(removedHandlers)).toEqual([]);
    // The process ends by itself once Electron would have: a timer, server or file left open by
    // the backend would keep it running (and this test waiting until its budget ends).
    expect(await shell.exited).toBe(0);
    // Closing the records takes their last backup copy, which only an orderly close does.
    expect(backups().filter((name) => !backupsBefore.includes(name))).toHaveLength(1);

    const again = startShell(userData);
    await again.ready;
    const list = await again.invoke('calibrators.list', {});
    expect(list).toMatchObject({
      ok: true,
      value: { calibrators: [expect.objectContaining({ serial: '054433' })] },
    });
    void again.ask('quit');
    expect(await again.exited).toBe(0);
  });
});
