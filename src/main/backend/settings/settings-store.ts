/**
 * FieldDesk's own settings in `<dataDir>/settings.json`, validated on load and written atomically.
 * A damaged file is moved aside (never overwritten) and the defaults apply, with a warning.
 * A setting this version does not understand falls back to its default on its own, so one bad
 * value does not lose the others.
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  CALIBRATION_TOLERANCE_MAX_DB,
  CALIBRATION_TOLERANCE_MIN_DB,
  DEFAULT_SETTINGS,
  type Settings,
} from '../../../shared/operations';

export const SETTINGS_FILE_NAME = 'settings.json';
const FILE_VERSION = 1;

const fileSchema = z.object({
  version: z.literal(FILE_VERSION),
  settings: z.object({
    calibrationReferenceDb: z
      .number()
      .refine((v) => (CALIBRATION_REFERENCE_LEVELS_DB as readonly number[]).includes(v))
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

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

export async function openSettingsStore(
  dataDir: string,
  now: () => number = Date.now,
): Promise<SettingsStore> {
  const path = join(dataDir, SETTINGS_FILE_NAME);
  await mkdir(dataDir, { recursive: true });
  let settings: Settings = { ...DEFAULT_SETTINGS };
  let warning: string | null = null;
  let canSave = true;

  let text: string | null = null;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') {
      canSave = false;
      warning = `FieldDesk could not read its settings file ${path}, so it uses the defaults this session.`;
    }
  }
  if (text !== null) {
    let parsed: z.output<typeof fileSchema> | null = null;
    try {
      const result = fileSchema.safeParse(JSON.parse(text));
      if (result.success) parsed = result.data;
    } catch {
      parsed = null;
    }
    if (parsed !== null) {
      settings = {
        calibrationReferenceDb: parsed.settings.calibrationReferenceDb as Settings['calibrationReferenceDb'],
        calibrationToleranceDb: parsed.settings.calibrationToleranceDb,
      };
    } else {
      const asideName = `${SETTINGS_FILE_NAME}.corrupt-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`;
      try {
        await rename(path, join(dataDir, asideName));
        warning = `FieldDesk's settings file was damaged, so the defaults apply. The old file was kept as ${asideName}.`;
      } catch {
        canSave = false;
        warning = `FieldDesk's settings file ${path} is damaged and could not be moved aside; the defaults apply this session.`;
      }
    }
  }

  let saving: Promise<void> = Promise.resolve();
  function save(): Promise<void> {
    if (!canSave) return Promise.resolve();
    const body = `${JSON.stringify({ version: FILE_VERSION, settings }, null, 2)}\n`;
    // One write after another so an older value never lands after a newer one.
    const next = saving.catch(() => undefined).then(() => writeFileAtomic(path, body, { mode: 0o600 }));
    saving = next;
    return next;
  }

  return {
    get warning() {
      return warning;
    },
    get: () => ({ ...settings }),
    async update(change) {
      settings = {
        calibrationReferenceDb: change.calibrationReferenceDb ?? settings.calibrationReferenceDb,
        calibrationToleranceDb: change.calibrationToleranceDb ?? settings.calibrationToleranceDb,
      };
      await save();
      return { ...settings };
    },
    flush: () => saving.catch(() => undefined),
  };
}
