import { execFileSync } from 'node:child_process';

/**
 * Builds the browser renderer once per run, so the harness serves what the source says — unless
 * `npm test` has just built every bundle (it says so with FIELDDESK_E2E_BUILT=1).
 */
export default function globalSetup(): void {
  if (process.env['FIELDDESK_E2E_BUILT'] === '1') return;
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
}
