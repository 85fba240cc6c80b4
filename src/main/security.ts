/**
 * Security policy of the desktop shell, as pure functions so they are tested in Node
 * (the Electron binary cannot run on our build machines).
 */

import { AUDIO_SCHEME, PLAYER_STYLE_HASH } from '../shared/audio';

/** The renderer is served from this privileged custom scheme, giving it a real origin. */
export const APP_SCHEME = 'app';

/**
 * Library recordings play from `fielddesk-audio://library/<key>` (answered by the backend, only for
 * keys in the library): a standard, secure scheme whose responses may stream, so `<audio>` can seek
 * with range requests. Not readable by fetch, no CORS, and CSP applies to it like any other.
 */
export const AUDIO_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  stream: true,
  // The player draws the waveform and spectrogram from the file's bytes (wavesurfer.js fetches
  // them); the scheme serves only library files by key, which the media element reads anyway.
  supportFetchAPI: true,
  corsEnabled: false,
} as const;
export const APP_HOST = 'fielddesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Content-Security-Policy sent with every renderer response. The renderer makes no network
 * requests at all: everything goes through the preload facade to the main process. Media plays,
 * and is read for its waveform, only from the app and from the audio library's own scheme.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${PLAYER_STYLE_HASH}`,
  "img-src 'self' data:",
  "font-src 'self'",
  // The library's scheme only: the waveform and spectrogram are drawn from its files.
  `connect-src ${AUDIO_SCHEME}:`,
  `media-src 'self' ${AUDIO_SCHEME}:`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export interface SenderInfo {
  /** URL of the frame that sent the IPC message (null when it navigated away or was destroyed). */
  frameUrl: string | null;
  /** Whether that frame is the top frame of its page (no iframes may talk to the backend). */
  isMainFrame: boolean;
  /** Whether the sending web contents belong to our own main window. */
  isOurWindow: boolean;
}

/**
 * `scheme://host[:port]` of a URL. Computed by hand because WHATWG URL reports `null` as the
 * origin of non-special schemes such as `app:`, which Electron treats as a standard scheme.
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.host === '') return null;
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/** Origins the renderer may legitimately be loaded from: ours, or the dev server in development. */
export function trustedOrigins(devServerUrl: string | undefined): string[] {
  const origins = [APP_ORIGIN];
  const devOrigin = devServerUrl ? originOf(devServerUrl) : null;
  if (devOrigin !== null) origins.push(devOrigin);
  return origins;
}

/** An IPC message is served only from our window's main frame, loaded from a trusted origin. */
export function isTrustedSender(sender: SenderInfo, origins: readonly string[]): boolean {
  if (!sender.isOurWindow || !sender.isMainFrame || sender.frameUrl === null) return false;
  const origin = originOf(sender.frameUrl);
  return origin !== null && origins.includes(origin);
}

/**
 * Maps an `app://fielddesk/<path>` request onto a file inside the renderer folder, refusing
 * anything that would escape it. Returns the relative path, or null to answer 404.
 */
export function resolveAppPath(requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname === '/' || pathname === '') return 'index.html';
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (
    segments.some(
      (segment) => segment === '..' || segment === '.' || segment.includes('\\') || segment.includes('\0'),
    )
  ) {
    return null;
  }
  return segments.join('/');
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
  ico: 'image/x-icon',
};

export function contentTypeFor(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** Every navigation away from the app, and every new window, is refused. */
export function isAllowedNavigation(targetUrl: string, origins: readonly string[]): boolean {
  const origin = originOf(targetUrl);
  return origin !== null && origins.includes(origin);
}
