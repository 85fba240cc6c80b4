/**
 * Build facts both Node bundles share (Electron's main and the stand-alone harness), so the harness
 * built for tests loads its dependencies exactly as the app's main process does.
 */

/** ESM-only dependencies are bundled into the CommonJS bundles; native and CommonJS ones stay external. */
export const BUNDLED_DEPENDENCIES = [
  'ky',
  'p-limit',
  'hono',
  '@hono/node-server',
  'write-file-atomic',
  'zod',
  'filenamify',
];
