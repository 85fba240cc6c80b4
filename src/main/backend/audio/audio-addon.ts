/**
 * Whether an instrument has the Audio add-on (`subscription.addons` of the instrument record,
 * service-facts.md): from the account's last known instrument list, else asked of the service when
 * it can be reached. Null when nobody can say (the record names no add-ons, or it cannot be read):
 * then nothing is claimed.
 */
import type { Instrument } from '../../../shared/service/schemas';
import type { StoredAccount } from '../accounts/account-store';
import type { ServiceAccess } from '../accounts/service-access';
import type { ConnectivityService } from '../connectivity/connectivity';
import type { LocalData } from '../local-data';

export function hasAudioAddon(instrument: Pick<Instrument, 'subscription'>): boolean | null {
  const addons = instrument.subscription?.addons;
  if (!Array.isArray(addons)) return null;
  return addons.some((addon) => typeof addon === 'string' && addon.trim().toLowerCase() === 'audio');
}

export type AudioAddonCheck = (account: StoredAccount, serial: string) => Promise<boolean | null>;

export function createAudioAddonCheck(
  local: LocalData,
  access: ServiceAccess,
  connectivity: ConnectivityService,
): AudioAddonCheck {
  return async (account, serial) => {
    let known: Pick<Instrument, 'subscription'> | undefined;
    try {
      known = local
        .knownFleets()
        .get(account.id)
        ?.entries.find((entry) => entry.instrument.serialNumber === serial)?.instrument;
    } catch {
      known = undefined; // No local database: ask the service.
    }
    if (known !== undefined) return hasAudioAddon(known);
    if (connectivity.offlineReason(account.id) !== null) return null;
    try {
      return hasAudioAddon(await access.withAccount(account, (client) => client.getInstrument(serial)));
    } catch {
      return null;
    }
  };
}
