/**
 * The Electron transport: one `ipcMain.handle` per request channel through a single wrapper
 * that checks the sender and validates the payload (via `dispatchRequest`), and forwarding of
 * backend events to our window only.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { IPC_EVENT_PREFIX, IPC_REQUEST_PREFIX, REQUEST_CHANNELS } from '../shared/ipc/channels';
import { dispatchRequest, type BackendHandlers, type Envelope } from '../shared/ipc/contract';
import type { Backend } from './backend';
import { isTrustedSender } from './security';

export function registerIpc(
  backend: Backend,
  getWindow: () => BrowserWindow | null,
  origins: readonly string[],
): () => void {
  const handlers: BackendHandlers = backend.handlers;

  const handle = async (
    event: IpcMainInvokeEvent,
    channel: string,
    arg: unknown,
  ): Promise<Envelope<unknown>> => {
    const window = getWindow();
    const frame = event.senderFrame;
    const trusted = isTrustedSender(
      {
        frameUrl: frame?.url ?? null,
        isMainFrame: frame !== null && window !== null && frame === window.webContents.mainFrame,
        isOurWindow: window !== null && event.sender.id === window.webContents.id,
      },
      origins,
    );
    if (!trusted) {
      return {
        ok: false,
        error: { code: 'forbidden', message: 'Request refused: unknown sender.', retryable: false },
      };
    }
    return dispatchRequest(handlers, channel, arg);
  };

  for (const channel of REQUEST_CHANNELS) {
    ipcMain.handle(`${IPC_REQUEST_PREFIX}${channel}`, (event, arg: unknown) => handle(event, channel, arg));
  }

  const unsubscribe = backend.subscribe((channel, payload) => {
    const window = getWindow();
    if (window && !window.isDestroyed()) window.webContents.send(`${IPC_EVENT_PREFIX}${channel}`, payload);
  });

  return () => {
    unsubscribe();
    for (const channel of REQUEST_CHANNELS) ipcMain.removeHandler(`${IPC_REQUEST_PREFIX}${channel}`);
  };
}
