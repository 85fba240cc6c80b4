/**
 * The engineer's calibrator register (`calibrators.*`), kept in the user's records (records.db,
 * backed up and restored with them; calibrator-store.ts). Not tied to an account: a calibrator is
 * the engineer's, whatever service the instrument is on.
 */
import { FieldDeskError } from '../../../shared/errors';
import type { HandlersOf } from '../core/handler-types';
import type { CalibratorStore } from './calibrator-store';

export interface CalibratorHandlerDeps {
  calibrators: CalibratorStore;
}

export const CALIBRATOR_MESSAGES = {
  notFound: 'That calibrator is no longer in the register. It may have been removed in another window.',
} as const;

export function calibratorHandlers({ calibrators }: CalibratorHandlerDeps): HandlersOf<'calibrators'> {
  const found = <T>(value: T | null | false): T => {
    if (value === null || value === false) throw new FieldDeskError('notFound', CALIBRATOR_MESSAGES.notFound);
    return value;
  };
  return {
    'calibrators.list': async () => calibrators.list(),
    'calibrators.save': async (change) => found(calibrators.save(change)),
    'calibrators.retire': async ({ id, retired }) => found(calibrators.setRetired(id, retired)),
    'calibrators.remove': async ({ id }) => {
      found(calibrators.remove(id));
      return { id };
    },
  };
}
