/// <reference types="vite/client" />
import type { FieldDeskBridge } from '../../shared/ipc/contract';

declare global {
  interface Window {
    /** Provided by the Electron preload, or by `installHttpBridge` in the browser build. */
    fielddesk: FieldDeskBridge;
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

export {};
