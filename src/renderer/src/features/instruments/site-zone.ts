/**
 * An instrument's site time zone: from its position with @photostructure/tz-lookup (the zone
 * boundaries, offline, in 29 KB), or chosen by the user when it reports no position. Imported only
 * by views that load when first opened, so the instruments list does not carry the lookup.
 */
import tzLookup from '@photostructure/tz-lookup';
import { isSiteZone, type SiteZone } from '../../ui/time';

export interface Position {
  lat: number;
  long: number;
}

/** The IANA zone at a position ("Europe/London"); null when it cannot be looked up. */
export function zoneAtPosition(position: Position | null | undefined): SiteZone | null {
  if (!position) return null;
  try {
    const zone = tzLookup(position.lat, position.long);
    return isSiteZone(zone) ? zone : null;
  } catch {
    return null; // out of range: the parser already keeps such positions out, so this is a guard
  }
}

/** Every zone the browser knows, for choosing a site's zone by hand. */
export function knownZones(): SiteZone[] {
  return Intl.supportedValuesOf('timeZone').filter(isSiteZone);
}
