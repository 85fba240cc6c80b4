/**
 * The thin Electron entry: window, custom protocol, security handlers and wiring of the
 * backend (plain Node, in ./backend) to the IPC transport. Product logic lives in the backend.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { app, BrowserWindow, dialog, net, Notification, protocol, session, shell } from 'electron';
import { createBackend, type Backend } from './backend';
import type { ExportKind } from '../shared/export-names';
import { createKeyVault } from './backend/accounts/vault';
import { startDemoService } from '../simulator';
import { AUDIO_SCHEME, libraryKeyOfAudioUrl } from '../shared/audio';
import { FieldDeskError } from '../shared/errors';
import { registerIpc } from './ipc';
import { createBackgroundNotifier } from './notifications';
import {
  APP_ORIGIN,
  APP_SCHEME,
  AUDIO_SCHEME_PRIVILEGES,
  RENDERER_CSP,
  contentTypeFor,
  isAllowedNavigation,
  resolveAppPath,
  trustedOrigins,
} from './security';

// An empty address is no address (a shell that sets the variable to nothing loads the built pages).
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'] || undefined;
const origins = trustedOrigins(devServerUrl);
const rendererDir = resolve(join(__dirname, '../renderer'));

/** The save dialog's title and file type for each kind of export. */
const EXPORT_DIALOGS: Record<ExportKind, { title: string; filter: { name: string; extensions: string[] } }> =
  {
    csv: { title: 'Export data', filter: { name: 'CSV (comma-separated values)', extensions: ['csv'] } },
    png: { title: 'Save chart', filter: { name: 'PNG image', extensions: ['png'] } },
    pdf: { title: 'Save report', filter: { name: 'PDF document', extensions: ['pdf'] } },
    xlsx: { title: 'Save report tables', filter: { name: 'Excel workbook', extensions: ['xlsx'] } },
    zip: { title: 'Save diagnostics', filter: { name: 'Zip archive', extensions: ['zip'] } },
    site: {
      title: 'Save the site as one file',
      filter: { name: 'FieldDesk site', extensions: ['fielddesk-site'] },
    },
  };

let mainWindow: BrowserWindow | null = null;
let backend: Backend | null = null;
let unregisterIpc: (() => void) | null = null;

// Must run before `ready`: the scheme behaves like https (secure context, real origin).
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false },
  },
  // Library recordings: streamed with ranges so <audio> can seek (security.ts).
  { scheme: AUDIO_SCHEME, privileges: AUDIO_SCHEME_PRIVILEGES },
]);
app.enableSandbox();

// Tests of the packaged window start FieldDesk with a throwaway data folder.
const userDataOverride = process.env['FIELDDESK_USER_DATA_DIR'];
if (userDataOverride) app.setPath('userData', userDataOverride);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.whenReady().then(start, (error: unknown) => {
    console.error('FieldDesk could not start:', error instanceof Error ? error.message : error);
    app.exit(1);
  });
}

async function start(): Promise<void> {
  protocol.handle(APP_SCHEME, serveRendererFile);
  // Only files in the audio library, by key; the backend answers (ranges, 404 for anything else).
  protocol.handle(AUDIO_SCHEME, (request) =>
    backend === null
      ? Promise.resolve(new Response('Not found', { status: 404 }))
      : backend.audioFile(libraryKeyOfAudioUrl(request.url) ?? '', request),
  );
  hardenSession();

  const vault = createKeyVault({ serviceName: 'FieldDesk' });
  // Load the keychain connection now: a broken one is said at start-up, not at the first saved key.
  const vaultStatus = await vault.check();
  if (vaultStatus.reason !== null) console.error(`FieldDesk: ${vaultStatus.reason}`);
  backend = await createBackend({
    dataDir: app.getPath('userData'),
    vault,
    // net.fetch goes through Chromium's network stack, so the system proxy settings apply.
    fetch: (input, init) => net.fetch(input instanceof URL ? input.toString() : input, init),
    appInfo: { version: app.getVersion(), shell: 'electron' },
    // Exports go where the user says, through the system's save dialog.
    chooseExportPath: async (suggestedName, kind) => {
      const options = {
        title: EXPORT_DIALOGS[kind].title,
        defaultPath: join(app.getPath('documents'), suggestedName),
        filters: [EXPORT_DIALOGS[kind].filter],
      };
      const choice = mainWindow
        ? await dialog.showSaveDialog(mainWindow, options)
        : await dialog.showSaveDialog(options);
      return choice.canceled || !choice.filePath ? null : choice.filePath;
    },
    // Recordings go where people look for what they downloaded, not into the hidden data folder.
    audioFolder: join(app.getPath('downloads'), 'FieldDesk'),
    chooseAudioFolder: async (current) => {
      const options = {
        title: 'Save recordings in',
        defaultPath: current,
        properties: ['openDirectory', 'createDirectory', 'promptToCreate'] as Array<
          'openDirectory' | 'createDirectory' | 'promptToCreate'
        >,
      };
      const choice = mainWindow
        ? await dialog.showOpenDialog(mainWindow, options)
        : await dialog.showOpenDialog(options);
      return choice.canceled ? null : (choice.filePaths[0] ?? null);
    },
    // Photos are read by the main process from where the user chose them (visits/chosen-photos.ts).
    choosePhotoFiles: async () => {
      const options = {
        title: 'Add photos to the visit',
        defaultPath: app.getPath('pictures'),
        filters: [{ name: 'Photos', extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp'] }],
        properties: ['openFile', 'multiSelections'] as Array<'openFile' | 'multiSelections'>,
      };
      const choice = mainWindow
        ? await dialog.showOpenDialog(mainWindow, options)
        : await dialog.showOpenDialog(options);
      return choice.canceled ? null : choice.filePaths;
    },
    revealInFileManager: async (path, kind) => {
      if (kind === 'file') return shell.showItemInFolder(path);
      const problem = await shell.openPath(path);
      if (problem !== '')
        throw new FieldDeskError('internal', `FieldDesk could not open ${path}: ${problem}`);
    },
    startDemo: async () => {
      // Webhooks may also point at a receiver on this computer (plain http), for trying one out.
      const demo = await startDemoService({ port: 0, allowLoopbackWebhooks: true });
      if (demo.defaultKey === null) throw new Error('The demo service started without a key.');
      return { baseUrl: demo.baseUrl, apiKey: demo.defaultKey, close: demo.close };
    },
  });
  // A failure no code awaited (inside a library) is logged, never left to end the app.
  process.on('unhandledRejection', (reason) =>
    backend?.log.error('a failure that nothing was waiting for', { error: reason }),
  );
  unregisterIpc = registerIpc(backend, () => mainWindow, origins);
  const notifyInBackground = createBackgroundNotifier(
    () => mainWindow?.isFocused() ?? false,
    (notice) => {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title: notice.title, body: notice.body, silent: false });
      notification.on('click', () => {
        mainWindow?.show();
        mainWindow?.focus();
      });
      notification.show();
    },
  );
  backend.subscribe(notifyInBackground);
  createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

function createWindow(): void {
  mainWindow = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'FieldDesk',
    backgroundColor: '#ffffff',
    autoHideMenuBar: true,
    icon: join(__dirname, '../../resources/icon.png'),
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click (auxclick) could otherwise open links in new windows.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  void mainWindow.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
}

async function serveRendererFile(request: Request): Promise<Response> {
  const relative = resolveAppPath(request.url);
  if (relative === null) return new Response('Not found', { status: 404 });
  const absolute = resolve(rendererDir, relative);
  // resolveAppPath refuses `..`; this is the belt to its braces.
  if (!absolute.startsWith(rendererDir + sep)) return new Response('Not found', { status: 404 });
  try {
    const body = await readFile(absolute);
    return new Response(body, {
      headers: {
        'Content-Type': contentTypeFor(relative),
        'Content-Security-Policy': RENDERER_CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

function hardenSession(): void {
  const defaultSession = session.defaultSession;
  // FieldDesk needs no camera, microphone, geolocation, notifications-by-web-API, etc.
  defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  defaultSession.setPermissionCheckHandler(() => false);
  defaultSession.setDevicePermissionHandler(() => false);
}

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, origins)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url, origins)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || backend === null) return;
  // Close the backend (and the demo service) before exiting, once.
  event.preventDefault();
  quitting = true;
  unregisterIpc?.();
  void backend.close().finally(() => app.quit());
});
