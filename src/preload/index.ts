/**
 * The sandboxed preload: exposes `window.fielddesk` with named methods only, built from the
 * channel list. Never exposes `ipcRenderer` itself, and strips the IPC event object from
 * listener calls so the renderer cannot reach `event.sender`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildFacade, IPC_EVENT_PREFIX, IPC_REQUEST_PREFIX } from '../shared/ipc/channels';

const bridge = buildFacade<Record<string, Record<string, unknown>>>(
  (channel, arg) => ipcRenderer.invoke(`${IPC_REQUEST_PREFIX}${channel}`, arg),
  (channel, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(`${IPC_EVENT_PREFIX}${channel}`, forward);
    return () => {
      ipcRenderer.removeListener(`${IPC_EVENT_PREFIX}${channel}`, forward);
    };
  },
);

contextBridge.exposeInMainWorld('fielddesk', bridge);
