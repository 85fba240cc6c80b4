/**
 * Instruments: the fleet of the active account with each instrument's live status, one instrument
 * in detail, renaming, and each instrument's health for fleet attention (health.ts). Reads go through the fleet service (fleet.ts), which answers as last
 * known, with the reason, when the service cannot be reached.
 */
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { EventHub } from '../core/events';
import type { HandlersOf } from '../core/handler-types';
import type { FleetService } from './fleet';
import type { HealthService } from './health';
import { fetchInstrumentImage } from './instrument-image';
import { FieldDeskError } from '../../../shared/errors';

export interface InstrumentHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  fleet: FleetService;
  health: HealthService;
  /** What fetches the image (the app's net.fetch; Node's elsewhere). */
  fetch: typeof fetch;
  events: EventHub;
}

export function instrumentHandlers(deps: InstrumentHandlerDeps): HandlersOf<'instruments'> {
  const { accounts, access, fleet, health } = deps;
  return {
    'instruments.list': async () => fleet.list(accounts.requireActive()),
    'instruments.get': async ({ serial }) => fleet.get(accounts.requireActive(), serial),
    'instruments.statuses': async ({ serials }) => fleet.statuses(accounts.requireActive(), serials),
    'instruments.rename': async ({ serial, name }) =>
      access.withAccount(accounts.requireActive(), async (client) => {
        await client.renameInstrument(serial, name);
        return client.getInstrument(serial);
      }),
    'instruments.health': async ({ serials }) => health.read(accounts.requireActive(), serials),
    'instruments.knownHealth': async () => health.known(accounts.requireActive()),
    'instruments.tellUrgent': async (urgent) => {
      // Whether to show it (the window's focus) is the desktop's to judge (main/notifications.ts).
      deps.events.emit('instruments.urgent', urgent);
      return { passedOn: true };
    },
    'instruments.image': async ({ serial }) => {
      // The address the service gave for this instrument (as last known offline), never the renderer's.
      const { instrument } = await fleet.get(accounts.requireActive(), serial);
      if (instrument.image === undefined || instrument.image === null || instrument.image === '')
        throw new FieldDeskError('notFound', `The service gives no image of ${serial}.`);
      return { serial, ...(await fetchInstrumentImage(instrument.image, deps.fetch)) };
    },
  };
}
