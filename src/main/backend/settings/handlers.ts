/**
 * FieldDesk's own settings (`settings.*`): the calibrator reference level and the pass tolerance,
 * kept in settings.json (settings-store.ts).
 */
import { FieldDeskError } from '../../../shared/errors';
import type { HandlersOf } from '../core/handler-types';
import type { SettingsStore } from './settings-store';

export function settingsHandlers(settings: SettingsStore): HandlersOf<'settings'> {
  return {
    'settings.get': async () => settings.get(),
    'settings.update': async (change) => {
      try {
        return await settings.update({
          ...(change.calibrationReferenceDb === undefined
            ? {}
            : { calibrationReferenceDb: change.calibrationReferenceDb }),
          ...(change.calibrationToleranceDb === undefined
            ? {}
            : { calibrationToleranceDb: change.calibrationToleranceDb }),
        });
      } catch (error) {
        throw new FieldDeskError(
          'internal',
          'FieldDesk could not save its settings to disk. Check that there is free space and try again.',
          { cause: error },
        );
      }
    },
  };
}
