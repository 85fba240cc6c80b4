/**
 * Field actions (`actions.*`): Identify, Calibration and SIC started on an instrument and watched
 * as operations until the result is in (action-operation.ts), and the local record of finished
 * actions (action-records.ts).
 */
import { FieldDeskError } from '../../../shared/errors';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
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
  now: () => number;
  /** Tests shorten the poll intervals of running actions. */
  polling?: Omit<PollingOptions, 'now'>;
}

export function actionHandlers(deps: ActionHandlerDeps): HandlersOf<'actions'> {
  const { accounts, access, operations, now } = deps;
  return {
    'actions.start': async ({ serial, action }) => {
      const account = accounts.requireActive();
      const client = await access.watchingClient(account);
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
      return startActionOperation(
        {
          client,
          progress: createPollingProgressSource(client, { ...deps.polling, now }),
          registry: operations,
          now,
        },
        { accountId: account.id, serial, action, settings: deps.settings.get() },
      );
    },

    'actions.history': async ({ serial }) => deps.kept.history(accounts.requireActive().id, serial),
  };
}
