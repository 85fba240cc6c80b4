/**
 * Whether an instrument has the Audio add-on (`subscription.addons` of the instrument record,
 * service-facts.md): from the account's last known instrument list, else asked of the service when
 * it can be reached (fleet.ts). Null when nobody can say (the record names no add-ons, or it cannot
 * be read): then nothing is claimed.
 */
import type { Instrument } from '../../../shared/service/schemas';
import type { StoredAccount } from '../accounts/account-store';
import type { FleetService } from '../instruments/fleet';

export function hasAudioAddon(instrument: Pick<Instrument, 'subscription'>): boolean | null {
  const addons = instrument.subscription?.addons;
  if (!Array.isArray(addons)) return null;
  return addons.some((addon) => typeof addon === 'string' && addon.trim().toLowerCase() === 'audio');
}

export type AudioAddonCheck = (account: StoredAccount, serial: string) => Promise<boolean | null>;

export function createAudioAddonCheck(fleet: FleetService): AudioAddonCheck {
  return async (account, serial) => {
    const instrument = await fleet.instrument(account, serial);
    return instrument === null ? null : hasAudioAddon(instrument);
  };
}
