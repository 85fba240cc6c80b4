import { execFileSync } from 'node:child_process';

/** Builds the browser renderer once per run, so the harness serves what the source says. */
export default function globalSetup(): void {
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
}
