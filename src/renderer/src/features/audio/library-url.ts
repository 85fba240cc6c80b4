/**
 * Where the player reads a library file: the app's own `fielddesk-audio:` scheme in Electron, the
 * harness's `/audio-library/` path (with its token) in a browser — `audioPlayUrl` in shared/audio.ts.
 * Both serve only files in the library, with range requests so seeking works; neither reaches the
 * network.
 */
import { audioPlayUrl } from '../../../../shared/audio';
import { api } from '../../api';
import { harnessToken } from '../../transport/http-bridge';

let shell: Promise<'electron' | 'harness'> | null = null;

/** Which shell the renderer runs in (asked once: it cannot change while the page lives). */
export function appShell(): Promise<'electron' | 'harness'> {
  shell ??= api.app.getInfo().then((info) => info.shell);
  return shell;
}

export async function libraryUrl(key: string): Promise<string> {
  const where = await appShell();
  return where === 'electron'
    ? audioPlayUrl('electron', key)
    : audioPlayUrl('harness', key, { token: harnessToken(), origin: location.origin });
}
