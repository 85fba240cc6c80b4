/**
 * A stand-in for the `electron` module, preloaded (`node --import`) into a child `node` that runs
 * the built main bundle (`out/main/index.js`): the Electron binary cannot be downloaded on our
 * machines, so this is how the ~240 lines of Electron glue run at all in the tests. It records
 * what the bundle asks of Electron (window options, protocols, IPC handlers, session handlers,
 * notifications, quitting) and, told by the parent test over Node's IPC channel, plays the parts
 * Electron would: a request from a window, a navigation, a protocol request, the user quitting.
 *
 * FIELDDESK_STAND_IN_SKIP_HANDLER names a channel whose ipcMain handler it drops, so a test can
 * show that a missing handler is noticed.
 */
import Module from 'node:module';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const userData = process.env.FIELDDESK_USER_DATA_DIR;
const skippedHandler = process.env.FIELDDESK_STAND_IN_SKIP_HANDLER ?? '';

const record = {
  sandboxEnabled: false,
  privilegedSchemes: [],
  protocolSchemes: [],
  handlers: new Map(),
  removedHandlers: [],
  windowOptions: null,
  loadedUrl: null,
  permissionHandlers: {},
  notifications: [],
  sentToWindow: [],
  quit: 0,
};

const app = new EventEmitter();
Object.assign(app, {
  isPackaged: false,
  enableSandbox: () => (record.sandboxEnabled = true),
  requestSingleInstanceLock: () => true,
  whenReady: () => Promise.resolve(),
  getVersion: () => '0.0.0-stand-in',
  setPath: () => undefined,
  getPath: (name) => (name === 'userData' ? userData : join(tmpdir(), `fielddesk-stand-in-${name}`)),
  exit: (code) => process.exit(code),
  quit: () => {
    let prevented = false;
    app.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    record.quit += 1;
    // Electron would end the process now; here the parent hears of it, and the process must then
    // end by itself: anything the backend left open (a timer, a server, a file) keeps it alive.
    process.send?.({ type: 'quit', removedHandlers: record.removedHandlers });
    process.disconnect?.();
  },
});

let webContentsIds = 0;
class WebContents extends EventEmitter {
  constructor() {
    super();
    this.id = ++webContentsIds;
    this.mainFrame = { url: 'app://fielddesk/index.html' };
    this.windowOpenHandler = null;
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  send(channel, payload) {
    record.sentToWindow.push({ channel, payload });
  }
}

const windows = [];
class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    record.windowOptions = options;
    this.webContents = new WebContents();
    windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows() {
    return windows;
  }
  loadURL(url) {
    record.loadedUrl = url;
    process.send?.({
      type: 'ready',
      handlers: [...record.handlers.keys()],
      windowOptions: record.windowOptions,
      loadedUrl: url,
      sandboxEnabled: record.sandboxEnabled,
      privilegedSchemes: record.privilegedSchemes,
      protocolSchemes: record.protocolSchemes,
    });
    return Promise.resolve();
  }
  isFocused() {
    // In the background, as when a notification is due.
    return false;
  }
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
  show() {}
  focus() {}
  restore() {}
}

const protocolHandlers = new Map();
const electron = {
  app,
  BrowserWindow,
  ipcMain: {
    handle: (channel, handler) => {
      if (channel.endsWith(`:${skippedHandler}`) && skippedHandler !== '') return;
      record.handlers.set(channel, handler);
    },
    removeHandler: (channel) => {
      record.handlers.delete(channel);
      record.removedHandlers.push(channel);
    },
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes) => record.privilegedSchemes.push(...schemes),
    handle: (scheme, handler) => {
      record.protocolSchemes.push(scheme);
      protocolHandlers.set(scheme, handler);
    },
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (handler) => (record.permissionHandlers.request = handler),
      setPermissionCheckHandler: (handler) => (record.permissionHandlers.check = handler),
      setDevicePermissionHandler: (handler) => (record.permissionHandlers.device = handler),
    },
  },
  net: { fetch: (input, init) => fetch(input, init) },
  dialog: {
    showSaveDialog: async () => ({ canceled: true }),
    showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  },
  shell: { showItemInFolder: () => undefined, openPath: async () => '' },
  Notification: class extends EventEmitter {
    static isSupported() {
      return true;
    }
    constructor(options) {
      super();
      this.options = options;
    }
    show() {
      record.notifications.push(this.options);
    }
  },
};

const load = Module._load;
Module._load = function loadWithStandIn(request, parent, isMain) {
  if (request === 'electron') return electron;
  return load.call(this, request, parent, isMain);
};

/** A request from a window's main frame: ours, or a page at another address. */
function invokeEvent(sender) {
  const window = windows[0];
  if (sender === 'ours') return { sender: window.webContents, senderFrame: window.webContents.mainFrame };
  return { sender: window.webContents, senderFrame: { url: 'https://elsewhere.example/' } };
}

const OPERATIONS = {
  async invoke({ channel, arg, sender }) {
    const handler = record.handlers.get(channel);
    if (handler === undefined) return { missing: true };
    return { answer: await handler(invokeEvent(sender), arg) };
  },
  async protocol({ scheme, url }) {
    const response = await protocolHandlers.get(scheme)(new Request(url));
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      bytes: (await response.arrayBuffer()).byteLength,
    };
  },
  async navigate({ url, event: name }) {
    let prevented = false;
    windows[0].webContents.emit(name, { preventDefault: () => (prevented = true) }, url);
    return { prevented };
  },
  async openWindow({ url }) {
    return { decision: windows[0].webContents.windowOpenHandler({ url }) };
  },
  async permission({ permission }) {
    let granted = null;
    record.permissionHandlers.request(windows[0].webContents, permission, (answer) => (granted = answer));
    return {
      granted,
      checked: record.permissionHandlers.check(),
      device: record.permissionHandlers.device(),
    };
  },
  async notifications() {
    return { notifications: record.notifications, sentToWindow: record.sentToWindow.map((s) => s.channel) };
  },
  async quit() {
    app.quit();
    return {};
  },
};

process.on('message', async (message) => {
  try {
    const answer = await OPERATIONS[message.op](message);
    if (message.op !== 'quit') process.send({ type: 'answer', id: message.id, ...answer });
  } catch (error) {
    process.send({ type: 'answer', id: message.id, error: String(error?.stack ?? error) });
  }
});
