/**
 * Field actions (`actions.*`): Identify, Calibration and SIC started on an instrument and watched
 * as operations until the result is in (action-operation.ts), and the local record of finished
 * actions (action-records.ts).
 */
import type { CalibratorSnapshot } from '../../../shared/calibrators';
import { sicReferences, type SicToneReference } from '../../../shared/check-verdicts';
import { FieldDeskError } from '../../../shared/errors';
import type { AccountState } from '../accounts/account-state';
import type { StoredAccount } from '../accounts/account-store';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { Logger } from '../core/log';
import type { CalibratorStore } from '../calibrators/calibrator-store';
import type { ReadThroughCache } from '../data/read-through-cache';
import { sicRecordsOf } from '../history/history-records';
import type { OperationRegistry } from '../operations/registry';
import type { SettingsStore } from '../settings/settings-store';
import type { ActionKeeper } from './action-keeper';
import { createPollingProgressSource, type PollingOptions } from './action-progress';
import { startActionOperation } from './action-operation';

export interface ActionHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  operations: OperationRegistry;
  kept: ActionKeeper;
  settings: SettingsStore;
  /** The calibrator register, for the calibrator a calibration names. */
  calibrators: CalibratorStore;
  /** Reads the instrument's SIC history (through the cache) for the tones' references. */
  read: ReadThroughCache;
  log: Logger;
  now: () => number;
  /** Tests shorten the poll intervals of running actions. */
  polling?: Omit<PollingOptions, 'now'>;
}

/** How far back a SIC's tone references are looked for: enough for ten checks on any usual schedule. */
export const SIC_REFERENCE_SPAN_MS = 366 * 24 * 60 * 60 * 1000;

export function actionHandlers(deps: ActionHandlerDeps): HandlersOf<'actions'> {
  const { accounts, access, operations, now } = deps;

  /**
   * Each SIC tone's reference from the instrument's passing checks of the last year, from the
   * cache or the service. A history that cannot be read leaves the tones unjudged (the verdict says
   * so and the instrument's status decides): it must not stop the check from running.
   */
  async function sicReferencesFor(account: StoredAccount, serial: string): Promise<SicToneReference[]> {
    const end = now();
    try {
      const result = await deps.read(account, {
        serial,
        dataset: 'sic',
        start: end - SIC_REFERENCE_SPAN_MS,
        end,
      });
      return sicReferences(sicRecordsOf(serial, result.records), end);
    } catch (error) {
      deps.log.warn('SIC history not read: the tones of this check are not judged against a reference', {
        serial,
        error,
      });
      return [];
    }
  }

  /**
   * The named calibrator as it is now, with the level it is set to (the reference in force): kept
   * with the result, so a later change of the register does not rewrite what was used.
   */
  function calibratorFor(id: string): CalibratorSnapshot {
    const calibrator = deps.calibrators.get(id);
    if (calibrator === null)
      throw new FieldDeskError(
        'notFound',
        'That calibrator is no longer in the register. Choose another, or “None / not listed”.',
        { field: 'calibratorId' },
      );
    if (calibrator.retired)
      throw new FieldDeskError(
        'invalidInput',
        `${calibrator.model} #${calibrator.serial} is retired. Put it back into use in the calibrator register, or choose another.`,
        { field: 'calibratorId' },
      );
    return {
      id: calibrator.id,
      model: calibrator.model,
      serial: calibrator.serial,
      class: calibrator.class,
      levelDb: deps.settings.get().calibrationReferenceDb,
      nominalLevelsDb: [...calibrator.levelsDb],
      certificateDate: calibrator.certificateDate,
      dueDate: calibrator.dueDate,
    };
  }

  return {
    'actions.start': async ({ serial, action, calibratorId }) => {
      const account = accounts.requireActive();
      const calibrator = calibratorId === undefined ? null : calibratorFor(calibratorId);
      const client = await access.watchingClient(account);
      const references = action === 'SIC' ? await sicReferencesFor(account, serial) : [];
      // Checked after the last await, so two quick clicks cannot both pass.
      const busy = operations.running().find((op) => op.serial === serial);
      if (action === 'Calibration' && deps.settings.state().needsConfirmation) {
        throw new FieldDeskError(
          'invalidInput',
          'Confirm the calibrator reference level and pass tolerance first: the saved settings could not be read, so FieldDesk will not judge a calibration against defaults nobody chose.',
          { field: 'settings' },
        );
      }
      if (busy !== undefined) {
        throw new FieldDeskError(
          'conflict',
          `${busy.action} is already running on ${serial} from FieldDesk. Wait for it to finish, or stop watching it, before starting another action.`,
        );
      }
      if (action === 'Calibration') {
        try {
          deps.calibrators.markUsed(calibrator?.id ?? null);
        } catch (error) {
          // Only which calibrator the wizard offers first next time: never a reason not to calibrate.
          deps.log.warn('calibrator not marked as last used', { error });
        }
      }
      return startActionOperation(
        {
          client,
          progress: createPollingProgressSource(client, { ...deps.polling, now }),
          registry: operations,
          now,
        },
        {
          accountId: account.id,
          serial,
          action,
          settings: deps.settings.get(),
          sicReferences: references,
          ...(action === 'Calibration' ? { calibrator } : {}),
        },
      );
    },

    'actions.history': async ({ serial }) => deps.kept.history(accounts.requireActive().id, serial),
    'actions.lastResults': async () => deps.kept.lastResults(accounts.requireActive().id),
  };
}
