/**
 * The real desktop window, for machines where the Electron binary is installed (users' and
 * developers' laptops). Our build machines cannot download it, so there the test is skipped
 * and says why. It checks what only the real shell can: the security settings of the window.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { expect, test } from './fixtures';

const require = createRequire(__filename);

/** Where the electron package would find its binary, or why it cannot. */
function electronBinary(): { path: string } | { missing: string } {
  const packageDir = dirname(require.resolve('electron/package.json'));
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return { missing: 'the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD was set)' };
  }
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `the Electron binary is missing at ${binary}` };
}

const binary = electronBinary();
const builtMain = join('out', 'main', 'index.js');

test('the desktop window is sandboxed, isolated and shows the demo fleet', async () => {
  if ('missing' in binary) {
    console.info(`electron window test skipped: ${binary.missing}.`);
    test.skip(true, `skipped: ${binary.missing}; the window is covered by the browser tests instead`);
    return;
  }
  if (!existsSync(builtMain)) {
    test.skip(true, 'skipped: run `npm run build` first (out/main/index.js is missing)');
    return;
  }
  const userData = mkdtempSync(join(tmpdir(), 'fielddesk-electron-'));
  const app = await electron.launch({
    executablePath: binary.path,
    args: [builtMain],
    env: { ...process.env, FIELDDESK_USER_DATA_DIR: userData },
  });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle('FieldDesk');
    expect(page.url()).toBe('app://fielddesk/index.html');

    // No Node in the renderer (sandbox, no integration, isolated world); only the named facade.
    const exposed = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      namespaces: Object.keys((globalThis as unknown as { fielddesk: object }).fielddesk).sort(),
    }));
    expect(exposed.require).toBe('undefined');
    expect(exposed.process).toBe('undefined');
    expect(exposed.namespaces).toContain('instruments');
    expect(exposed.namespaces).not.toContain('invoke');

    // Navigation away from the app is refused.
    await page.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
    });
    // Refused: the page is still ours, and still answers (a navigation would have replaced it).
    await page.getByRole('button', { name: 'Try the demo' }).click();
    expect(page.url()).toMatch(/^app:\/\/fielddesk\//);
    await expect(page.getByTestId('instrument-count')).toHaveText('10 instruments');
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
