import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  APP_ORIGIN,
  AUDIO_SCHEME_PRIVILEGES,
  RENDERER_CSP,
  isAllowedNavigation,
  isTrustedSender,
  resolveAppPath,
  trustedOrigins,
} from '../../../src/main/security';

const origins = trustedOrigins(undefined);
const ours = { frameUrl: `${APP_ORIGIN}/index.html#/instruments`, isMainFrame: true, isOurWindow: true };

describe('IPC sender check', () => {
  it('accepts only our window, main frame, our origin', () => {
    expect(isTrustedSender(ours, origins)).toBe(true);
    expect(isTrustedSender({ ...ours, isMainFrame: false }, origins)).toBe(false);
    expect(isTrustedSender({ ...ours, isOurWindow: false }, origins)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: null }, origins)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'https://evil.example/app' }, origins)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'file:///tmp/index.html' }, origins)).toBe(false);
    expect(isTrustedSender({ ...ours, frameUrl: 'not a url' }, origins)).toBe(false);
  });

  it('trusts the dev server origin only when one is configured', () => {
    const dev = { ...ours, frameUrl: 'http://localhost:5173/index.html' };
    expect(isTrustedSender(dev, origins)).toBe(false);
    expect(isTrustedSender(dev, trustedOrigins('http://localhost:5173/'))).toBe(true);
  });
});

describe('app:// file resolution', () => {
  it('maps the root and nested assets inside the renderer folder', () => {
    expect(resolveAppPath(`${APP_ORIGIN}/`)).toBe('index.html');
    expect(resolveAppPath(`${APP_ORIGIN}/assets/index-abc.js`)).toBe('assets/index-abc.js');
  });

  it('refuses traversal, other hosts and other schemes', () => {
    // URL parsing collapses encoded dot segments, so this stays inside the renderer folder.
    expect(resolveAppPath(`${APP_ORIGIN}/%2e%2e/%2e%2e/etc/passwd`)).toBe('etc/passwd');
    expect(resolveAppPath(`${APP_ORIGIN}/assets/..%5c..%5csecret`)).toBeNull();
    expect(resolveAppPath('app://other/index.html')).toBeNull();
    expect(resolveAppPath('file:///etc/passwd')).toBeNull();
    expect(resolveAppPath(`${APP_ORIGIN}/%E0%A4%A`)).toBeNull();
  });

  it('never yields a path that climbs out of the folder, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('..', '.', 'a', '%2e%2e', '%2F', 'b.js', '', '\\'), { maxLength: 8 }),
        (parts) => {
          const resolved = resolveAppPath(`${APP_ORIGIN}/${parts.join('/')}`);
          if (resolved === null) return true;
          return !resolved.split('/').some((segment) => segment === '..' || segment === '.');
        },
      ),
    );
  });
});

describe('navigation and CSP', () => {
  it('blocks navigation to any other origin', () => {
    expect(isAllowedNavigation(`${APP_ORIGIN}/index.html`, origins)).toBe(true);
    expect(isAllowedNavigation('https://api.mycirrus.cloud/v1', origins)).toBe(false);
    expect(isAllowedNavigation('javascript:alert(1)', origins)).toBe(false);
  });

  it('allows no inline script, eval, remote connection or plugin', () => {
    expect(RENDERER_CSP).toContain("default-src 'none'");
    expect(RENDERER_CSP).toContain("script-src 'self'");
    // Connections only to the audio library's own scheme (the player reads a file's bytes).
    expect(RENDERER_CSP).toContain('connect-src fielddesk-audio:;');
    expect(RENDERER_CSP).not.toMatch(/connect-src[^;]*(https?:|\*|'self')/);
    expect(RENDERER_CSP).toContain("object-src 'none'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('lets media play, and be read, from the app and the audio library scheme only, which cannot bypass CSP', () => {
    const media = RENDERER_CSP.split('; ').find((d) => d.startsWith('media-src'));
    expect(media).toBe("media-src 'self' fielddesk-audio:");
    const meta = /content="([^"]+)"/.exec(readFileSync('src/renderer/index.html', 'utf8'))?.[1] ?? '';
    expect(meta).toContain('media-src fielddesk-audio:;');
    expect(meta).toContain('connect-src fielddesk-audio:;');
    expect(AUDIO_SCHEME_PRIVILEGES).toEqual({
      standard: true,
      secure: true,
      stream: true,
      supportFetchAPI: true,
      corsEnabled: false,
    });
  });
});
