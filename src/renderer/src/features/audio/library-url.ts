/**
 * Where the player reads a library file: the app's own `fielddesk-audio:` scheme in Electron, the
 * harness's `/audio-library/` path (with its token) in a browser — `audioPlayUrl` in shared/audio.ts.
 * Both serve only files in the library, with range requests so seeking works; neither reaches the
 * network. Which shell the renderer runs in is the backend's to say (features/app/shell.ts).
 */
import { audioPlayUrl } from '../../../../shared/audio';
import { harnessToken } from '../../transport/http-bridge';
import type { AppShell } from '../app/shell';

export function libraryUrlIn(shell: AppShell, key: string): string {
  return shell === 'electron'
    ? audioPlayUrl('electron', key)
    : audioPlayUrl('harness', key, { token: harnessToken(), origin: location.origin });
}
