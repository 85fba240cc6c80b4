/** Which icon goes with which instrument type and state (always next to the word). */
import type { IconName } from '../../ui/Icon.vue';
import type { Tone } from '../../ui/tone';
import { STATE_LABELS, STATE_TONES, type InstrumentKind, type InstrumentState } from './logic';

export const TYPE_ICONS: Record<InstrumentKind, IconName> = {
  Noise: 'noise',
  AirQuality: 'air',
  Vibration: 'vibration',
  Other: 'instrument',
};

export const STATE_ICONS: Record<InstrumentState, IconName> = {
  // Shown as a spinner (`busy`); the icon is the fallback where no spinner fits.
  pending: 'unknown',
  unknown: 'unknown',
  offline: 'offline',
  calibrating: 'calibrating',
  sic: 'sic',
  measuring: 'measuring',
  online: 'online',
  idle: 'idle',
};

/** The StatusPill of a state: one look for it on the list and on the detail page. */
export function statePill(state: InstrumentState): {
  tone: Tone;
  icon: IconName;
  label: string;
  busy: boolean;
} {
  return {
    tone: STATE_TONES[state],
    icon: STATE_ICONS[state],
    label: STATE_LABELS[state],
    busy: state === 'pending',
  };
}
