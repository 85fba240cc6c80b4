/**
 * FieldDesk's own settings in `<dataDir>/settings.json`, a JSON file store (see
 * core/json-file-store.ts): a file that cannot be used is moved aside and the defaults apply, with a
 * warning the settings view shows. A setting this version does not understand falls back to its
 * default on its own, so one bad value does not lose the others.
 */
import { z } from 'zod';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  CALIBRATION_TOLERANCE_MAX_DB,
  CALIBRATION_TOLERANCE_MIN_DB,
  DEFAULT_SETTINGS,
  type Settings,
} from '../../../shared/operations';
import { openJsonFile } from '../core/json-file-store';

export const SETTINGS_FILE_NAME = 'settings.json';
const FILE_VERSION = 1;

const fileSchema = z.object({
  settings: z.object({
    calibrationReferenceDb: z
      .number()
      .refine((v): v is Settings['calibrationReferenceDb'] =>
        (CALIBRATION_REFERENCE_LEVELS_DB as readonly number[]).includes(v),
      )
      .catch(DEFAULT_SETTINGS.calibrationReferenceDb),
    calibrationToleranceDb: z
      .number()
      .min(CALIBRATION_TOLERANCE_MIN_DB)
      .max(CALIBRATION_TOLERANCE_MAX_DB)
      .catch(DEFAULT_SETTINGS.calibrationToleranceDb),
  }),
});

export interface SettingsStore {
  /** Why the saved settings could not be used, in plain words; `null` when all was well. */
  readonly warning: string | null;
  get(): Settings;
  /** Applies a validated change and saves; resolves with the new settings once written. */
  update(change: Partial<Settings>): Promise<Settings>;
  flush(): Promise<void>;
}

export async function openSettingsStore(
  dataDir: string,
  now: () => number = Date.now,
): Promise<SettingsStore> {
  const file = await openJsonFile({
    dataDir,
    fileName: SETTINGS_FILE_NAME,
    version: FILE_VERSION,
    schema: fileSchema,
    describe: { subject: 'Your settings', fallback: 'so the defaults apply' },
    now,
  });
  let settings: Settings = { ...DEFAULT_SETTINGS, ...file.loaded?.settings };

  return {
    warning: file.warning,
    get: () => ({ ...settings }),
    async update(change) {
      settings = {
        calibrationReferenceDb: change.calibrationReferenceDb ?? settings.calibrationReferenceDb,
        calibrationToleranceDb: change.calibrationToleranceDb ?? settings.calibrationToleranceDb,
      };
      await file.save({ settings });
      return { ...settings };
    },
    flush: () => file.flush(),
  };
}
