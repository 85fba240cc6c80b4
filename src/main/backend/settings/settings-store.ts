/**
 * FieldDesk's own settings in `<dataDir>/settings.json`, a JSON file store (see
 * core/json-file-store.ts): a file that cannot be used is moved aside and the defaults apply; a
 * setting that cannot be used falls back to its default on its own, so one bad value does not lose
 * the others. Either way the user is warned, naming what was replaced and the default it got. When
 * calibration settings were replaced (the whole file, or one of them), they stay unconfirmed — the
 * next calibration asks for them to be confirmed — until the user confirms or changes them; another
 * setting replaced alone (the refresh age of cached data) is only told.
 */
import { z } from 'zod';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  CALIBRATION_SETTINGS,
  CALIBRATION_TOLERANCE_MAX_DB,
  CALIBRATION_TOLERANCE_MIN_DB,
  DEFAULT_SETTINGS,
  REFRESH_CACHED_MAX_MINUTES,
  REFRESH_CACHED_MIN_MINUTES,
  SIC_TOLERANCE_MAX_DB,
  SIC_TOLERANCE_MIN_DB,
  type Settings,
  type SettingsState,
} from '../../../shared/operations';
import {
  ATTENTION_THRESHOLD_KEYS,
  ATTENTION_THRESHOLD_RULES,
  thresholdsConflict,
  urgentBatteryFor,
  isValidThreshold,
  type AttentionThresholdKey,
  type AttentionThresholds,
} from '../../../shared/attention';
import { openJsonFile } from '../core/json-file-store';
import type { Logger } from '../core/log';

export const SETTINGS_FILE_NAME = 'settings.json';
const FILE_VERSION = 1;

const fileSchema = z.object({
  /** Set when the calibration settings had to be reset: the user has not yet confirmed the defaults. */
  unconfirmed: z.boolean().optional().catch(true),
  // Each setting is checked on its own below, so one bad value does not lose the others.
  settings: z.record(z.string(), z.unknown()),
});

/** Each setting: whether a saved value is usable, how the warning names it, and its default in words. */
const SETTING_RULES: {
  [K in keyof Settings]: { valid(value: unknown): value is Settings[K]; name: string; byDefault: string };
} = {
  calibrationReferenceDb: {
    valid: (v): v is Settings['calibrationReferenceDb'] =>
      typeof v === 'number' && (CALIBRATION_REFERENCE_LEVELS_DB as readonly number[]).includes(v),
    name: 'calibrator reference level',
    byDefault: `${DEFAULT_SETTINGS.calibrationReferenceDb.toFixed(1)} dB reference`,
  },
  calibrationToleranceDb: {
    valid: (v): v is number =>
      typeof v === 'number' && v >= CALIBRATION_TOLERANCE_MIN_DB && v <= CALIBRATION_TOLERANCE_MAX_DB,
    name: 'calibration pass tolerance',
    byDefault: `±${DEFAULT_SETTINGS.calibrationToleranceDb.toFixed(1)} dB tolerance`,
  },
  sicToleranceDb: {
    valid: (v): v is number =>
      typeof v === 'number' && v >= SIC_TOLERANCE_MIN_DB && v <= SIC_TOLERANCE_MAX_DB,
    name: 'SIC tone tolerance',
    byDefault: `±${DEFAULT_SETTINGS.sicToleranceDb.toFixed(1)} dB SIC tolerance`,
  },
  refreshCachedAfterMinutes: {
    valid: (v): v is number =>
      Number.isInteger(v) &&
      (v as number) >= REFRESH_CACHED_MIN_MINUTES &&
      (v as number) <= REFRESH_CACHED_MAX_MINUTES,
    name: 'refresh age of cached data',
    byDefault: `cached data refreshed once older than ${DEFAULT_SETTINGS.refreshCachedAfterMinutes} minutes`,
  },
  ...attentionRules(),
};

/** The attention thresholds' rules, from their one description (shared/attention.ts). */
function attentionRules(): {
  [K in AttentionThresholdKey]: { valid(value: unknown): value is number; name: string; byDefault: string };
} {
  return Object.fromEntries(
    ATTENTION_THRESHOLD_KEYS.map((key) => [
      key,
      {
        valid: (value: unknown): value is number => isValidThreshold(key, value),
        name: ATTENTION_THRESHOLD_RULES[key].name.replace(/^The /, ''),
        byDefault: ATTENTION_THRESHOLD_RULES[key].byDefault,
      },
    ]),
  ) as ReturnType<typeof attentionRules>;
}

const SETTING_KEYS = Object.keys(SETTING_RULES) as Array<keyof Settings>;

const isCalibrationSetting = (key: keyof Settings): boolean =>
  (CALIBRATION_SETTINGS as readonly string[]).includes(key);

/** The saved settings with each unusable value replaced by its default, and which were replaced. */
function readSettings(saved: Record<string, unknown>): {
  settings: Settings;
  replaced: Array<keyof Settings>;
} {
  const replaced: Array<keyof Settings> = [];
  const pick = <K extends keyof Settings>(key: K): Settings[K] => {
    const value = saved[key];
    if (SETTING_RULES[key].valid(value)) return value;
    // A setting the file does not have yet (saved by an earlier version) simply takes its default.
    if (value !== undefined) replaced.push(key);
    return DEFAULT_SETTINGS[key];
  };
  const settings: Settings = {
    calibrationReferenceDb: pick('calibrationReferenceDb'),
    calibrationToleranceDb: pick('calibrationToleranceDb'),
    sicToleranceDb: pick('sicToleranceDb'),
    refreshCachedAfterMinutes: pick('refreshCachedAfterMinutes'),
    ...(Object.fromEntries(
      ATTENTION_THRESHOLD_KEYS.map((key) => [key, pick(key)]),
    ) as unknown as AttentionThresholds),
  };
  // Settings saved before the urgent battery limit existed (or edited by hand) may leave it at or
  // above the battery limit the user chose: it goes with theirs, never blocks a save.
  if (thresholdsConflict(settings) !== null)
    settings.attentionBatteryUrgentVolts = urgentBatteryFor(settings.attentionBatteryVolts);
  return { settings, replaced };
}

/** "a", "a and b", "a, b and c". */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * What the user is told when saved values were replaced by their defaults, naming exactly those:
 * "Your saved calibration pass tolerance could not be used, so the default applies: ±0.5 dB tolerance."
 */
export function replacedSettingsWarning(replaced: ReadonlyArray<keyof Settings>): string | null {
  if (replaced.length === 0) return null;
  const ordered = SETTING_KEYS.filter((key) => replaced.includes(key));
  const defaults = ordered.map((key) => SETTING_RULES[key].byDefault).join(', ');
  return (
    `Your saved ${listText(ordered.map((key) => SETTING_RULES[key].name))} could not be used, ` +
    `so ${ordered.length === 1 ? 'the default applies' : 'the defaults apply'}: ${defaults}.`
  );
}

export interface SettingsStore {
  /** Why the saved settings could not be used, in plain words; `null` when all was well. */
  readonly warning: string | null;
  get(): Settings;
  state(): SettingsState;
  /**
   * Applies a validated change and saves; resolves once written. A change of a calibration setting
   * confirms the calibration settings; a change of another setting leaves them as they were.
   */
  update(change: Partial<Settings>): Promise<SettingsState>;
  /** The user accepts the calibration settings as they are. */
  confirm(): Promise<SettingsState>;
  flush(): Promise<void>;
}

export async function openSettingsStore(
  dataDir: string,
  now: () => number = Date.now,
  log?: Logger,
): Promise<SettingsStore> {
  const file = await openJsonFile({
    dataDir,
    fileName: SETTINGS_FILE_NAME,
    version: FILE_VERSION,
    schema: fileSchema,
    describe: { subject: 'Your settings', fallback: 'so the defaults apply' },
    now,
    ...(log === undefined ? {} : { log }),
  });
  const read = readSettings(file.loaded?.settings ?? {});
  let settings: Settings = read.settings;
  const warning = file.warning ?? replacedSettingsWarning(read.replaced);
  // Once saved calibration settings could not be used (a file set aside had them too, and no backup
  // copy did), their defaults stay unconfirmed — across restarts too, so the file is written at once
  // with the mark. Values restored from a backup are the user's own. A bad value of another setting
  // alone is replaced and told, and asks no calibration to wait.
  const fileLost = file.warning !== null && file.restoredFrom === null;
  const calibrationReplaced = fileLost || read.replaced.some(isCalibrationSetting);
  let unconfirmed = calibrationReplaced || file.loaded?.unconfirmed === true;
  const contentOf = (values: Settings, mark: boolean) =>
    mark ? { unconfirmed: mark, settings: { ...values } } : { settings: { ...values } };
  if (warning !== null) {
    await file.save(contentOf(settings, unconfirmed)).catch((error: unknown) => {
      // Written at the next change; the mark holds in memory this session.
      log?.warn('settings with their replaced values not written', { error });
    });
  }
  /** Writes the settings as they will be (worked out in turn), and only then puts them in effect. */
  const commit = (next: () => { values: Settings; mark: boolean }) =>
    file.change(() => {
      const { values, mark } = next();
      return {
        content: contentOf(values, mark),
        apply: () => {
          settings = values;
          unconfirmed = mark;
          return state();
        },
      };
    });
  const state = (): SettingsState => ({
    settings: { ...settings },
    notice: unconfirmed ? warning : null,
    needsConfirmation: unconfirmed,
  });

  return {
    warning,
    get: () => ({ ...settings }),
    state,
    update: (change) =>
      commit(() => ({
        values: {
          calibrationReferenceDb: change.calibrationReferenceDb ?? settings.calibrationReferenceDb,
          calibrationToleranceDb: change.calibrationToleranceDb ?? settings.calibrationToleranceDb,
          sicToleranceDb: change.sicToleranceDb ?? settings.sicToleranceDb,
          refreshCachedAfterMinutes: change.refreshCachedAfterMinutes ?? settings.refreshCachedAfterMinutes,
          ...(Object.fromEntries(
            ATTENTION_THRESHOLD_KEYS.map((key) => [key, change[key] ?? settings[key]]),
          ) as unknown as AttentionThresholds),
        },
        // Only the calibration settings' own change confirms them.
        mark: unconfirmed && !CALIBRATION_SETTINGS.some((key) => change[key] !== undefined),
      })),
    confirm: () => commit(() => ({ values: settings, mark: false })),
    flush: () => file.flush(),
  };
}
