/**
 * Which shell the renderer runs in — the desktop app or the browser harness — as the backend says
 * (`app.getInfo`): asked once, since it cannot change while the page lives. What the two offer
 * differs (the system's dialogs, the audio scheme), never how a screen looks.
 */
import { defineStore } from 'pinia';
import { useApi } from '../../api-injection';

export type AppShell = 'electron' | 'harness';

export const useShellStore = defineStore('shell', () => {
  const api = useApi();
  let shell: Promise<AppShell> | null = null;

  function which(): Promise<AppShell> {
    shell ??= api.app.getInfo().then((info) => info.shell);
    return shell;
  }

  return {
    which,
    /** Whether the system's own dialogs are there (the desktop app). */
    isDesktop: async () => (await which()) === 'electron',
  };
});
