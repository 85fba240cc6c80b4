/**
 * FieldDesk's own settings (`settings.*`): the calibrator reference level, the pass tolerance, the
 * SIC tone tolerance and
 * the age at which cached data is refreshed, kept in settings.json (settings-store.ts).
 */
import {
  ATTENTION_THRESHOLD_KEYS,
  thresholdsConflict,
  type AttentionThresholds,
} from '../../../shared/attention';
import { FieldDeskError } from '../../../shared/errors';
import { unsavedChange } from '../core/disk-errors';
import type { HandlersOf } from '../core/handler-types';
import type { SettingsState } from '../../../shared/operations';
import type { NoticeBoard } from '../core/notices';
import type { SettingsStore } from './settings-store';

/** The id of the notice raised at start when the saved settings could not be used. */
export const SETTINGS_NOTICE_ID = 'settings-file';

export interface SettingsHandlerDeps {
  settings: SettingsStore;
  notices: NoticeBoard;
  /** The data folder the settings file is in, for messages. */
  dataDir: string;
}

export function settingsHandlers({
  settings,
  notices,
  dataDir,
}: SettingsHandlerDeps): HandlersOf<'settings'> {
  /** Confirmed settings need no more telling. */
  const settled = (state: SettingsState): SettingsState => {
    if (!state.needsConfirmation) notices.dismiss(SETTINGS_NOTICE_ID);
    return state;
  };
  return {
    'settings.get': async () => settings.state(),
    'settings.confirm': async () => settled(await saving(settings.confirm(), dataDir)),
    'settings.update': async (change) => {
      // Each limit is in range (the request's schema); the battery's two must agree too, checked
      // when the change names one of them (so no other setting's save is ever held up by them).
      const namesBattery =
        change.attentionBatteryVolts !== undefined || change.attentionBatteryUrgentVolts !== undefined;
      const conflict = namesBattery
        ? thresholdsConflict({ ...settings.get(), ...attentionChange(change) })
        : null;
      if (conflict !== null)
        throw new FieldDeskError('invalidInput', conflict.message, { field: conflict.key });
      return settled(
        await saving(
          settings.update({
            ...(change.calibrationReferenceDb === undefined
              ? {}
              : { calibrationReferenceDb: change.calibrationReferenceDb }),
            ...(change.calibrationToleranceDb === undefined
              ? {}
              : { calibrationToleranceDb: change.calibrationToleranceDb }),
            ...(change.sicToleranceDb === undefined ? {} : { sicToleranceDb: change.sicToleranceDb }),
            ...(change.refreshCachedAfterMinutes === undefined
              ? {}
              : { refreshCachedAfterMinutes: change.refreshCachedAfterMinutes }),
            ...attentionChange(change),
          }),
          dataDir,
        ),
      );
    },
  };
}

/** A settings write, with a disk failure in plain words: the change is not in effect. */
async function saving<T>(work: Promise<T>, dataDir: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw unsavedChange(error, {
      folder: dataDir,
      what: 'your settings',
      advice: 'The change is not in effect; the settings stay as they were.',
      otherwise: 'FieldDesk could not save your settings, so the change is not in effect.',
    });
  }
}

/** The attention thresholds a change names (the ones it leaves out stay as they are). */
function attentionChange(change: Partial<AttentionThresholds>): Partial<AttentionThresholds> {
  const named: Partial<AttentionThresholds> = {};
  for (const key of ATTENTION_THRESHOLD_KEYS) {
    const value = change[key];
    if (value !== undefined) named[key] = value;
  }
  return named;
}
