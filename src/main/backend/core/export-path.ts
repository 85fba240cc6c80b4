/**
 * Where an export goes (data CSVs, chart images, reports): the user's choice through the app's
 * save dialog, injected; without a dialog (the browser harness, tests) the data folder's `exports`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportKind } from '../../../shared/export-names';

/** Where to save an export of `kind` (the user's choice in the app); null when they cancel. */
export type ChooseExportPath = (suggestedName: string, kind: ExportKind) => Promise<string | null>;

/** Without a dialog (the browser harness, tests): the `exports` folder of the data folder. */
export function exportsFolder(dataDir: string): ChooseExportPath {
  return async (suggestedName) => {
    const folder = join(dataDir, 'exports');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    return join(folder, suggestedName);
  };
}
