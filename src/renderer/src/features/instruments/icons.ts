/** Which icon goes with which instrument type and state (always next to the word). */
import type { IconName } from '../../ui/Icon.vue';
import type { InstrumentKind, InstrumentState } from './logic';

export const TYPE_ICONS: Record<InstrumentKind, IconName> = {
  Noise: 'noise',
  AirQuality: 'air',
  Vibration: 'vibration',
  Other: 'instrument',
};

export const STATE_ICONS: Record<InstrumentState, IconName> = {
  unknown: 'unknown',
  offline: 'offline',
  calibrating: 'calibrating',
  sic: 'sic',
  measuring: 'measuring',
  idle: 'idle',
};
