/**
 * FieldDesk's own settings in `<dataDir>/settings.json`, a JSON file store (see
 * core/json-file-store.ts): a file that cannot be used is moved aside and the defaults apply; a
 * setting that cannot be used falls back to its default on its own, so one bad value does not lose
 * the others. Either way the user is warned, and the defaults stay unconfirmed — the next
 * calibration asks for them to be confirmed — until the user confirms or changes them.
 */
import { z } from 'zod';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  CALIBRATION_TOLERANCE_MAX_DB,
  CALIBRATION_TOLERANCE_MIN_DB,
  DEFAULT_SETTINGS,
  type Settings,
  type SettingsState,
} from '../../../shared/operations';
import { openJsonFile } from '../core/json-file-store';

export const SETTINGS_FILE_NAME = 'settings.json';
const FILE_VERSION = 1;

const fileSchema = z.object({
  /** Set when the settings had to be reset: the user has not yet confirmed the defaults. */
  unconfirmed: z.boolean().optional().catch(true),
  // Each setting is checked on its own below, so one bad value does not lose the others.
  settings: z.record(z.string(), z.unknown()),
});

/** Each setting: whether a saved value is usable, and how the warning names it. */
const SETTING_RULES: {
  [K in keyof Settings]: { valid(value: unknown): value is Settings[K]; name: string };
} = {
  calibrationReferenceDb: {
    valid: (v): v is Settings['calibrationReferenceDb'] =>
      typeof v === 'number' && (CALIBRATION_REFERENCE_LEVELS_DB as readonly number[]).includes(v),
    name: 'calibrator reference level',
  },
  calibrationToleranceDb: {
    valid: (v): v is number =>
      typeof v === 'number' && v >= CALIBRATION_TOLERANCE_MIN_DB && v <= CALIBRATION_TOLERANCE_MAX_DB,
    name: 'calibration pass tolerance',
  },
};

/** The saved settings with each unusable value replaced by its default, and which were replaced. */
function readSettings(saved: Record<string, unknown>): { settings: Settings; replaced: string[] } {
  const replaced: string[] = [];
  const pick = <K extends keyof Settings>(key: K): Settings[K] => {
    const value = saved[key];
    if (SETTING_RULES[key].valid(value)) return value;
    if (value !== undefined) replaced.push(SETTING_RULES[key].name);
    return DEFAULT_SETTINGS[key];
  };
  return {
    settings: {
      calibrationReferenceDb: pick('calibrationReferenceDb'),
      calibrationToleranceDb: pick('calibrationToleranceDb'),
    },
    replaced,
  };
}

export interface SettingsStore {
  /** Why the saved settings could not be used, in plain words; `null` when all was well. */
  readonly warning: string | null;
  get(): Settings;
  state(): SettingsState;
  /** Applies a validated change (which confirms it) and saves; resolves once written. */
  update(change: Partial<Settings>): Promise<SettingsState>;
  /** The user accepts the calibration settings as they are. */
  confirm(): Promise<SettingsState>;
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
  const read = readSettings(file.loaded?.settings ?? {});
  let settings: Settings = read.settings;
  const warning =
    file.warning ??
    (read.replaced.length === 0
      ? null
      : `Your saved ${read.replaced.join(' and ')} could not be used, so the default applies: ` +
        `${DEFAULT_SETTINGS.calibrationReferenceDb.toFixed(1)} dB reference, ±${DEFAULT_SETTINGS.calibrationToleranceDb.toFixed(1)} dB tolerance.`);
  // Once saved settings could not be used, the defaults stay unconfirmed — across restarts too,
  // so the file is written at once with the mark.
  let unconfirmed = warning !== null || file.loaded?.unconfirmed === true;
  const save = () =>
    file.save(unconfirmed ? { unconfirmed, settings: { ...settings } } : { settings: { ...settings } });
  if (warning !== null) await save().catch(() => undefined);
  const state = (): SettingsState => ({
    settings: { ...settings },
    notice: unconfirmed ? warning : null,
    needsConfirmation: unconfirmed,
  });

  return {
    warning,
    get: () => ({ ...settings }),
    state,
    async update(change) {
      settings = {
        calibrationReferenceDb: change.calibrationReferenceDb ?? settings.calibrationReferenceDb,
        calibrationToleranceDb: change.calibrationToleranceDb ?? settings.calibrationToleranceDb,
      };
      unconfirmed = false;
      await save();
      return state();
    },
    async confirm() {
      unconfirmed = false;
      await save();
      return state();
    },
    flush: () => file.flush(),
  };
}
