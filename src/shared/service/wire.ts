/**
 * The service's resources exactly as they travel on the wire (service-interface.md and
 * service-facts.md): ISO 8601 UTC strings for times. The demo service produces these; the
 * client parses them with `schemas.ts` into the app's own types (epoch milliseconds).
 */
export const INSTRUMENT_TYPES = ['Noise', 'AirQuality', 'Vibration'] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];

export const INSTRUMENT_FEATURES = ['SIC', 'Modem', 'Weather'] as const;
export type InstrumentFeature = (typeof INSTRUMENT_FEATURES)[number];

export const SUBSCRIPTION_STATUSES = ['Active', 'Cancelled', 'Expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_TIERS = ['Standard', 'Pro', 'Storage', 'Track', 'Enviro'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

export const ACTIONS = ['Identify', 'Calibration', 'SIC'] as const;
export type ActionName = (typeof ACTIONS)[number];

export const ACTION_STATUSES = ['Success', 'Failed', 'InProgress'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export interface WireInstrument {
  type: InstrumentType;
  serialNumber: string;
  model: string;
  name: string;
  image: string;
  subscription: { status: SubscriptionStatus; tier: SubscriptionTier; addons?: string[] };
  position: { lat: number; long: number };
  feature: InstrumentFeature[];
}

export interface WireCalibrationStatus {
  time: string;
  status: string;
  level: number;
  offset: number;
}

export interface WireSicStatus {
  time: string;
  status: string;
  _500Hz: number;
  _1KHz: number;
  _8KHz: number;
}

export interface WireInstrumentStatus {
  online: boolean;
  measuring: boolean;
  calibrationInProgress: boolean;
  sicInProgress: boolean;
  /**
   * `{}` when the instrument has never been calibrated (as the real service's documentation shows);
   * clients must also accept null or absent.
   */
  lastCalibration?: WireCalibrationStatus | Record<string, never> | null;
  /** `{}` when the instrument has never run a SIC; null or absent accepted too. */
  lastSic?: WireSicStatus | Record<string, never> | null;
}

export interface WireActionResult {
  action: ActionName;
  status: ActionStatus;
}

export interface WireErrorBody {
  error: string;
  description: string;
}
